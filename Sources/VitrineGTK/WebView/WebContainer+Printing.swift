import CWebKitGTK
import Vitrine

/// The `print` capability for pages, and the same for embedders.
extension WebContainer {
    public func printPage(owner: FrameToken) async throws -> Bool {
        let pane = try pane(showing: owner, for: "print")
        guard fileChooser == nil, confirmation == nil else { throw ScriptMessageError("print: another dialog of this window is open") }
        record(.native(action: .printDialog, detail: pane.currentURL?.absoluteString ?? ""))
        return await pagePrinter.dialog(for: pane.webView, over: windowPointer)
    }

    public func pagePDF(_ settings: PrintSettings, owner: FrameToken) async throws -> [UInt8] {
        try await pagePDF(of: pane(showing: owner, for: "print"), settings)
    }

    /// The active page as PDF, laid out by `settings` (paper size, orientation, margins;
    /// its destination is not used), without a dialog.
    public func activePagePDF(_ settings: PrintSettings) async throws -> [UInt8] {
        guard !isTornDown else { throw ScriptMessageError("print: this window is closed") }
        return try await pagePDF(of: activePane, settings)
    }

    private func pagePDF(of pane: WebPane, _ settings: PrintSettings) async throws -> [UInt8] {
        let bytes = try await pagePrinter.pdf(of: pane.webView, settings: settings)
        record(.native(action: .printPDF, detail: "\(bytes.count) bytes"))
        return bytes
    }

    /// The pane whose top document `owner` is, while it is shown.
    func pane(showing owner: FrameToken, for capability: String) throws(ScriptMessageError) -> WebPane {
        guard !isTornDown, let pane = panes.first(where: { $0.messages.frames.mainToken == owner }) else {
            throw ScriptMessageError("\(capability): the calling document is no longer shown")
        }
        return pane
    }
}
