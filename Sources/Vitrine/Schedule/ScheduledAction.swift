#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a schedule asks the window to do.
public enum ScheduledAction: Sendable, Equatable {
    /// Load playlist entry `index` and show it once it has loaded.
    case showPage(index: Int, url: URL)
    /// Entry `index`'s turn came while it was out of its window: it is not shown.
    case skip(index: Int, url: URL)
    /// Load the start page (after an alert, with no playlist entry to go back to).
    case showStart
    /// Show the alert page over everything, until its end.
    case showAlert(URL)
    /// The alert ended (its time ran out, or it was cleared).
    case alertEnded(reason: String)
    /// Reload the page shown.
    case reload
    /// Turn the screen on or off; `reason` names what decided it (for the events log).
    case display(on: Bool, reason: String)

    /// The events log's line for it: a `native` event's action and detail; nil for a skip,
    /// whose line is its proof-of-play record.
    public var event: ContainerEvent? {
        switch self {
        case .showPage(let index, let url): .native(action: .schedulePage, detail: "\(index) \(url.absoluteString)")
        case .skip: nil
        case .showStart: .native(action: .home, detail: "schedule")
        case .showAlert(let url): .native(action: .alertStarted, detail: url.absoluteString)
        case .alertEnded(let reason): .native(action: .alertEnded, detail: reason)
        case .reload: .native(action: .scheduleReload, detail: "")
        case .display(let on, let reason): .native(action: .display(on: on), detail: reason)
        }
    }
}
