#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a schedule asks the window to do.
public enum ScheduledAction: Sendable, Equatable {
    /// Load playlist entry `index` and show it once it has loaded.
    case showPage(index: Int, url: URL)
    /// Reload the page shown.
    case reload
    /// Turn the screen on or off; `reason` names what decided it (for the events log).
    case display(on: Bool, reason: String)

    /// The events log's line for it: a `native` event's action and detail.
    public var event: ContainerEvent {
        switch self {
        case .showPage(let index, let url): .native(action: .schedulePage, detail: "\(index) \(url.absoluteString)")
        case .reload: .native(action: .scheduleReload, detail: "")
        case .display(let on, let reason): .native(action: .display(on: on), detail: reason)
        }
    }
}
