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
