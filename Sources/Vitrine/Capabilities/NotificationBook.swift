#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The app's notifications that are still on the desktop as far as the app knows: who
/// showed each and what its buttons are, so that a pressed button reaches the document that
/// showed it and nobody else. One book per app (notification ids are the app's).
///
/// Each showing gets a fresh serial, carried in its buttons' targets: a button of a
/// notification since replaced (the same id shown again) names an old serial and is
/// refused, as is an action the notification never had (anyone on the session bus can
/// activate the app's actions). The book keeps the latest `capacity` notifications.
public struct NotificationBook<Owner> {
    public static var capacity: Int { 64 }

    public struct Entry {
        public let id: String
        public let serial: UInt32
        public let actions: [String]
        public let owner: Owner
        /// Taken off the desktop: its document went, so its buttons reach nobody.
        public internal(set) var withdrawn = false
    }

    /// What became of a pressed button.
    public enum Invocation {
        /// Tell `owner`: the page's `notification:action` with `event`'s payload.
        case deliver(to: Owner, NotificationActionEvent)
        /// Nobody hears it, for `reason`; `owner`: whoever showed a notification of that id.
        case refused(reason: String, owner: Owner?)
    }

    private var entries: [Entry] = []
    private var lastSerial: UInt32 = 0

    public init() {}

    /// Records `id` shown by `owner` with buttons `actions`, replacing an older one of that
    /// id; the serial its buttons carry.
    public mutating func show(id: String, actions: [String], owner: Owner) -> UInt32 {
        lastSerial &+= 1
        entries.removeAll { $0.id == id }
        if entries.count >= Self.capacity { entries.removeFirst(entries.count - Self.capacity + 1) }
        entries.append(Entry(id: id, serial: lastSerial, actions: actions, owner: owner))
        return lastSerial
    }

    /// Whoever showed `id` last (its default action, a click, goes there).
    public func owner(of id: String) -> Owner? {
        entries.last { $0.id == id }?.owner
    }

    /// The button `action` of showing `serial` of notification `id` was pressed.
    public func invoked(id: String, serial: UInt32, action: String) -> Invocation {
        guard let entry = entries.last(where: { $0.id == id }) else {
            return .refused(reason: "no such notification", owner: nil)
        }
        guard entry.serial == serial else { return .refused(reason: "the notification was replaced", owner: entry.owner) }
        guard entry.actions.contains(action) else { return .refused(reason: "not an action of the notification", owner: entry.owner) }
        return .deliver(to: entry.owner, NotificationActionEvent(id: id, action: action))
    }

    /// Marks withdrawn the notifications with buttons whose document went (`documentGone`);
    /// the ids to take off the desktop, each given once. The entries stay, so a late press
    /// of one of their buttons is still refused with its reason.
    public mutating func withdraw(where documentGone: (Entry) -> Bool) -> [String] {
        var ids: [String] = []
        for index in entries.indices where !entries[index].actions.isEmpty && !entries[index].withdrawn {
            guard documentGone(entries[index]) else { continue }
            entries[index].withdrawn = true
            ids.append(entries[index].id)
        }
        return ids
    }

    /// Forgets `id` (it was closed).
    public mutating func remove(id: String) {
        entries.removeAll { $0.id == id }
    }

    public var count: Int { entries.count }
}

extension NotificationBook: Sendable where Owner: Sendable {}
extension NotificationBook.Entry: Sendable where Owner: Sendable {}
extension NotificationBook.Invocation: Sendable where Owner: Sendable {}

/// A button pressed on a notification, as its page hears it.
public struct NotificationActionEvent: Sendable, Equatable {
    /// The notification's id.
    public var id: String
    /// The button's id.
    public var action: String

    public init(id: String, action: String) {
        self.id = id
        self.action = action
    }

    /// What the page's `notification:action` listeners get: `{id, action}`.
    public var payload: JSONValue {
        .object(["id": .string(id), "action": .string(action)])
    }
}
