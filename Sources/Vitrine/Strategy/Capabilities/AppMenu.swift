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
                return try MenuAccelerator.gtkName(text)
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

/// Key combinations as pages write them (`Ctrl+Shift+K`) and as GTK reads them (`<Control><Shift>k`).
public enum MenuAccelerator {
    static let modifiers: [String: String] = [
        "ctrl": "<Control>", "control": "<Control>", "shift": "<Shift>", "alt": "<Alt>",
        "super": "<Super>", "meta": "<Meta>", "primary": "<Primary>", "cmdorctrl": "<Primary>",
    ]
    /// Named keys pages may use besides letters, digits and F1–F24.
    static let keys: [String: String] = [
        "enter": "Return", "return": "Return", "escape": "Escape", "esc": "Escape", "tab": "Tab", "space": "space",
        "backspace": "BackSpace", "delete": "Delete", "insert": "Insert", "home": "Home", "end": "End",
        "pageup": "Page_Up", "pagedown": "Page_Down", "up": "Up", "down": "Down", "left": "Left", "right": "Right",
        "plus": "plus", "minus": "minus", "comma": "comma", "period": "period",
    ]

    /// GTK's name for `text`, or a clear error.
    public static func gtkName(_ text: String) throws(ScriptMessageError) -> String {
        let parts = text.split(separator: "+", omittingEmptySubsequences: false).map { String($0.filter { $0 != " " }) }
        guard text.count <= 40, parts.count >= 1, let key = parts.last, !key.isEmpty else { throw refusal(text) }
        var name = ""
        for modifier in parts.dropLast() {
            guard let gtk = modifiers[modifier.lowercased()], !name.contains(gtk) else { throw refusal(text) }
            name += gtk
        }
        let lower = key.lowercased()
        if let named = keys[lower] {
            name += named
        } else if key.count == 1, let scalar = key.unicodeScalars.first, scalar.isASCII,
                  scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
            name += lower
        } else if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...24).contains(number) {
            name += "F\(number)"
        } else {
            throw refusal(text)
        }
        return name
    }

    private static func refusal(_ text: String) -> ScriptMessageError {
        ScriptMessageError("menu: accelerator \(JSONValue.string(String(text.prefix(40))).jsonText) is not a key combination like \"Ctrl+Shift+K\" or \"F5\"")
    }
}
