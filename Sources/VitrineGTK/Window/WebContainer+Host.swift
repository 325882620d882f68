import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// What `WindowHost` asks of the window for the chain and the strategies (`ContainerHost`).
extension WebContainer {
    func present(_ route: NativeRoute) {
        // The app's own schemes are deep links, told to its pages, never a native page.
        if route.name == DeepLinkHandler.typeName && DeepLink.isDeepLink(route.url, schemes: configuration.urlSchemes) {
            feature(DeepLinkFeature.self)?.passedChain(route.url)
            return
        }
        stage.present(route)
        record(.native(action: .presentRoute, detail: route.url.absoluteString))
    }

    /// Hands `url` to the desktop, without what could make it send local files
    /// (`DesktopURL.forDesktop`): what is recorded is what leaves.
    func openExternally(_ requested: URL) {
        let url = DesktopURL.forDesktop(requested)
        externallyOpenedURLs.append(url)
        record(.native(action: .openExternally, detail: url.absoluteString))
        if let externalOpener {
            externalOpener(url)
            return
        }
        var error: UnsafeMutablePointer<GError>?
        if gtk_show_uri_on_window(windowPointer, url.absoluteString, guint32(GDK_CURRENT_TIME), &error) == 0 {
            logger.warning("no desktop handler opened \(url.absoluteString): \(error.flatMap { string($0.pointee.message) } ?? "")")
            g_clear_error(&error)
        }
    }

    /// With tabs, home is the first tab: switch to it (the original design's "switch the
    /// tab bar to index 0"). Without tabs there is no native home: the page loads.
    func showHome() -> Bool {
        stage.dismissRoute()
        guard stage.notebook != nil else { return false }
        selectTab(0)
        record(.native(action: .showHome, detail: "tab 0"))
        return true
    }

    func confirm(title: String, message: String) async -> Bool {
        await feature(DialogFeature.self)?.confirm(title: title, message: message) ?? false
    }

    /// The window's title, redacted: the desktop shows it to anyone at the screen and to
    /// every program that lists windows.
    func setTitle(_ title: String) {
        gtk_window_set_title(windowPointer, Redaction.text(title))
    }

    /// The window's title as GTK shows it.
    public var windowTitle: String {
        string(gtk_window_get_title(windowPointer)) ?? ""
    }
}
