/// One key of the on-screen keyboard: a character of the layout or one of the special keys
/// every layout has in the same place.
public enum KeyboardKey: Sendable, Equatable, Hashable {
    case character(normal: String, shifted: String)
    case shift, backspace, enter, tab, space, hide

    /// What the key shows.
    public func label(shifted: Bool) -> String {
        switch self {
        case let .character(normal, shiftedText): shifted ? shiftedText : normal
        case .shift: "⇧"
        case .backspace: "⌫"
        case .enter: "⏎"
        case .tab: "⇥"
        case .space: "space"
        case .hide: "⌨▾"
        }
    }

    /// Its accessible name, which assistive technology reads and AT-SPI tests find it by:
    /// what a character key types, a word for the others.
    public func accessibleName(shifted: Bool) -> String {
        switch self {
        case .character: label(shifted: shifted)
        case .shift: "Shift"
        case .backspace: "Backspace"
        case .enter: "Enter"
        case .tab: "Tab"
        case .space: "Space"
        case .hide: "Hide keyboard"
        }
    }

    /// How many key widths it spans in its row.
    public var width: Int {
        switch self {
        case .space: 5
        case .shift, .backspace, .enter, .tab, .hide: 2
        case .character: 1
        }
    }

    /// The text keyboard for `layout`: its rows, with the special keys at the row ends and
    /// a last row for hide and space.
    public static func textRows(_ layout: KeyboardLayout) -> [[KeyboardKey]] {
        var rows = layout.rows.map { row in row.map { KeyboardKey.character(normal: $0.normal, shifted: $0.shifted) } }
        let ends: [(leading: KeyboardKey?, trailing: KeyboardKey?)] = [(nil, .backspace), (.tab, nil), (nil, .enter), (.shift, nil)]
        for index in rows.indices {
            let end = ends[min(index, ends.count - 1)]
            if let leading = end.leading { rows[index].insert(leading, at: 0) }
            if let trailing = end.trailing { rows[index].append(trailing) }
        }
        rows.append([.hide, .space, .enter])
        return rows
    }

    /// The numeric pad (`type=number`, `tel`, `inputmode=numeric`): digits and what numbers
    /// and phone numbers are written with.
    public static let numericRows: [[KeyboardKey]] = [
        ["1", "2", "3"].map(digit) + [.backspace],
        ["4", "5", "6"].map(digit) + [.tab],
        ["7", "8", "9"].map(digit) + [.enter],
        ["-", "0", ".", "+"].map(digit) + [.hide],
    ]

    private static func digit(_ text: String) -> KeyboardKey { .character(normal: text, shifted: text) }
}
