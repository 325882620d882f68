#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Something a window does besides showing pages (menus, the tray, deep links, printing,
/// the playlist…), attached to it: the one way a window tells what happens in it.
///
/// A feature is made with what it needs, then attached once (`WebContainer.attach`); it hears
/// its showing, each pane's loads, the active page's title and each page's bridge coming up, and lets
/// go of everything it holds in `tearDown()`, when the window goes. Features that decide
/// are tested with `FeatureTestHost`'s window-less host (`FeatureHost`); those that draw
/// need the window itself (`FeatureHost.container`).
@MainActor
public protocol WindowFeature: AnyObject {
    /// Joined `host`'s window, before its first load.
    func attach(to host: any FeatureHost)
    /// The window was shown (realized: it has a GDK window now).
    func shown()
    /// A pane of the window (shown, or loading out of sight) loaded, committed, failed…
    func loadChanged(_ load: PaneLoad)
    /// The page the user sees took `title`.
    func titleChanged(_ title: String)
    /// A main document's SDK registered with the bridge: its page's bridge is up.
    func pageReady(_ url: URL)
    /// The window goes: release every reference, connection and pending answer.
    func tearDown()
}

extension WindowFeature {
    public func attach(to host: any FeatureHost) {}
    public func shown() {}
    public func loadChanged(_ load: PaneLoad) {}
    public func titleChanged(_ title: String) {}
    public func pageReady(_ url: URL) {}
    public func tearDown() {}
}

/// One load event of one pane, as features hear it (and the events log records it).
public struct PaneLoad {
    public let event: ContainerEvent.LoadEvent
    public let url: URL?
    public let error: String?
    /// The HTTP status of a committed or finished main-document load, when there was one.
    public let status: Int?
    /// What the load shows: the live page, Vitrine's error page or a kept copy.
    public let shown: ContainerEvent.ShownPage
    /// The pane, while it exists (features never keep it).
    weak var pane: WebPane?
    /// Where the pane is: the window's slot, or nil while it loads out of sight.
    public let slot: Int?

    public init(event: ContainerEvent.LoadEvent, url: URL?, error: String? = nil, status: Int? = nil,
                shown: ContainerEvent.ShownPage = .live, slot: Int? = nil) {
        self.init(event: event, url: url, error: error, status: status, shown: shown, pane: nil, slot: slot)
    }

    init(event: ContainerEvent.LoadEvent, url: URL?, error: String?, status: Int?, shown: ContainerEvent.ShownPage,
         pane: WebPane?, slot: Int?) {
        self.event = event
        self.url = url
        self.error = error
        self.status = status
        self.shown = shown
        self.pane = pane
        self.slot = slot
    }
}

/// Who a native event is for.
public enum PageAudience {
    /// Pages of the app's own origins.
    case app
    /// Pages whose origin was granted the capability.
    case granted(Capability)
}

/// What a feature may ask of its window. `WebContainer` is the real one; a test host stands
/// in for features that decide without drawing.
@MainActor
public protocol FeatureHost: AnyObject {
    var configuration: Configuration { get }
    /// Whether the window has gone (a feature refuses new work then).
    var isClosed: Bool { get }
    /// The window's chain and strategies see this host (navigation decisions a feature asks for).
    var containerHost: any ContainerHost { get }
    /// Tells the window's event sinks.
    func record(_ event: ContainerEvent)
    /// Sends `vitrine.on(name)` listeners of `audience`'s pages an event; how many pages.
    @discardableResult
    func emit(_ name: String, _ payload: JSONValue, to audience: PageAudience) -> Int
    /// The GTK window, for features that draw; nil for a window-less test host.
    var container: WebContainer? { get }
}

/// A window's features: each attached once, told in order, torn down in reverse order.
@MainActor
struct WindowFeatures {
    private(set) var all: [any WindowFeature] = []

    mutating func add(_ feature: any WindowFeature) {
        all.append(feature)
    }

    /// The first attached feature that is a `T`: a feature's own type, or a capability's
    /// service it provides.
    func first<T>(_ type: T.Type) -> T? {
        for feature in all { if let match = feature as? T { return match } }
        return nil
    }

    func forEach(_ body: (any WindowFeature) -> Void) {
        all.forEach(body)
    }

    /// Empties the list and tears each feature down, the last attached first.
    mutating func tearDown() {
        let features = all
        all = []
        for feature in features.reversed() { feature.tearDown() }
    }
}

/// A feature that only listens to loads: `container.attach(LoadWatch { load in … })`.
@MainActor
public final class LoadWatch: WindowFeature {
    private let heard: @MainActor (PaneLoad) -> Void

    public init(_ heard: @escaping @MainActor (PaneLoad) -> Void) {
        self.heard = heard
    }

    public func loadChanged(_ load: PaneLoad) {
        heard(load)
    }
}
