import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Downloads: refused unless the container has a download folder; otherwise written there
/// under the server's suggested name (reduced to a plain file name, never overwriting).
///
/// WebKit announces downloads on the web context (`download-started`), so one router,
/// connected once for the process's lifetime, finds the pane by its view. Each download's
/// own signals are connected with the download as instance and end with it.
@MainActor
final class DownloadRouter {
    static let shared = DownloadRouter()

    private var panes: [UnsafeMutableRawPointer: WeakPane] = [:]
    private let signals = SignalConnections()
    private var isConnected = false

    private struct WeakPane { weak var pane: WebPane? }

    func add(_ pane: WebPane) {
        panes[UnsafeMutableRawPointer(pane.webView)] = WeakPane(pane: pane)
        guard !isConnected else { return }
        isConnected = true
        signals.connect(gptr(webkit_web_context_get_default()), "download-started",
                        context: SignalContext(owner: self), handler: gCallback(onDownloadStarted))
    }

    func remove(_ pane: WebPane) {
        panes[UnsafeMutableRawPointer(pane.webView)] = nil
    }

    fileprivate func started(_ download: UnsafeMutablePointer<WebKitDownload>) {
        let view = webkit_download_get_web_view(download).map { UnsafeMutableRawPointer($0) }
        let container = view.flatMap { panes[$0]?.pane?.container }
        guard let container, let directory = container.configuration.downloadDirectory else {
            webkit_download_cancel(download)
            container?.record(.native(action: "download-refused", detail: Self.uri(download)))
            return
        }
        container.record(.native(action: "download-started", detail: Self.uri(download)))
        // The download lives until finished or failed; its handlers are released with it.
        let context = Unmanaged.passRetained(DownloadContext(directory: directory, container: container)).toOpaque()
        let release: GClosureNotify = { data, _ in
            guard let data else { return }
            Unmanaged<DownloadContext>.fromOpaque(data).release()
        }
        g_signal_connect_data(gptr(download), "decide-destination", gCallback(onDecideDestination), context, release, GConnectFlags(rawValue: 0))
        g_signal_connect_data(gptr(download), "finished", gCallback(onFinished),
                              Unmanaged.passRetained(DownloadContext(directory: directory, container: container)).toOpaque(),
                              release, GConnectFlags(rawValue: 0))
    }

    nonisolated static func uri(_ download: UnsafeMutablePointer<WebKitDownload>) -> String {
        webkit_download_get_request(download).flatMap { string(webkit_uri_request_get_uri($0)) } ?? ""
    }

    /// A plain file name in `directory` that does not exist yet.
    nonisolated static func destination(in directory: URL, suggested: String) -> String {
        let base = suggested.split(separator: "/").last.map(String.init) ?? ""
        let name = base.isEmpty || base == "." || base == ".." ? "download" : base
        var candidate = directory.appendingPathComponent(name).path
        var counter = 1
        while FileSystem.isRegularFile(candidate) || FileSystem.isDirectory(candidate) {
            counter += 1
            candidate = directory.appendingPathComponent("\(counter)-\(name)").path
        }
        return candidate
    }

    nonisolated static func from(_ data: gpointer?) -> DownloadRouter? {
        MainActor.assumeIsolated { SignalContext.owner(data, as: DownloadRouter.self) }
    }
}

/// What a download's handlers need: where to write, whom to tell.
final class DownloadContext {
    let directory: URL
    weak var container: WebContainer?

    init(directory: URL, container: WebContainer) {
        self.directory = directory
        self.container = container
    }

    static func from(_ data: gpointer?) -> DownloadContext? {
        data.map { Unmanaged<DownloadContext>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// `download-started` on the web context: `void (*)(WebKitWebContext*, WebKitDownload*, gpointer)`.
private let onDownloadStarted: @convention(c) (OpaquePointer?, UnsafeMutablePointer<WebKitDownload>?, gpointer?) -> Void = {
    _, download, data in
    guard let download, let router = DownloadRouter.from(data) else { return }
    MainActor.assumeIsolated { router.started(download) }
}

/// `decide-destination`: `gboolean (*)(WebKitDownload*, gchar*, gpointer)`.
private let onDecideDestination: @convention(c) (UnsafeMutablePointer<WebKitDownload>?, UnsafeMutablePointer<gchar>?, gpointer?) -> gboolean = {
    download, suggested, data in
    guard let download, let context = DownloadContext.from(data) else { return 0 }
    let name = suggested.map { String(cString: $0) } ?? "download"
    webkit_download_set_destination(download, DownloadRouter.destination(in: context.directory, suggested: name))
    return 1
}

/// `finished` on a download: `void (*)(WebKitDownload*, gpointer)`.
private let onFinished: @convention(c) (UnsafeMutablePointer<WebKitDownload>?, gpointer?) -> Void = { download, data in
    guard let download, let context = DownloadContext.from(data) else { return }
    let destination = string(webkit_download_get_destination(download)) ?? ""
    MainActor.assumeIsolated { context.container?.record(.native(action: "download-finished", detail: destination)) }
}
