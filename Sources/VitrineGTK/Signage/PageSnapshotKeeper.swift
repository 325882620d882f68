import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Playlist pages' last good loads (`PageSnapshots`, `SnapshotPolicy`): saved as MHTML
/// (`webkit_web_view_save`) after a page item loaded with a 2xx answer, and shown instead
/// when its live load fails (`ScheduleRunner`: proof of play `stale`).
///
/// A snapshot is shown at `vitrine-snapshot://<sha256>/` (`PageSnapshotScheme`): the
/// archive's document, its references to the archive's parts pointed at the snapshot's own
/// part addresses (`SnapshotContent`), under a policy that lets nothing in from the network
/// and runs no script. Pages cannot reach it: WebKit refuses a non-local page's load of a
/// local URL, the navigation adapter lets a snapshot address through only when this keeper
/// asked for it in that pane, and the scheme serves a snapshot only to the view it is shown
/// in, while it shows it. The snapshot has its own origin: none of the live site's grants,
/// no bridge.
///
/// Ownership: owned by its container; a save's callback holds it weakly.
@MainActor
final class PageSnapshotKeeper {
    let store: PageSnapshots
    let policy: SnapshotPolicy
    private weak var container: WebContainer?
    private var lastSaved: [URL: Date] = [:]

    init(container: WebContainer, policy: SnapshotPolicy = SnapshotPolicy()) {
        self.container = container
        self.policy = policy
        store = PageSnapshots(folder: PageSnapshots.folder(in: container.configuration.appDataDirectory),
                              maximumBytes: policy.maximumBytes, digest: Self.sha256)
    }

    /// SHA-256 of `text` in lowercase hex (GLib's).
    nonisolated static func sha256(_ text: String) -> String {
        guard let sum = g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, -1) else { return "" }
        defer { g_free(sum) }
        return String(cString: sum)
    }

    /// The playlist page `url` is on screen in `pane`: kept, when the policy says so.
    func pageShown(_ url: URL, in pane: WebPane, isMedia: Bool) {
        guard !pane.isTornDown, pane.currentURL?.isSamePage(as: url) == true else { return }
        let now = Date()
        guard policy.shouldSave(url, statusCode: Self.statusCode(of: pane), isMedia: isMedia, lastSaved: lastSaved[url], now: now)
        else { return }
        lastSaved[url] = now
        let view = pane.webView
        AsyncCallback.call({ callback, data in
            webkit_web_view_save(view, WEBKIT_SAVE_MODE_MHTML, nil, callback, data)
        }, finish: { [weak self] _, result in
            // GIO holds the view (the source) until this callback ran.
            var error: UnsafeMutablePointer<GError>?
            guard let stream = webkit_web_view_save_finish(view, result, &error) else {
                let reason = GLibError.take(&error, "WebKit could not save the page").description
                self?.failed(url, reason)
                return
            }
            self?.collect(stream, of: url)
            g_object_unref(gptr(stream))
        })
    }

    /// Reads the archive WebKit streams (without blocking the main loop: the stream is
    /// fed by the web process) into memory, then keeps it.
    private func collect(_ stream: UnsafeMutablePointer<GInputStream>, of url: URL) {
        let memory = g_memory_output_stream_new_resizable()!
        let flags = GOutputStreamSpliceFlags(rawValue: G_OUTPUT_STREAM_SPLICE_CLOSE_SOURCE.rawValue | G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET.rawValue)
        AsyncCallback.call({ callback, data in
            g_output_stream_splice_async(memory, stream, flags, G_PRIORITY_DEFAULT, nil, callback, data)
        }, finish: { [weak self] _, result in
            defer { g_object_unref(gptr(memory)) }
            var error: UnsafeMutablePointer<GError>?
            let size = g_output_stream_splice_finish(memory, result, &error)
            guard let self else { return g_clear_error(&error) }
            guard size >= 0 else { return self.failed(url, GLibError.take(&error, "the page could not be read").description) }
            let bytes = g_memory_output_stream_steal_as_bytes(UnsafeMutableRawPointer(memory).assumingMemoryBound(to: GMemoryOutputStream.self))
            defer { g_bytes_unref(bytes) }
            var count = 0
            guard let start = g_bytes_get_data(bytes, &count), count > 0 else { return self.failed(url, "the page was empty") }
            let data = Data(bytes: start, count: count)
            do {
                try self.store.save(data, for: url)
                self.container?.record(.native(action: .snapshotSaved, detail: "\(url.absoluteString) \(data.count)"))
            } catch {
                self.failed(url, "\(error)")
            }
        })
    }

    /// A failed save is not tried again before the interval either (a page too large
    /// would otherwise be serialized at every turn).
    private func failed(_ url: URL, _ reason: String) {
        container?.record(.native(action: .snapshotFailed, detail: "\(url.absoluteString) \(reason)"))
    }

    /// Whether `url` has a snapshot to show.
    func hasSnapshot(for url: URL) -> Bool { store.hasSnapshot(for: url) }

    /// Whether `pane` is loading: a failed page's error page is, and WebKit drops a load
    /// started before that one ends (the runner waits for its end).
    func isLoading(_ pane: WebPane) -> Bool { webkit_web_view_is_loading(pane.webView) != 0 }

    /// Shows `url`'s snapshot in `pane` (read once, here): the address it is shown at, or
    /// nil when there is none, or it cannot be shown (`snapshot-failed`: a damaged or
    /// hostile archive).
    func show(_ url: URL, in pane: WebPane) -> URL? {
        guard !pane.isTornDown, let kept = store.kept(for: url) else { return nil }
        let content: SnapshotContent
        do {
            content = try SnapshotContent(archive: MHTMLArchive(kept.data, limits: .init(maximumBytes: store.maximumBytes)),
                                          address: kept.address)
        } catch {
            failed(url, "the kept copy cannot be shown: \(error)")
            return nil
        }
        pane.shownSnapshot = PageSnapshotScheme.shared.serve(content, to: pane.webView)
        pane.expectedSnapshot = kept.address
        webkit_web_view_load_uri(pane.webView, kept.address.absoluteString)
        return kept.address
    }

    /// The main resource's HTTP status (0: none, as for an error page).
    private static func statusCode(of pane: WebPane) -> Int {
        guard let resource = webkit_web_view_get_main_resource(pane.webView),
              let response = webkit_web_resource_get_response(resource) else { return 0 }
        return Int(webkit_uri_response_get_status_code(response))
    }
}
