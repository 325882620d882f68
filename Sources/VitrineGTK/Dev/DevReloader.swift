import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// `vitrine dev`'s live reload: the folder's file events, debounced, reload the container's
/// page (the window, its size and the native state stay). Each reload is logged as a
/// `native` event `dev-reload` with the file that triggered it.
@MainActor
public final class DevReloader {
    private let watch: FolderWatch
    private weak var container: WebContainer?
    private var debouncer: ReloadDebouncer?
    /// The file whose event started the pending reload's wait last.
    private var lastChange = ""

    public init(container: WebContainer, folder: URL, quietPeriod: Duration = .milliseconds(150)) {
        watch = FolderWatch(folder: folder)
        self.container = container
        debouncer = ReloadDebouncer(quietPeriod: quietPeriod) { [weak self] in self?.reload() }
        watch.onEvent = { [weak self] path, event in
            guard let self, DevReloadPolicy.reloads(event, path: path) else { return }
            self.lastChange = path
            self.debouncer?.fileChanged()
        }
    }

    public var folders: [String] { watch.folders }

    private func reload() {
        guard let container else { return }
        container.record(.native(action: .devReload, detail: lastChange))
        container.reload()
    }
}
