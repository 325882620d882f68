/// A JavaScript dialog a page opened (`alert`, `confirm`, `prompt`, or the "leave this
/// page?" question of `beforeunload`).
public enum ScriptDialogKind: String, Sendable, CaseIterable {
    case alert, confirm, prompt
    case beforeUnload = "before-unload"
}

/// Nothing native opens over a locked-down kiosk, and nothing but its owner closes it: no
/// script dialog blocks the page, no file or colour chooser, print dialog or credentials
/// prompt appears, and neither the page nor the window manager ends it (SIGTERM, `vitrine
/// ctl` and the systemd unit do). Other windows keep WebKit's and the desktop's behaviour.
extension Configuration {
    /// Whether the container is a kiosk under lockdown.
    public var isLockedDown: Bool { kiosk?.lockdown == true }

    /// The answer a script dialog of `kind` gets without being shown, or nil: WebKit shows
    /// its own dialog.
    public func answer(toScriptDialog kind: ScriptDialogKind) -> ScriptDialogAnswer? {
        guard isLockedDown else { return nil }
        switch kind {
        case .alert: return .dismissed
        case .confirm: return .confirmed(false)
        case .prompt: return .text(nil)
        // Leaving is the kiosk's own business (an idle reset, a remote "home").
        case .beforeUnload: return .confirmed(true)
        }
    }

    /// Whether GTK's file and colour choosers, its print dialog and WebKit's credentials
    /// prompt may open over the page.
    public var opensNativeDialogs: Bool { !isLockedDown }

    /// Whether `request` may close the window.
    public func mayClose(by request: CloseRequest) -> Bool { !isLockedDown }

    /// A style sheet for WebKit's built-in PDF viewer (PDF.js), or nil: the viewer as it
    /// comes. Locked down, the document is all there is: no toolbar, sidebar, find bar or
    /// menu (open, print, download, presentation). Their keys reach only what the other
    /// gates allow: print and the file chooser are refused, a download needs a folder.
    public var pdfViewerStyleSheet: PDFViewerStyleSheet? { isLockedDown ? .lockdown : nil }
}

