#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Keys as a page writes them (`"Ctrl+Alt+K"`): modifiers, then one key — a global shortcut's
/// (`shortcuts`) or a menu item's (`menu`). A global shortcut needs one of Ctrl, Alt or Super,
/// so that a grab never takes a key the user types (a bare `K`, `Shift+K`) from every other
/// program; a menu item's may be a bare key (`F5`).
public struct Accelerator: Sendable, Hashable, CustomStringConvertible {
    public enum Modifier: String, Sendable, CaseIterable, Comparable {
        case control = "Ctrl", alt = "Alt", shift = "Shift", superKey = "Super"

        /// GTK's name in an accelerator string (`gtk_accelerator_parse`).
        var gtkName: String {
            switch self {
            case .control: "<Control>"
            case .alt: "<Alt>"
            case .shift: "<Shift>"
            case .superKey: "<Super>"
            }
        }

        /// xkbcommon's name (`XKB_MOD_NAME_*`), as the XDG shortcuts specification spells it.
        var xkbName: String {
            switch self {
            case .control: "CTRL"
            case .alt: "ALT"
            case .shift: "SHIFT"
            case .superKey: "LOGO"
            }
        }

        public static func < (lhs: Modifier, rhs: Modifier) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// Named keys besides letters, digits and F1–F24, by the name a page writes → GDK's.
    static let namedKeys: [String: String] = [
        "space": "space", "enter": "Return", "return": "Return", "tab": "Tab", "backspace": "BackSpace",
        "delete": "Delete", "insert": "Insert", "home": "Home", "end": "End", "pageup": "Page_Up", "pagedown": "Page_Down",
        "up": "Up", "down": "Down", "left": "Left", "right": "Right", "print": "Print", "pause": "Pause",
        "plus": "plus", "minus": "minus", "comma": "comma", "period": "period", "slash": "slash",
        "escape": "Escape", "esc": "Escape",
    ]

    public let modifiers: Set<Modifier>
    /// GDK's key name (`k`, `F5`, `Page_Up`).
    public let key: String

    /// The global shortcut `text` spells, or why it is none.
    public init(_ text: String) throws(ScriptMessageError) {
        do {
            try self.init(parsing: text, needsCommandModifier: true)
        } catch {
            throw ScriptMessageError("shortcuts: '\(text.prefix(64))' is not a shortcut: \(error.why)")
        }
    }

    /// GTK's name (`<Control><Shift>k`) for a menu item's keys, or a clear error.
    public static func menuKeys(_ text: String) throws(ScriptMessageError) -> String {
        do {
            return try Accelerator(parsing: text, needsCommandModifier: false).gtkAccelerator
        } catch {
            throw ScriptMessageError("menu: accelerator \(JSONValue.string(String(text.prefix(64))).jsonText) is not a key combination like \"Ctrl+Shift+K\" or \"F5\"")
        }
    }

    private struct Problem: Error { let why: String }

    private init(parsing text: String, needsCommandModifier: Bool) throws(Problem) {
        guard text.utf8.count <= 64, !text.isEmpty else { throw Problem(why: "write it as modifiers and a key, such as Ctrl+Alt+K") }
        var parts = text.split(separator: "+", omittingEmptySubsequences: false).map(\.trimmingWhitespace)
        // "Ctrl+Alt++": the key is the plus sign.
        if parts.count >= 2, parts.suffix(2) == ["", ""] { parts.removeLast(2); parts.append("plus") }
        guard let last = parts.popLast(), !last.isEmpty else { throw Problem(why: "it names no key") }
        var modifiers = Set<Modifier>()
        for part in parts {
            guard let modifier = Self.modifier(part) else { throw Problem(why: "'\(part)' is not a modifier (Ctrl, Alt, Shift, Super)") }
            guard modifiers.insert(modifier).inserted else { throw Problem(why: "\(modifier.rawValue) is named twice") }
        }
        guard !needsCommandModifier || !modifiers.isDisjoint(with: [.control, .alt, .superKey]) else {
            throw Problem(why: "a global shortcut needs Ctrl, Alt or Super, or it would take a key the user types in every program")
        }
        guard let key = Self.gdkKey(last) else {
            throw Problem(why: "'\(last)' is not a key: a letter, a digit, F1–F24 or one of \(Self.namedKeys.keys.sorted().joined(separator: ", "))")
        }
        self.modifiers = modifiers
        self.key = key
    }

    /// As GTK parses it: `<Control><Alt>k`.
    public var gtkAccelerator: String { modifiers.sorted().map(\.gtkName).joined() + key }

    /// As the desktop portal's GlobalShortcuts takes a preferred trigger (the XDG shortcuts
    /// specification: xkbcommon's modifier names, then the key's keysym name): `CTRL+ALT+k`.
    /// GDK's key names are xkbcommon's keysym names.
    public var portalTrigger: String { (modifiers.sorted().map(\.xkbName) + [key]).joined(separator: "+") }

    /// As a page writes it, in a fixed order: `Ctrl+Alt+K`.
    public var description: String {
        (modifiers.sorted().map(\.rawValue) + [key.count == 1 ? key.uppercased() : key]).joined(separator: "+")
    }

    private static func modifier(_ name: String) -> Modifier? {
        switch name.lowercased() {
        case "ctrl", "control", "primary", "cmdorctrl": .control
        case "alt": .alt
        case "shift": .shift
        case "super", "meta", "win": .superKey
        default: nil
        }
    }

    private static func gdkKey(_ name: String) -> String? {
        let lower = name.lowercased()
        if lower.count == 1, let scalar = lower.unicodeScalars.first, ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
            return lower
        }
        if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...24).contains(number), !lower.dropFirst().hasPrefix("0") {
            return "F\(number)"
        }
        return namedKeys[lower]
    }
}
