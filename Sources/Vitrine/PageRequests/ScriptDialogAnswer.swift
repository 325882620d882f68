/// The answer a script dialog gets at once, with no dialog shown.
public enum ScriptDialogAnswer: Sendable, Equatable {
    /// `alert`: dismissed.
    case dismissed
    /// `confirm` and `beforeunload`: this choice (`beforeunload`'s true leaves the page).
    case confirmed(Bool)
    /// `prompt`: this text (nil: the page gets `null`, as if cancelled).
    case text(String?)
}
