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

/// A desktop that does nothing and has only what every desktop must (the protocol's
/// defaults refuse menus, printing, key grabs and the tray), kiosk or not.
@MainActor
final class BasicDesktop: DesktopServices {
    let isKioskWindow: Bool
    var isWindowFocusedAndVisible: Bool { true }
    init(kiosk: Bool = false) { isKioskWindow = kiosk }
    func clipboardText() async -> String? { nil }
    func setClipboardText(_ text: String) {}
    func setClipboardImage(png: [UInt8]) throws {}
    func perform(_ command: WindowCommand) throws -> JSONValue { true }
    func notify(_ notification: DesktopNotification) throws {}
    func chooseFiles(_ request: FileDialogRequest) async throws -> [String]? { nil }
    func showMessage(title: String, message: String) async {}
}

/// A desktop that records the menus, tray icons and global shortcuts it was asked for.
@MainActor
final class RecordingDesktop: DesktopServices {
    let isKioskWindow: Bool
    var isWindowFocusedAndVisible: Bool { true }
    private(set) var menuCalls: [(menu: AppMenu?, placement: MenuPlacement, owner: FrameToken)] = []
    private(set) var trayCalls: [(tray: TrayIcon?, owner: FrameToken)] = []
    private(set) var registered: [String] = []

    init(kiosk: Bool = false) { isKioskWindow = kiosk }

    func clipboardText() async -> String? { nil }
    func setClipboardText(_ text: String) {}
    func setClipboardImage(png: [UInt8]) throws {}
    func perform(_ command: WindowCommand) throws -> JSONValue { true }
    func notify(_ notification: DesktopNotification) throws {}
    func chooseFiles(_ request: FileDialogRequest) async throws -> [String]? { nil }
    func showMessage(title: String, message: String) async {}
    func setMenu(_ menu: AppMenu?, placement: MenuPlacement, owner: FrameToken) throws(ScriptMessageError) {
        menuCalls.append((menu, placement, owner))
    }
    func setTray(_ tray: TrayIcon?, owner: FrameToken) throws(ScriptMessageError) { trayCalls.append((tray, owner)) }
    func registerShortcut(_ accelerator: Accelerator, id: String) async throws { registered.append("\(id) \(accelerator)") }
}
