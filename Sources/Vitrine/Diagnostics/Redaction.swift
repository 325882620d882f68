#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How secrets are kept out of what a kiosk shows others: its events (`proxy` lines, which
/// MQTT publishes too) and its support bundles.
public enum Redaction {
    /// What a secret becomes.
    public static let mark = "<redacted>"

    /// `scheme://user:secret@host/…` → `scheme://user:<redacted>@host/…`; other text unchanged.
    public static func withoutURLPassword(_ text: String) -> String {
        guard let schemeEnd = text.firstRange(of: "://") else { return text }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd = text[authorityStart...].firstIndex(where: { "/?#".contains($0) }) ?? text.endIndex
        let authority = text[authorityStart..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<text.index(after: colon)]) + mark + String(text[at...])
    }
}
