#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The Simple Factory: a ready `Configurator` per preset, which callers may refine.
/// Presets derive from one another, so a change to `default` reaches `productPage` too.
public enum ConfiguratorFactory {
    /// The demo's deep-link scheme.
    public static let demoScheme = "vitrine-demo"
    /// The demo app's host under `app://`.
    public static let demoHost = "demo"

    public static func make(for preset: Preset, resources: ResourceLocator = .init()) -> Configurator {
        switch preset {
        case .default:
            return Configurator()
                .title("Vitrine")
                .navigationHandlers([DefaultAllowHandler()])
                .strategy(PageStrategy())
                .strategy(UserStrategy())
                .strategy(PingStrategy())
        case .productPage:
            return make(for: .default)
                .disableZoom()
                .titleFollowsPage()
        case .payment:
            return make(for: .default)
                .navigationHandlers([
                    PaymentHandler(),
                    DeepLinkHandler(schemes: [demoScheme]),
                    DefaultAllowHandler(),
                ])
        case .app:
            // Your own app: your start page (the app folder's index or `start-url`), the
            // origin allowlist (links elsewhere go to the desktop's browser), the window
            // remembered. No routes of its own: every path of the app's origin loads.
            return make(for: .productPage)
                .preference(\.remembersWindowState, true)
                .navigationHandlers([
                    ExternalBrowserHandler(),
                    OriginAllowlistHandler(),
                    DefaultAllowHandler(),
                ])
        case .demo:
            let home = AppDirectory(path: resources.demoDirectory, host: demoHost).rootURL
                .appendingPathComponent("index.html")
            return make(for: .app)
                .title("Vitrine demo")
                .appID(ApplicationID.stock)
                .appDirectory(resources.demoDirectory, host: demoHost)
                .startURL(home)
                .navigationHandlers([
                    DeepLinkHandler(schemes: [demoScheme]),
                    HomePageHandler(homeURL: home),
                    NativeRouteHandler(routes: [
                        RoutePattern("/product/:id", name: "product"),
                        RoutePattern("/shop/:id", name: "shop"),
                    ]),
                    PaymentHandler(),
                    ExternalBrowserHandler(),
                    OriginAllowlistHandler(),
                    DefaultAllowHandler(),
                ])
        case .kiosk:
            // Fails closed: only the start URL's origin and the allowed origins load;
            // anything else is cancelled (and logged). External links open nowhere unless
            // a configuration puts an `ExternalBrowserHandler` before the allowlist.
            return make(for: .default)
                .title("Vitrine kiosk")
                .fullscreen()
                .disableZoom()
                .developerTools(false)
                .kiosk(KioskOptions())
                .preference(\.allowsAutomation, false)
                .removingStrategy(PageStrategy.identifier)
                .navigationHandlers([
                    OriginAllowlistHandler(),
                    DefaultAllowHandler(),
                ])
        }
    }
}
