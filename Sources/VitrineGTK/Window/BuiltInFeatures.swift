/// The features every window has, in the order they hear its life. A new feature is
/// one line here and a folder of its own under Features/.
@MainActor
enum BuiltInFeatures {
    static func features(for window: WebContainer) -> [any WindowFeature] {
        var features: [any WindowFeature] = [
            WindowControlFeature(),
            DialogFeature(),
            DeepLinkFeature(),
            MenuFeature(),
            TrayFeature(),
            ShortcutFeature(),
            NotificationFeature(),
            ClipboardFeature(),
            PrintFeature(),
            ReportsFeature(),
            ColorSchemeFeature(),
            PowerFeature(),
            SidecarsFeature(),
            UpdateFeature(),
        ]
        if let kiosk = window.configuration.kiosk { features.append(KioskGuard(container: window, options: kiosk)) }
        // Last: a playlist's runner acts on a load once every other feature has heard it.
        features.append(SignageFeature())
        return features
    }
}
