import CWebKitGTK
import Vitrine

/// `script-dialog`, `run-file-chooser`, `run-color-chooser` and `print` → the
/// configuration's native-UI policy (`answer(toScriptDialog:)`, `opensNativeDialogs`).
/// Where the policy allows them, WebKit opens its own; under kiosk lockdown each is
/// answered at once (script dialogs) or refused, claimed, and logged as `blocked-dialog`.
/// With `[printing]`, print requests go to the `SilentPrinter` instead, whatever the
/// lockdown. With the pane gone, nothing opens.
@MainActor
final class DialogGate: PaneCollaborator {
    private weak var pane: WebPane?
    let signals = SignalConnections()
    private var printer: SilentPrinter?

    func attach(to pane: WebPane) {
        self.pane = pane
        printer = SilentPrinter(pane: pane)
        connect("script-dialog", of: pane, gCallback(onScriptDialog))
        connect("run-file-chooser", of: pane, gCallback(onFileChooser))
        connect("run-color-chooser", of: pane, gCallback(onColorChooser))
        connect("print", of: pane, gCallback(onPrint))
    }

    /// The configuration of a pane still in service, or nil (then nothing opens).
    private var configuration: Configuration? {
        guard let pane, !pane.isTornDown, pane.container != nil else { return nil }
        return pane.configuration
    }

    /// Answers a script dialog at once when the policy says so. Returns whether it did.
    fileprivate func scriptDialog(_ dialog: OpaquePointer) -> Bool {
        let kind = Self.kind(of: dialog)
        guard let configuration else {
            Self.apply(.confirmed(false), to: dialog)
            return true
        }
        guard let answer = configuration.answer(toScriptDialog: kind) else { return false }
        Self.apply(answer, to: dialog)
        let message = string(webkit_script_dialog_get_message(dialog)) ?? ""
        pane?.record(.native(action: .blockedDialog, detail: "\(kind.rawValue): \(message.prefix(120))"))
        return true
    }

    func tearDown() {
        signals.disconnectAll()
        printer?.tearDown()
    }

    /// Whether WebKit's print dialog may open: never when `[printing]` took the request
    /// (or the pane is gone), else as `mayOpen` says.
    fileprivate func mayOpenPrintDialog(_ operation: UnsafeMutablePointer<WebKitPrintOperation>) -> Bool {
        guard configuration != nil else { return false }
        if printer?.handle(operation) == true { return false }
        return mayOpen("print")
    }

    /// Whether a native picker or the print dialog may open; if not, logs that it did not.
    fileprivate func mayOpen(_ what: String) -> Bool {
        guard let configuration else { return false }
        if configuration.opensNativeDialogs { return true }
        pane?.record(.native(action: .blockedDialog, detail: what))
        return false
    }

    private static func kind(of dialog: OpaquePointer) -> ScriptDialogKind {
        switch webkit_script_dialog_get_dialog_type(dialog) {
        case WEBKIT_SCRIPT_DIALOG_CONFIRM: .confirm
        case WEBKIT_SCRIPT_DIALOG_PROMPT: .prompt
        case WEBKIT_SCRIPT_DIALOG_BEFORE_UNLOAD_CONFIRM: .beforeUnload
        default: .alert
        }
    }

    /// Sets the answer; WebKit completes the dialog when the signal returns TRUE.
    private static func apply(_ answer: ScriptDialogAnswer, to dialog: OpaquePointer) {
        switch answer {
        case .dismissed: break
        case .confirmed(let choice):
            let type = webkit_script_dialog_get_dialog_type(dialog)
            if type == WEBKIT_SCRIPT_DIALOG_CONFIRM || type == WEBKIT_SCRIPT_DIALOG_BEFORE_UNLOAD_CONFIRM {
                webkit_script_dialog_confirm_set_confirmed(dialog, choice ? 1 : 0)
            }
        case .text(let text):
            if let text, webkit_script_dialog_get_dialog_type(dialog) == WEBKIT_SCRIPT_DIALOG_PROMPT {
                webkit_script_dialog_prompt_set_text(dialog, text)
            }
        }
    }
}

/// `script-dialog`: `gboolean (*)(WebKitWebView*, WebKitScriptDialog*, gpointer)`; TRUE: answered here.
private let onScriptDialog: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> gboolean = { _, dialog, data in
    guard let dialog else { return 0 }
    return onMainLoop((dialog, data)) { dialog, data in
        guard let gate = SignalContext.owner(data, as: DialogGate.self) else { return true }
        return gate.scriptDialog(dialog)
    } ? 1 : 0
}

/// `run-file-chooser`: `gboolean (*)(WebKitWebView*, WebKitFileChooserRequest*, gpointer)`.
private let onFileChooser: @convention(c) (OpaquePointer?, UnsafeMutablePointer<WebKitFileChooserRequest>?, gpointer?) -> gboolean = { _, request, data in
    guard let request else { return 1 }
    return onMainLoop((request, data)) { request, data in
        if SignalContext.owner(data, as: DialogGate.self)?.mayOpen("file-chooser") == true { return false }
        webkit_file_chooser_request_cancel(request)
        return true
    } ? 1 : 0
}

/// `run-color-chooser`: `gboolean (*)(WebKitWebView*, WebKitColorChooserRequest*, gpointer)`.
private let onColorChooser: @convention(c) (OpaquePointer?, UnsafeMutablePointer<WebKitColorChooserRequest>?, gpointer?) -> gboolean = { _, request, data in
    guard let request else { return 1 }
    return onMainLoop((request, data)) { request, data in
        if SignalContext.owner(data, as: DialogGate.self)?.mayOpen("color-chooser") == true { return false }
        webkit_color_chooser_request_cancel(request)
        return true
    } ? 1 : 0
}

/// `print`: `gboolean (*)(WebKitWebView*, WebKitPrintOperation*, gpointer)`; TRUE: no print dialog.
private let onPrint: @convention(c) (OpaquePointer?, UnsafeMutablePointer<WebKitPrintOperation>?, gpointer?) -> gboolean = { _, operation, data in
    guard let operation else { return 1 }
    return onMainLoop((operation, data)) { operation, data in
        SignalContext.owner(data, as: DialogGate.self)?.mayOpenPrintDialog(operation) != true
    } ? 1 : 0
}
