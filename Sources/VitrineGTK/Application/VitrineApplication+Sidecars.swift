#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

extension VitrineApplication {
    /// `[[sidecars]]`: started once this process is the app's instance (a start handed over
    /// to a running instance starts none) and before the window is shown; their events go
    /// to the first window's log (the remote commands' window: a `[[displays]]` run's
    /// primary one), their page events to every window's granted pages.
    /// They run in the app folder (the configuration file's). A pushed configuration cannot
    /// change them (`ConfigFile.checkPush`).
    func startSidecars() {
        guard !configuration.sidecars.isEmpty, services.sidecars == nil else { return }
        let folder = configPath.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
        services.sidecars = SidecarSupervisor(configuration.sidecars, folder: folder, record: { [weak self] event in
            self?.dispatch.container?.record(event)
        }, emit: { [weak self] event, payload in
            guard let self else { return }
            let windows = self.dispatch.everyWindow?() ?? self.container?.windows.windows ?? []
            for window in windows { window.emit(event, payload, to: .granted(.sidecars)) }
        })
    }
}
