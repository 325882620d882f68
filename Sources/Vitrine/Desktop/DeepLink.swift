#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A URL of one of the app's own schemes (`[app] url-schemes`) handed to the app by the
/// desktop (`xdg-open myapp://open?id=3`): checked here, then by the navigation chain's
/// deep-link handler, then told to the app's pages as a `deep-link` event.
public struct DeepLink: Sendable, Equatable {
    /// The longest URL accepted (bytes).
    public static let maxLength = 2048

    public let url: URL

    /// The deep link `text` spells, or why it is none: an absolute URL of one of `schemes`,
    /// at most `maxLength` bytes, without spaces or control characters.
    public init(_ text: String, schemes: some Sequence<String>) throws(ScriptMessageError) {
        guard text.utf8.count <= Self.maxLength else {
            throw ScriptMessageError("deep link: longer than \(Self.maxLength) bytes")
        }
        guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw ScriptMessageError("deep link: spaces and control characters are not allowed")
        }
        let accepted = Set(schemes)
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), accepted.contains(scheme) else {
            throw ScriptMessageError("deep link: '\(text.prefix(80))' is not a URL of the app's schemes (\(accepted.sorted().joined(separator: ", ")))")
        }
        self.url = url
    }

    /// Whether `url` is of one of `schemes` (so it is a deep link, not a page to open).
    public static func isDeepLink(_ url: URL, schemes: some Sequence<String>) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return schemes.contains(scheme)
    }

    /// What the page's `deep-link` listener receives: the URL and its parts.
    public var event: JSONValue {
        var fields: [(String, JSONValue)] = [("url", .string(url.absoluteString)), ("scheme", .string(url.scheme?.lowercased() ?? ""))]
        if let host = url.host { fields.append(("host", .string(host))) }
        fields.append(("path", .string(url.path)))
        if let query = url.query { fields.append(("query", .string(query))) }
        return .object(JSONObject(fields))
    }
}
