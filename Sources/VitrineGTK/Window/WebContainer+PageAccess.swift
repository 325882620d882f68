import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// What the pages show: their URLs and titles, scripts run in them, snapshots.
extension WebContainer {
    /// The URL the active view shows.
    public var currentURL: URL? { activePane.currentURL }

    /// The active view's page title ("" when it has none).
    public var pageTitle: String { string(webkit_web_view_get_title(activePane.webView)) ?? "" }

    /// The URL tab `index` shows.
    func url(ofTab index: Int) -> URL? {
        panes.indices.contains(index) ? panes[index].currentURL : nil
    }

    /// The window's title as GTK shows it.
    public var windowTitle: String {
        string(gtk_window_get_title(windowPointer)) ?? ""
    }

    /// Runs JavaScript in the active page and returns its result as JSON.
    public func evaluate(_ script: String) async throws -> JSONValue {
        try await JavaScriptEvaluation.run(script, in: activePane.webView)
    }

    /// Runs a JavaScript function body that may `await` in the active page, and returns
    /// what it resolves to.
    public func evaluateAsync(_ functionBody: String) async throws -> JSONValue {
        try await JavaScriptEvaluation.runAsyncFunction(functionBody, in: activePane.webView)
    }

    /// Writes a PNG of the visible part of the active page to `path`.
    public func snapshot(to path: String) async throws {
        try await Snapshot.write(activePane.webView, to: path)
    }

    /// The pane whose top document `owner` is, while it is shown.
    func pane(showing owner: FrameToken, for capability: String) throws(ScriptMessageError) -> WebPane {
        guard !isTornDown, let pane = panes.first(where: { $0.messages.frames.mainToken == owner }) else {
            throw ScriptMessageError("\(capability): the calling document is no longer shown")
        }
        return pane
    }
}
