#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The URL schemes an app may claim (`[app] url-schemes`): its own, never one the web, the
/// desktop or Vitrine already gives a meaning (a page must not be able to pose as a deep
/// link by being an ordinary `https:` link, and the app must not take over `mailto:`).
public enum AppURLScheme {
    /// Schemes no app may claim.
    public static let reserved: Set<String> = [
        "http", "https", "file", "ftp", "ftps", "sftp", "ws", "wss", "data", "blob", "about", "javascript",
        "app", "vitrine", "resource", "view-source", "webkit", "mailto", "tel", "sms", "ssh", "smb", "nfs",
        "trash", "recent", "computer", "network", "burn", "x-github-client", "ghelp", "help", "man", "info",
    ]
    /// The longest scheme accepted.
    public static let maxLength = 64

    /// Why `name` cannot be an app's scheme, or nil: a lowercase RFC 3986 scheme (a letter,
    /// then letters, digits, `+`, `-` or `.`) that is not reserved.
    public static func problem(with name: String) -> String? {
        guard let first = name.unicodeScalars.first else { return "a scheme is not empty" }
        guard name.utf8.count <= maxLength else { return "a scheme has at most \(maxLength) characters" }
        guard ("a"..."z").contains(first),
              name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return "a scheme is a lowercase letter followed by lowercase letters, digits, '+', '-' or '.'" }
        guard !reserved.contains(name) else { return "'\(name)' already means something to the web or the desktop; choose the app's own" }
        return nil
    }
}
