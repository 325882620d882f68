import Vitrine

extension VitrineApplication {
    /// `[remote.vnc]`: starts the VNC server; a server stopped for listening where the
    /// configuration does not say is also an events-log line, for whoever audits the kiosk.
    func startRemoteView() {
        guard let settings = configuration.remoteView else { return }
        remoteView = RemoteViewServer(settings) { [weak self] reason in
            self?.container?.record(.native(action: .remoteViewRefused, detail: reason))
        }
    }
}
