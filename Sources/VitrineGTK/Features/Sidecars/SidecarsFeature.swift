import Vitrine

/// The app's sidecars as a window's pages see them (`sidecars` capability): read from the
/// app-wide `SidecarSupervisor` (`AppServices.sidecars`); an app without sidecars answers
/// that it declares none. Refuses once the window has gone.
@MainActor
public final class SidecarsFeature: WindowFeature {
    private(set) weak var window: WebContainer?

    public init() {}

    public func attach(to host: any FeatureHost) {
        window = host.container
    }

    private var supervisor: SidecarSupervisor? { window?.windows.services.sidecars }
}

/// The `sidecars` capability's service.
extension SidecarsFeature: SidecarsService {
    public func sidecar(named name: String) -> SidecarStatus? { supervisor?.status(of: name) }
    public var sidecarNames: [String] { supervisor?.names ?? [] }
}
