#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What handlers and strategies may ask of the container that runs them.
///
/// The GTK adapter implements it with real windows and dialogs; core tests implement it
/// with a recorder. Everything here runs on the main actor, like GTK itself.
@MainActor
public protocol ContainerHost: AnyObject {
    /// The URL the view shows now, if any.
    var currentURL: URL? { get }
    /// Shows a native page for a route (the original design's "present a native page").
    func present(_ route: NativeRoute)
    /// Opens `url` in the desktop's default handler (browser, mail client, …).
    func openExternally(_ url: URL)
    /// Goes to the home page. Returns true when that was done natively (a tab switch), so
    /// the navigation itself is not needed.
    func showHome() -> Bool
    /// Asks the user a yes/no question natively; answers false when dismissed.
    func confirm(title: String, message: String) async -> Bool
    /// Closes the container's window.
    func close()
    /// Reloads the current page.
    func reload()
    /// Sets the window title.
    func setTitle(_ title: String)
    /// The host's service of type `S` (`ClipboardService`, `MenuService`…), for the
    /// capability strategies; nil (the default): none here, and the capability says so.
    func service<S>(_ type: S.Type) -> S?
}

