/// What the keyboard shows for the focused field.
public enum KeyboardMode: String, Sendable, Equatable {
    /// The layout's letters (text, search, email, url, password, textarea, contenteditable).
    case text
    /// The numeric pad (`type=number`, `type=tel`, `inputmode=numeric|decimal|tel`).
    case numeric
}
