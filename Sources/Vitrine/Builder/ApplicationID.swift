#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The app's id: the folder its storage and window state are kept in, under the user's
/// data folder (`$XDG_DATA_HOME/vitrine/<id>/`, by default `~/.local/share/vitrine/<id>/`).
public enum ApplicationID {
    /// Whether `id` can name the app's folder: letters, digits, `.`, `_`, `-`; not `.`/`..`.
    public static func accepts(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 255 && id != "." && id != ".."
            && id.unicodeScalars.allSatisfy(isAllowed)
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar)
    }

    /// An id made from `origin`: `app-demo` for app://demo, `https-example.org-8443`.
    public static func derived(from origin: Origin) -> String {
        let text = [origin.scheme, origin.host] + (origin.port.map { ["\($0)"] } ?? [])
        let id = text.joined(separator: "-").unicodeScalars.map { isAllowed($0) ? Character($0) : "_" }
        return String(id)
    }

    /// The user's data folder for Vitrine's apps: `$XDG_DATA_HOME/vitrine`, else
    /// `$HOME/.local/share/vitrine`.
    public static var dataRoot: URL {
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data).appendingPathComponent("vitrine")
        }
        let home = environment["HOME"] ?? "/tmp"
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/vitrine")
    }
}

extension Configuration {
    /// The app's id: the configured one, else one made from the start page's origin
    /// (`vitrine` when there is none).
    public var applicationID: String {
        preferences.applicationID ?? startURL.flatMap(Origin.init).map(ApplicationID.derived) ?? "vitrine"
    }

    /// Where the app's own data (the `storage` capability, window state) is kept.
    public var appDataDirectory: URL {
        ApplicationID.dataRoot.appendingPathComponent(applicationID)
    }
}
