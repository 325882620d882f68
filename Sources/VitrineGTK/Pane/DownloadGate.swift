import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Downloads of this pane's view: refused unless the container has a download folder;
/// otherwise written there under the server's suggested name (`DownloadDestination`).
///
/// WebKit announces downloads on the web context (`download-started`), for every view:
/// each gate takes its own view's. Each download's own handlers are connected with the
/// download as instance and end with it.
@MainActor
final class DownloadGate: PaneCollaborator {
    private weak var pane: WebPane?
    let signals = SignalConnections()

    func attach(to pane: WebPane) {
        self.pane = pane
        signals.connect(gptr(ProcessWebContext.current), "download-started",
                        context: SignalContext(owner: self), handler: gCallback(onDownloadStarted))
    }

    fileprivate func started(_ download: UnsafeMutablePointer<WebKitDownload>) {
        guard let pane, let view = webkit_download_get_web_view(download), view == pane.webView else { return }
        let uri = webkit_download_get_request(download).flatMap { string(webkit_uri_request_get_uri($0)) } ?? ""
        guard let container = pane.container, !pane.isTornDown, let directory = pane.configuration.downloadDirectory else {
            webkit_download_cancel(download)
            pane.record(.native(action: .downloadRefused, detail: uri))
            return
        }
        container.record(.native(action: .downloadStarted, detail: uri))
        // The download lives until finished or failed; its handlers are released with it.
        for (signal, handler) in [("decide-destination", gCallback(onDecideDestination)), ("finished", gCallback(onFinished))] {
            let context = Unmanaged.passRetained(DownloadContext(directory: directory, container: container)).toOpaque()
            g_signal_connect_data(gptr(download), signal, handler, context, { data, _ in
                guard let data else { return }
                Unmanaged<DownloadContext>.fromOpaque(data).release()
            }, GConnectFlags(rawValue: 0))
        }
    }
}

/// What a download's handlers need: where to write, whom to tell.
private final class DownloadContext {
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
    guard let download else { return }
    onMainLoop((download, data)) { download, data in SignalContext.owner(data, as: DownloadGate.self)?.started(download) }
}

/// `decide-destination`: `gboolean (*)(WebKitDownload*, gchar*, gpointer)`.
private let onDecideDestination: @convention(c) (UnsafeMutablePointer<WebKitDownload>?, UnsafeMutablePointer<gchar>?, gpointer?) -> gboolean = {
    download, suggested, data in
    guard let download, let context = DownloadContext.from(data) else { return 0 }
    let name = suggested.map { String(cString: $0) } ?? "download"
    webkit_download_set_destination(download, DownloadDestination.path(in: context.directory, suggested: name))
    return 1
}

/// `finished` on a download: `void (*)(WebKitDownload*, gpointer)`.
private let onFinished: @convention(c) (UnsafeMutablePointer<WebKitDownload>?, gpointer?) -> Void = { download, data in
    guard let download else { return }
    let destination = string(webkit_download_get_destination(download)) ?? ""
    onMainLoop(data) { data in
        DownloadContext.from(data)?.container?.record(.native(action: .downloadFinished, detail: destination))
    }
}
