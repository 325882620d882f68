extension StringProtocol {
    /// The text without the whitespace and line ends at either end (Foundation's
    /// `trimmingCharacters(in:)` is not in FoundationEssentials).
    public var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
