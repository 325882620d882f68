import CWebKitGTK
import Vitrine

/// What an app has once for all its windows: the tray icon, the global shortcuts, the
/// notifications' sender and the sidecars, each made at its first use and released with this object.
///
/// Owned by the app (`VitrineApplication`, or an embedder's first `WebContainer`) and shared
/// by every window of it through their `WindowGroup`: a second window's page sets the same
/// tray icon, and its shortcuts go into the same book.
@MainActor
public final class AppServices {
    private var trayIcon: AppTray?
    private var shortcutKeys: (any GlobalShortcutKeys)?
    private var notificationSender: Notifier?
    /// The app's sidecars (`[[sidecars]]`), once started (`VitrineApplication`).
    public internal(set) var sidecars: SidecarSupervisor?

    public init() {}

    /// The app's tray icon owner, made on first use.
    var tray: AppTray {
        if let trayIcon { return trayIcon }
        let tray = AppTray()
        trayIcon = tray
        return tray
    }

    /// The tray, only if one was ever made.
    var existingTray: AppTray? { trayIcon }

    /// The holder of the app's global shortcuts on this display, or why there is none.
    func shortcuts() throws(ScriptMessageError) -> any GlobalShortcutKeys {
        if let shortcutKeys { return shortcutKeys }
        guard let display = gdk_display_get_default() else {
            throw ScriptMessageError("shortcuts: there is no display")
        }
        let shortcuts: any GlobalShortcutKeys = vitrine_display_is_x11(display) != 0
            ? X11Shortcuts(gdkDisplay: display)
            : try PortalShortcuts()
        shortcutKeys = shortcuts
        return shortcuts
    }

    /// The shortcuts' holder, only if one was ever made.
    var existingShortcuts: (any GlobalShortcutKeys)? { shortcutKeys }

    /// The app's notifications' sender, or why there is none: GNotification needs a
    /// registered application, which exists only when the program runs as the session
    /// bus's instance of its id.
    /// The notifier, when a notification was sent (none is made to withdraw nothing).
    var existingNotifier: Notifier? { notificationSender }

    func notifier() throws(ScriptMessageError) -> Notifier {
        if let notificationSender { return notificationSender }
        guard let application = g_application_get_default(), g_application_get_is_registered(application) != 0,
              g_application_get_dbus_connection(application) != nil
        else {
            throw ScriptMessageError("notification: no desktop session bus for notifications (vitrine runs without remote control here)")
        }
        let notifier = Notifier(application: application)
        notificationSender = notifier
        return notifier
    }
}
