#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
import VitrineGTK
import VitrineTesting

/// A window-less `FeatureHost`: a feature that decides without drawing is attached to it
/// and fed loads, titles and tear-down by the test; what it recorded, what it sent to pages
/// and what it asked the chain's host (`TestHost`) are read back. No display is needed.
@MainActor
public final class FeatureTestHost: FeatureHost {
    public let configuration: Configuration
    public let testHost: TestHost
    public var isClosed = false
    /// How many pages each `emit` reaches.
    public var listeningPages: Int
    public private(set) var events: [ContainerEvent] = []
    public private(set) var emitted: [(name: String, payload: JSONValue, audience: PageAudience)] = []

    public init(configuration: Configuration, testHost: TestHost = TestHost(), listeningPages: Int = 1) {
        self.configuration = configuration
        self.testHost = testHost
        self.listeningPages = listeningPages
    }

    public var containerHost: any ContainerHost { testHost }
    public var container: WebContainer? { nil }
    public func record(_ event: ContainerEvent) { events.append(event) }

    @discardableResult
    public func emit(_ name: String, _ payload: JSONValue, to audience: PageAudience) -> Int {
        guard !isClosed else { return 0 }
        emitted.append((name, payload, audience))
        return listeningPages
    }

    /// The details of the recorded native events of `action`.
    public func details(_ action: ContainerEvent.NativeAction) -> [String] {
        events.details(of: action)
    }
}
