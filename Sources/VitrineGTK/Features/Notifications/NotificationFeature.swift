import Vitrine

/// Desktop notifications for a window's pages (`notification` capability), sent by the app's
/// one `Notifier` (`AppServices.notifier()`); a click brings this window forward, a button
/// reaches the document that showed it.
@MainActor
public final class NotificationFeature: WindowFeature {
    private weak var window: WebContainer?

    public init() {}

    public func attach(to host: any FeatureHost) {
        window = host.container
    }

    public func loadChanged(_ load: PaneLoad) {
        // A commit ends the pane's document: its notifications' buttons would reach nobody.
        if load.event == .committed, let window { window.windows.services.existingNotifier?.withdrawGone(committedIn: load.pane, of: window) }
    }

    public func tearDown() {
        if let window { window.windows.services.existingNotifier?.withdrawGone(committedIn: nil, of: window, windowGone: true) }
    }

    /// Shows `notification`; throws where the app has no notifications (no session bus, no
    /// notification server on it).
    public func notify(_ notification: DesktopNotification) async throws {
        guard let window, !window.isTornDown else { throw ScriptMessageError("notification: this window is closed") }
        try await window.windows.services.notifier().send(notification, from: window)
        window.record(.native(action: .notification, detail: notification.id))
    }
}
