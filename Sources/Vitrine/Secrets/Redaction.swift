#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How secrets are kept out of everything a kiosk shows others: its events (which MQTT
/// publishes and support bundles carry), its state, replies, metrics, standard error,
/// window titles and `check-config`'s summary. Every such output passes its text through
/// `text(_:)` on its way out, so a credential that reached a message by any path (a URL
/// the engine echoes, an error that quotes a request) still leaves it redacted.
public enum Redaction {
    /// What a secret becomes.
    public static let mark = "<redacted>"

    /// Query or fragment parameters whose values are credentials, by name (case-insensitive):
    /// these names, and any name containing `token`, `secret`, `passw`, `signature`,
    /// `credential` or `apikey`/`api_key`/`api-key`.
    public static let secretParameters: Set<String> = [
        "auth", "authorization", "code", "key", "pass", "pwd", "sig", "session", "sessionid", "sid",
    ]
    private static let secretParameterParts = ["token", "secret", "passw", "signature", "credential", "apikey", "api_key", "api-key"]

    /// Whether a query or fragment parameter named `name` carries a credential.
    public static func isSecretParameter(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return secretParameters.contains(lowered) || secretParameterParts.contains { lowered.contains($0) }
    }

    /// `text` as it may be shown: every URL in it with its credentials redacted (`url(_:)`),
    /// then every credential the process knows (`SecretMask.shared`) replaced, in each form
    /// it could take there (as is, URL-encoded, base64, hex).
    public static func text(_ text: String) -> String {
        SecretMask.shared.masked(urls(in: text))
    }

    /// `scheme://user:secret@host/path?token=secret#access_token=secret` →
    /// `scheme://user:<redacted>@host/path?token=<redacted>#access_token=<redacted>`.
    /// A user name without a password is often a token itself (`https://TOKEN@host/`):
    /// it is redacted whole. Text that is not such a URL comes back unchanged.
    public static func url(_ text: String) -> String {
        guard let schemeEnd = text.firstRange(of: "://") else { return text }
        let authorityStart = schemeEnd.upperBound
        let authorityEnd = text[authorityStart...].firstIndex(where: { "/?#".contains($0) }) ?? text.endIndex
        var result = String(text[..<authorityStart])
        let authority = text[authorityStart..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            if let colon = authority[..<at].firstIndex(of: ":") {
                result += authority[..<colon] + ":" + mark
            } else {
                result += mark
            }
            result += authority[at...]
        } else {
            result += authority
        }
        var rest = text[authorityEnd...]
        let fragmentStart = rest.firstIndex(of: "#")
        var fragment: Substring = ""
        if let fragmentStart {
            fragment = rest[rest.index(after: fragmentStart)...]
            rest = rest[..<fragmentStart]
        }
        if let question = rest.firstIndex(of: "?") {
            result += rest[...question] + parameters(rest[rest.index(after: question)...])
        } else {
            result += rest
        }
        if fragmentStart != nil { result += "#" + parameters(fragment) }
        return result
    }

    /// The password part only (`scheme://user:<redacted>@host/…`), as the configuration's
    /// redacted copy has always written it.
    public static func withoutURLPassword(_ text: String) -> String { url(text) }

    /// `a=1&token=x` → `a=1&token=<redacted>`.
    private static func parameters(_ text: Substring) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "="), isSecretParameter(String(pair[..<equals])) else {
                return String(pair)
            }
            return pair[...equals] + mark
        }.joined(separator: "&")
    }

    /// Every `scheme://…` run in free text (up to white space or a quote) through `url(_:)`.
    private static func urls(in text: String) -> String {
        // The common case (an origin, a plain URL) has nothing to redact: no user info, no parameters.
        guard text.contains("://"), text.contains(where: { $0 == "@" || $0 == "?" || $0 == "#" }) else { return text }
        var result = ""
        var index = text.startIndex
        while let separator = text[index...].firstRange(of: "://") {
            var start = separator.lowerBound
            while start > index, isSchemeCharacter(text[text.index(before: start)]) { start = text.index(before: start) }
            let end = text[separator.upperBound...].firstIndex(where: isURLEnd) ?? text.endIndex
            result += text[index..<start]
            result += url(String(text[start..<end]))
            index = end
        }
        return result + text[index...]
    }

    private static func isSchemeCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "+-.".contains(character))
    }

    private static func isURLEnd(_ character: Character) -> Bool {
        character.isWhitespace || "\"'<>`\\".contains(character)
    }
}
