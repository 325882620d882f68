import Foundation
import Vitrine

/// A container host whose only part is its desktop (or none): what the capabilities' tests
/// need of a window, with the desktop under test's control. Its services are those the
/// desktop conforms to.
@MainActor
final class DesktopTestHost: ContainerHost {
    let desktop: AnyObject?
    init(_ desktop: AnyObject?) { self.desktop = desktop }
    func service<S>(_ type: S.Type) -> S? { desktop as? S }
    var currentURL: URL? { nil }
    func present(_ route: NativeRoute) {}
    func openExternally(_ url: URL) {}
    func showHome() -> Bool { false }
    func confirm(title: String, message: String) async -> Bool { false }
    func close() {}
    func reload() {}
    func setTitle(_ title: String) {}
}

/// A desktop that does nothing and has only the window, clipboard, notifications and
/// dialogs (no menus, printing, key grabs or tray), kiosk or not.
@MainActor
final class BasicDesktop: WindowService, ClipboardService, NotificationService, FileDialogService {
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
final class RecordingDesktop: WindowService, ClipboardService, NotificationService, FileDialogService, MenuService,
    TrayService, ShortcutService {
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
    func unregisterShortcut(id: String) -> Bool { false }
}
