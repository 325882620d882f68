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
