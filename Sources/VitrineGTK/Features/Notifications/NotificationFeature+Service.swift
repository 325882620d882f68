import Vitrine

/// The `notification` capability's service: `notify` is the feature's.
extension NotificationFeature: NotificationService {}
