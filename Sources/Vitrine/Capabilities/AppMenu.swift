#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A menu a page or Swift declares (`menu` capability): the window's menu bar or the page's
/// context menu. Validated here, before any GTK call, with limits that keep a hostile page
/// from building a menu that hangs the window (see `Limits`).
public struct AppMenu: Sendable, Equatable {
    /// One entry of a menu.
    public enum Item: Sendable, Equatable {
        /// A command: its id reaches the page (`menu:activated`) when the user chooses it.
        /// `checked` non-nil makes it a check item; `accelerator` is GTK's form (`<Control>k`).
        case command(id: String, label: String, accelerator: String?, enabled: Bool, checked: Bool?)
        case submenu(label: String, items: [Item])
        case separator
    }

    public var items: [Item]

    /// How big a menu may be.
    public enum Limits {
        public static let depth = 4
        public static let items = 200
        public static let labelLength = 100
        public static let idLength = 64
    }

    public init(items: [Item]) throws(ScriptMessageError) {
        self.items = items
        var ids = Set<String>()
        var count = 0
        try Self.check(items, depth: 1, ids: &ids, count: &count)
    }

    /// The menu `value` declares: an array of `{id, label, accelerator?, enabled?, checked?}`,
    /// `{label, items}` and `{type: "separator"}` (or `"-"`).
    public init(json value: JSONValue) throws(ScriptMessageError) {
        guard case .array(let entries) = value else { throw ScriptMessageError("menu: items must be an array") }
        try self.init(items: try Self.items(entries, depth: 1))
    }

    /// The command items, depth first.
    public var commands: [Item] { Self.commands(of: items) }

    /// The command items of `items`, depth first.
    public static func commands(of items: [Item]) -> [Item] {
        items.flatMap { item -> [Item] in
            if case .submenu(_, let children) = item { return commands(of: children) }
            if case .command = item { return [item] }
            return []
        }
    }

    /// The user chose the command `id` from outside the page (a tray host's menu): a check
    /// item flips. Its new state (`checked`: nil for a plain command); nil, and nothing
    /// changes, when no enabled command has that id.
    public mutating func choose(_ id: String) -> Choice? {
        Self.choose(id, in: &items)
    }

    /// A command chosen: a check item's new state, nil for a plain command.
    public struct Choice: Sendable, Equatable {
        public var checked: Bool?
    }

    private static func choose(_ id: String, in items: inout [Item]) -> Choice? {
        for index in items.indices {
            switch items[index] {
            case .separator:
                continue
            case .submenu(let label, var children):
                guard let choice = choose(id, in: &children) else { continue }
                items[index] = .submenu(label: label, items: children)
                return choice
            case .command(let command, let label, let accelerator, let enabled, let checked):
                guard command == id else { continue }
                guard enabled else { return nil }
                items[index] = .command(id: command, label: label, accelerator: accelerator, enabled: enabled, checked: checked.map { !$0 })
                return Choice(checked: checked.map { !$0 })
            }
        }
        return nil
    }

    private static func items(_ entries: [JSONValue], depth: Int) throws(ScriptMessageError) -> [Item] {
        guard depth <= Limits.depth else { throw ScriptMessageError("menu: submenus nest at most \(Limits.depth) deep") }
        guard entries.count <= Limits.items else { throw ScriptMessageError("menu: at most \(Limits.items) items") }
        var items: [Item] = []
        for entry in entries {
            if entry == "-" || entry["type"] == "separator" { items.append(.separator); continue }
            guard case .object = entry else { throw ScriptMessageError("menu: an item is an object or \"-\", not \(entry.jsonText.prefix(40))") }
            guard let label = entry["label"]?.stringValue else { throw ScriptMessageError("menu: an item needs label, a string") }
            if let children = entry["items"] {
                guard case .array(let nested) = children else { throw ScriptMessageError("menu: \(label): items must be an array") }
                items.append(.submenu(label: label, items: try Self.items(nested, depth: depth + 1)))
                continue
            }
            guard let id = entry["id"]?.stringValue else { throw ScriptMessageError("menu: \(label): a command item needs id, a string") }
            let accelerator = try entry["accelerator"].flatMap { value throws(ScriptMessageError) -> String? in
                guard let text = value.stringValue else { throw ScriptMessageError("menu: \(id): accelerator must be a string") }
                return try Accelerator.menuKeys(text)
            }
            let enabled = try flag(entry["enabled"], "enabled", id) ?? true
            let checked = try flag(entry["checked"], "checked", id)
            items.append(.command(id: id, label: label, accelerator: accelerator, enabled: enabled, checked: checked))
        }
        return items
    }

    private static func flag(_ value: JSONValue?, _ key: String, _ id: String) throws(ScriptMessageError) -> Bool? {
        guard let value, value != .null else { return nil }
        guard case .bool(let flag) = value else { throw ScriptMessageError("menu: \(id): \(key) must be true or false") }
        return flag
    }

    private static func check(_ items: [Item], depth: Int, ids: inout Set<String>, count: inout Int) throws(ScriptMessageError) {
        guard depth <= Limits.depth else { throw ScriptMessageError("menu: submenus nest at most \(Limits.depth) deep") }
        for item in items {
            count += 1
            guard count <= Limits.items else { throw ScriptMessageError("menu: at most \(Limits.items) items in all") }
            switch item {
            case .separator: break
            case .submenu(let label, let children):
                try checkLabel(label)
                try check(children, depth: depth + 1, ids: &ids, count: &count)
            case .command(let id, let label, _, _, _):
                try checkLabel(label)
                guard !id.isEmpty, id.utf8.count <= Limits.idLength,
                      id.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.:".unicodeScalars.contains($0)) })
                else {
                    throw ScriptMessageError("menu: an id is 1 to \(Limits.idLength) of A-Z a-z 0-9 - _ . :, not \(JSONValue.string(String(id.prefix(80))).jsonText)")
                }
                guard ids.insert(id).inserted else { throw ScriptMessageError("menu: id \"\(id)\" is used twice") }
            }
        }
    }

    private static func checkLabel(_ label: String) throws(ScriptMessageError) {
        guard !label.isEmpty, label.count <= Limits.labelLength, !label.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ScriptMessageError("menu: a label is 1 to \(Limits.labelLength) characters without control characters")
        }
    }
}

/// A choice the user made in a menu.
public struct MenuActivation: Sendable, Equatable {
    public var id: String
    public var placement: MenuPlacement
    /// A check item's new state; nil for other items.
    public var checked: Bool?

    public init(id: String, placement: MenuPlacement, checked: Bool? = nil) {
        self.id = id
        self.placement = placement
        self.checked = checked
    }

    /// What the page's `menu:activated` listeners get: `{id, menu: "bar" | "context", checked?}`.
    public var payload: JSONValue {
        var members: JSONObject = ["id": .string(id), "menu": .string(placement == .menuBar ? "bar" : "context")]
        if let checked { members["checked"] = .bool(checked) }
        return .object(members)
    }
}
