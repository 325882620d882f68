import Foundation
import Vitrine

/// A container host whose only part is its desktop (or none): what the capabilities' tests
/// need of a window, with the desktop under test's control.
@MainActor
final class DesktopTestHost: ContainerHost {
    let desktop: (any DesktopServices)?
    init(_ desktop: (any DesktopServices)?) { self.desktop = desktop }
    var currentURL: URL? { nil }
    func present(_ route: NativeRoute) {}
    func openExternally(_ url: URL) {}
    func showHome() -> Bool { false }
    func confirm(title: String, message: String) async -> Bool { false }
    func close() {}
    func reload() {}
    func setTitle(_ title: String) {}
}
