/// What the keyboard shows for the focused field.
public enum KeyboardMode: String, Sendable, Equatable {
    /// The layout's letters (text, search, email, url, password, textarea, contenteditable).
    case text
    /// The numeric pad (`type=number`, `type=tel`, `inputmode=numeric|decimal|tel`).
    case numeric
}

/// What a key asks of the page (see `Resources/sdk/keyboard.js`), or of the keyboard itself.
public enum KeyboardCommand: Sendable, Equatable {
    /// Types text into the focused field as real input (`input` events fire).
    case insert(String)
    case deleteBackward
    /// A line break in a textarea or contenteditable; elsewhere submits the field's form.
    case enter
    /// Focus moves to the next editable field.
    case nextField
    /// The keyboard hides; the field keeps its focus.
    case hide

    /// The action's name in `keyboard.js`'s `press(action, text)`.
    public var action: String {
        switch self {
        case .insert: "insert"
        case .deleteBackward: "delete"
        case .enter: "enter"
        case .nextField: "next"
        case .hide: "hide"
        }
    }

    /// The call that performs it in the page's keyboard script; nil: nothing to do there.
    public var script: String? {
        switch self {
        case .hide: nil
        case .insert(let text): "\(OnScreenKeyboardState.pressFunction)('insert', \(JSONValue.string(text).jsonText))"
        default: "\(OnScreenKeyboardState.pressFunction)('\(action)', '')"
        }
    }
}

/// What the page's keyboard script reports on `vitrine-keyboard`: an editable field got the
/// focus (and which keyboard it wants), or the focus left editable fields.
public enum KeyboardFocusMessage: Sendable, Equatable {
    case focus(KeyboardMode)
    case blur

    /// `focus:text`, `focus:numeric` or `blur`; anything else (a hostile page posting
    /// garbage) is nil and ignored.
    public init?(_ text: String) {
        switch text {
        case "focus:text": self = .focus(.text)
        case "focus:numeric": self = .focus(.numeric)
        case "blur": self = .blur
        default: return nil
        }
    }
}

/// The on-screen keyboard's state, apart from any widget: whether it shows, which keys,
/// whether shift is on; and what each key press does.
public struct OnScreenKeyboardState: Sendable, Equatable {
    /// The script-message handler the page's keyboard script posts to (isolated world).
    public static let handlerName = BridgeProtocol.keyboardHandler
    /// The function of `keyboard.js` that performs a `KeyboardCommand`.
    public static let pressFunction = BridgeProtocol.keyboardPressFunction

    public private(set) var isShown = false
    public private(set) var mode = KeyboardMode.text
    /// Shift types the next character shifted, then turns itself off.
    public private(set) var isShifted = false

    public init() {}

    /// The keys to show now.
    public func rows(for layout: KeyboardLayout) -> [[KeyboardKey]] {
        mode == .numeric ? KeyboardKey.numericRows : KeyboardKey.textRows(layout)
    }

    /// The page's report: shows the keyboard for a focused field, hides it on blur.
    public mutating func receive(_ message: KeyboardFocusMessage) {
        switch message {
        case .focus(let mode):
            if !isShown || self.mode != mode { isShifted = false }
            isShown = true
            self.mode = mode
        case .blur:
            isShown = false
            isShifted = false
        }
    }

    /// A key press: what the page must do (nil: nothing, as for shift, which only changes
    /// the labels). Keys pressed while hidden do nothing.
    public mutating func press(_ key: KeyboardKey) -> KeyboardCommand? {
        guard isShown else { return nil }
        switch key {
        case let .character(normal, shifted):
            defer { isShifted = false }
            return .insert(isShifted ? shifted : normal)
        case .shift:
            isShifted.toggle()
            return nil
        case .space: return .insert(" ")
        case .backspace: return .deleteBackward
        case .enter: return .enter
        case .tab: return .nextField
        case .hide:
            isShown = false
            isShifted = false
            return .hide
        }
    }
}
