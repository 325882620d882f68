import CWebKitGTK
import Vitrine

/// Printing a window's pages: the `print` capability's dialog and PDF for the document that
/// asked, and the same for embedders (`activePagePDF`). Its `PagePrinter` owns the jobs.
@MainActor
public final class PrintFeature: WindowFeature {
    private(set) weak var window: WebContainer?
    private let printer = PagePrinter()

    public init() {}

    public func attach(to host: any FeatureHost) {
        window = host.container
    }

    public func tearDown() {
        printer.tearDown()
    }

    /// Shows the print dialog for the page of the top document `owner`: whether the user printed.
    public func printPage(owner: FrameToken) async throws -> Bool {
        guard let window else { throw ScriptMessageError("print: this window is closed") }
        let pane = try window.stage.pane(showing: owner, for: "print")
        guard window.feature(DialogFeature.self)?.isAnyOpen != true else {
            throw ScriptMessageError("print: another dialog of this window is open")
        }
        window.record(.native(action: .printDialog, detail: pane.currentURL?.absoluteString ?? ""))
        return await printer.dialog(for: pane.webView, over: window.windowPointer)
    }

    /// The page of the top document `owner` as PDF, laid out by `settings`.
    public func pagePDF(_ settings: PrintSettings, owner: FrameToken) async throws -> [UInt8] {
        guard let window else { throw ScriptMessageError("print: this window is closed") }
        return try await pagePDF(of: window.stage.pane(showing: owner, for: "print"), settings)
    }

    /// The active page as PDF, laid out by `settings` (paper size, orientation, margins;
    /// its destination is not used), without a dialog.
    public func activePagePDF(_ settings: PrintSettings) async throws -> [UInt8] {
        guard let window, !window.isTornDown else { throw ScriptMessageError("print: this window is closed") }
        return try await pagePDF(of: window.stage.activePane, settings)
    }

    private func pagePDF(of pane: WebPane, _ settings: PrintSettings) async throws -> [UInt8] {
        let bytes = try await printer.pdf(of: pane.webView, settings: settings)
        window?.record(.native(action: .printPDF, detail: "\(bytes.count) bytes"))
        return bytes
    }
}
