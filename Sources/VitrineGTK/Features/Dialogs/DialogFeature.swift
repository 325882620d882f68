import Vitrine

/// The window's own dialogs, one at a time: a question (`confirm`, the chain's and
/// strategies' `ContainerHost.confirm`), a message (`dialog` capability), a file chooser
/// (`dialog` capability). A second dialog while one is open is declined; every open dialog
/// is dismissed, and its question answered "no", when the window goes.
@MainActor
public final class DialogFeature: WindowFeature {
    private weak var window: WebContainer?
    private var confirmation: ConfirmationDialog?
    private var fileChooser: FileChooser?

    public init() {}

    public func attach(to host: any FeatureHost) {
        window = host.container
    }

    public func tearDown() {
        confirmation?.dismiss()
        confirmation = nil
        fileChooser?.dismiss()
        fileChooser = nil
    }

    /// Whether a dialog of this window is open (another one, or a print dialog, waits).
    var isAnyOpen: Bool { confirmation != nil || fileChooser != nil }

    /// Asks the user; false when declined, when another dialog is open or the window went.
    public func confirm(title: String, message: String) async -> Bool {
        guard let window, !window.isTornDown, confirmation == nil else { return false }
        let dialog = ConfirmationDialog(parent: window.windowPointer, title: title, message: message)
        confirmation = dialog
        defer { if confirmation === dialog { confirmation = nil } }
        window.record(.native(action: .confirm, detail: title))
        return await dialog.ask()
    }

    /// Answers the open question as a user would (for tests and remote control).
    public func respond(accept: Bool) {
        confirmation?.respond(accept: accept)
    }

    /// Whether a question or message is showing.
    public var isShowingDialog: Bool { confirmation?.isOpen == true }

    /// Tells the user something and waits until they close it.
    public func showMessage(title: String, message: String) async {
        guard let window, !window.isTornDown, confirmation == nil else { return }
        let dialog = ConfirmationDialog(parent: window.windowPointer, title: title, message: message, acknowledgeOnly: true)
        confirmation = dialog
        defer { if confirmation === dialog { confirmation = nil } }
        window.record(.native(action: .message, detail: title))
        _ = await dialog.ask()
    }

    /// Asks the user for files, a folder or a file to save: the paths, or nil when cancelled.
    public func chooseFiles(_ request: FileDialogRequest) async throws -> [String]? {
        guard let window, !window.isTornDown, fileChooser == nil, confirmation == nil else {
            throw ScriptMessageError("dialog: another dialog of this window is open")
        }
        let chooser = FileChooser(parent: window.windowPointer, request: request)
        fileChooser = chooser
        defer { if fileChooser === chooser { fileChooser = nil } }
        window.record(.native(action: .fileDialog, detail: request.kind.rawValue))
        return await chooser.choose()
    }
}
