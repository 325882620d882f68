

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
