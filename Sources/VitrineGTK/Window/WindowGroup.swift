import Vitrine

/// The windows of one app (the first container and those `openWindow` made): each has an
/// id; when one closes the others' pages hear `window:closed`, and when the last closes
/// `onLastWindowClosed` runs (the program ends).
///
/// Holds its windows weakly: a shown window keeps itself alive, and one dropped unshown
/// simply drops out.
@MainActor
public final class WindowGroup {
    private struct Member {
        let id: Int
        weak var container: WebContainer?
    }

    private var members: [Member] = []
    private var nextID = 1
    /// Runs once no window of the group is left open.
    public var onLastWindowClosed: (() -> Void)?
    /// What the app has once for all its windows (tray, shortcuts, notifications).
    public let services: AppServices

    public init(services: AppServices = AppServices()) {
        self.services = services
    }

    /// The group's open windows, in the order they were made.
    public var windows: [WebContainer] { members.compactMap(\.container).filter { !$0.isTornDown } }

    func join(_ container: WebContainer) -> Int {
        let id = nextID
        nextID += 1
        members.append(Member(id: id, container: container))
        return id
    }

    /// `container`'s window closed.
    func leave(_ container: WebContainer) {
        guard let index = members.firstIndex(where: { $0.container === container }) else { return }
        let id = members.remove(at: index).id
        members.removeAll { $0.container == nil }
        let others = windows
        for window in others { window.emit("window:closed", ["id": .number(Double(id))]) }
        if others.isEmpty { onLastWindowClosed?() }
    }
}
