import Vitrine

/// The `dialog` capability's service: `chooseFiles` and `showMessage` are the feature's.
extension DialogFeature: FileDialogService {}
