#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A native capability a page may be granted (`[capabilities]` in a configuration file).
/// Each but `drop` is answered by the built-in strategy of the same name, which refuses every
/// page whose origin was not granted it; `drop` has no calls: it lets files dragged onto the
/// window reach the page (`files:dropped`). `app` is the app's place on the desktop: its deep
/// links (`deep-link` events reach only its pages) and its autostart entry; `shortcuts` its
/// global shortcuts; `tray` its icon in the desktop's tray; `power` keeps the screen awake;
/// `sidecars` reads the app's backend processes' ports and states.
public enum Capability: String, Sendable, CaseIterable {
    case dialog, clipboard, window, storage, notification, shell, menu, print, drop, app, shortcuts, tray, power, sidecars, update
}

extension Capability {
    /// The built-in strategy that answers this capability's calls (`drop` has none). The
    /// switch is exhaustive, so a new capability cannot be declared without its strategy.
    @MainActor
    public func strategy(for configuration: Configuration) -> (any ScriptMessageStrategy)? {
        switch self {
        case .dialog: DialogStrategy()
        case .clipboard: ClipboardStrategy(writesInBackground: configuration.backgroundClipboard)
        case .window: WindowStrategy()
        case .storage: StorageStrategy(store: KeyValueStore.shared(in: configuration.appDataDirectory))
        case .notification: NotificationStrategy()
        case .shell: ShellStrategy()
        case .menu: MenuStrategy()
        case .print: PrintStrategy()
        case .drop: nil
        case .app: AppStrategy(configuration: configuration)
        case .shortcuts: ShortcutsStrategy()
        case .tray: TrayStrategy()
        case .power: PowerStrategy()
        case .sidecars: SidecarsStrategy()
        case .update: UpdateStrategy()
        }
    }
}
