#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The app's global shortcuts: which keys each window's page registered, under which id.
/// One book per process (a key grab is the whole display's); a window's entries go when
/// its document does (`release(owner:)`). Keys held by one window are refused to another.
public struct ShortcutBook: Sendable {
    /// The most shortcuts the app holds at once.
    public static let capacity = 16

    public struct Entry: Sendable, Equatable {
        public let accelerator: Accelerator
        public let id: String
        /// The window (its number) whose page registered it.
        public let owner: Int
    }

    public private(set) var entries: [Entry] = []

    public init() {}

    /// Adds `accelerator` under `id` for `owner`. Answers the accelerator this replaces
    /// (the same id registered again with other keys), whose grab is to be released.
    public mutating func register(_ accelerator: Accelerator, id: String, owner: Int) throws(ScriptMessageError) -> Accelerator? {
        guard !id.isEmpty, id.utf8.count <= 64, !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw ScriptMessageError("shortcuts: an id is 1 to 64 bytes of text without control characters")
        }
        if let holder = entries.first(where: { $0.accelerator == accelerator }), holder.owner != owner || holder.id != id {
            throw ScriptMessageError(holder.owner == owner
                ? "shortcuts: \(accelerator) is registered already (as '\(holder.id)')"
                : "shortcuts: \(accelerator) is registered by another window of the app")
        }
        let replaced = entries.firstIndex { $0.owner == owner && $0.id == id }
        if replaced == nil && entries.count >= Self.capacity {
            throw ScriptMessageError("shortcuts: the app holds \(Self.capacity) shortcuts, the most it may; unregister one first")
        }
        let entry = Entry(accelerator: accelerator, id: id, owner: owner)
        guard let replaced else {
            entries.append(entry)
            return nil
        }
        let old = entries[replaced].accelerator
        entries[replaced] = entry
        return old == accelerator ? nil : old
    }

    /// Removes `owner`'s shortcut `id`; its accelerator, or nil when there was none.
    public mutating func unregister(id: String, owner: Int) -> Accelerator? {
        guard let index = entries.firstIndex(where: { $0.owner == owner && $0.id == id }) else { return nil }
        return entries.remove(at: index).accelerator
    }

    /// Removes every shortcut of `owner` (its document went); their accelerators.
    public mutating func release(owner: Int) -> [Accelerator] {
        let released = entries.filter { $0.owner == owner }.map(\.accelerator)
        entries.removeAll { $0.owner == owner }
        return released
    }

    /// The keys `owner` holds under `id`, if any.
    public func accelerator(id: String, owner: Int) -> Accelerator? {
        entries.first { $0.owner == owner && $0.id == id }?.accelerator
    }

    /// Undoes a registration of `accelerator` that the desktop then refused (a grab taken, a
    /// bind declined): `id` gets back the keys it held before (`previous`), which the desktop
    /// still holds, or goes. Nothing changes when the page changed `id` meanwhile, or when it
    /// registered the keys it already held.
    public mutating func undoRegistration(of accelerator: Accelerator, id: String, owner: Int, previous: Accelerator?) {
        guard previous != accelerator,
              let index = entries.firstIndex(where: { $0.owner == owner && $0.id == id && $0.accelerator == accelerator })
        else { return }
        if let previous, entry(for: previous) == nil {
            entries[index] = Entry(accelerator: previous, id: id, owner: owner)
        } else {
            entries.remove(at: index)
        }
    }

    public func entry(for accelerator: Accelerator) -> Entry? {
        entries.first { $0.accelerator == accelerator }
    }
}
