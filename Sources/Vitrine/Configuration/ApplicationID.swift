#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The app's id: a reverse-DNS name (`org.example.Shop`) that is at once its GApplication
/// id, its D-Bus name, its window class (WM_CLASS, Wayland app id), its desktop file's id
/// and the name of its data folder (`$XDG_DATA_HOME/<id>/`, by default
/// `~/.local/share/<id>/`). Two apps with different ids share nothing of these.
public enum ApplicationID {
    /// The stock program's id: the bundled demo, and `vitrine ctl`'s default.
    public static let stock = "org.vitrine.Vitrine"

    /// Whether `id` is a valid application id (see `problem(with:)`).
    public static func accepts(_ id: String) -> Bool { problem(with: id) == nil }

    /// Why `id` is not a valid application id, or nil when it is. The rule is GLib's
    /// `g_application_id_is_valid`: at most 255 bytes; two or more elements separated by
    /// `.`; each element non-empty, of ASCII letters, digits, `_` and `-`, not starting
    /// with a digit.
    public static func problem(with id: String) -> String? {
        if id.isEmpty { return "it is empty" }
        if id.utf8.count > 255 { return "it is longer than 255 bytes" }
        let elements = id.split(separator: ".", omittingEmptySubsequences: false)
        if elements.count < 2 { return "it needs at least two elements separated by '.' (reverse DNS, such as org.example.Shop)" }
        for element in elements {
            guard let first = element.unicodeScalars.first else { return "it has an empty element (a leading, trailing or doubled '.')" }
            if let bad = element.unicodeScalars.first(where: { !isAllowed($0) }) {
                return "'\(bad)' is not allowed: only ASCII letters, digits, '_' and '-' between the dots"
            }
            if isDigit(first) { return "the element '\(element)' starts with a digit" }
        }
        return nil
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || isDigit(scalar) || scalar == "_" || scalar == "-"
    }

    // MARK: Ids for apps that name none

    /// The id of an app that names none: from its app folder when it has one (the folder's
    /// real path: a symlink gives its target's id), else from its start page's origin, else
    /// the stock id.
    public static func derived(startURL: URL?, appDirectory: URL?) -> String {
        if let appDirectory { return derived(fromFolder: appDirectory) }
        guard let startURL else { return stock }
        if let origin = Origin(startURL) { return derived(from: origin) }
        // A page without a host (a local file): its real path, like a folder's.
        if startURL.isFileURL { return derived(fromFolder: startURL) }
        return "org.vitrine.page.h" + hash(startURL.absoluteString)
    }

    /// `org.vitrine.folder.<name>-<hash>`: the folder's name, for people, and a hash of its
    /// real path (symlinks resolved), so that two folders never share an id and a folder
    /// keeps its id however it is reached.
    public static func derived(fromFolder folder: URL) -> String {
        let path = realPath(folder.path)
        let name = element(String(URL(fileURLWithPath: path).lastPathComponent.prefix(40)))
        return "org.vitrine.folder.\(name)-\(hash(path))"
    }

    /// `org.vitrine.site.<scheme>.<host, reversed>[.port<port>]`: `https://shop.example.com:8443`
    /// is `org.vitrine.site.https.com.example.shop.port8443`. Under Vitrine's own prefix, so a
    /// site can never take another program's bus name.
    public static func derived(from origin: Origin) -> String {
        let labels = origin.host.split(separator: ".").reversed().map { element(String($0)) }
        var id = (["org.vitrine.site", element(origin.scheme)] + labels).joined(separator: ".")
        if let port = origin.port { id += ".port\(port)" }
        return id.utf8.count <= 255 ? id : "org.vitrine.site.\(element(origin.scheme)).h\(hash(origin.description))"
    }

    /// `text` as one id element: other characters become `_`, and a leading digit gets a `_`.
    private static func element(_ text: String) -> String {
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.map { isAllowed($0) ? $0 : "_" }))
        guard let first = cleaned.unicodeScalars.first else { return "_" }
        return isDigit(first) ? "_" + cleaned : cleaned
    }

    /// 16 hex digits of FNV-1a (64 bits): stable across runs and machines, unlike `hashValue`.
    private static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value &*= 0x100_0000_01b3
        }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `path` with every symlink resolved (as is when it does not exist).
    private static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return URL(fileURLWithPath: path).standardizedFileURL.path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    // MARK: Data folders

    /// The user's data folder (`$XDG_DATA_HOME`, else `$HOME/.local/share`): each app's
    /// folder is in it, named by its id.
    public static var dataHome: URL {
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return URL(fileURLWithPath: data) }
        return URL(fileURLWithPath: environment["HOME"] ?? "/tmp").appendingPathComponent(".local/share")
    }

    /// Moves an app's data from where earlier versions kept it (`<data home>/vitrine/<id>/`)
    /// to its own folder (`<data home>/<id>/`), once: only when the old folder exists and the
    /// new one does not. Only a configured id has such a folder: the ids earlier versions
    /// derived (`app-app`, shared by every app folder) are not reverse DNS, so their data
    /// is never handed to an app. Returns the folder moved, if one was.
    @discardableResult
    public static func moveLegacyData(of id: String, in dataHome: URL = dataHome) throws -> URL? {
        guard accepts(id) else { return nil }
        let legacy = dataHome.appendingPathComponent("vitrine").appendingPathComponent(id)
        let current = dataHome.appendingPathComponent(id)
        guard FileSystem.isDirectory(legacy.path),
              (try? FileManager.default.destinationOfSymbolicLink(atPath: legacy.path)) == nil,
              !FileManager.default.fileExists(atPath: current.path)
        else { return nil }
        try FileManager.default.createDirectory(at: dataHome, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: legacy, to: current)
        return current
    }
}

extension Configuration {
    /// The app's id: the configured one, else the one `build()` derived
    /// (`ApplicationID.derived(startURL:appDirectory:)`).
    public var applicationID: String {
        preferences.applicationID ?? ApplicationID.derived(startURL: startURL, appDirectory: appDirectory?.path)
    }

    /// This configuration as the app `id`'s (a pushed file that names no id, for the app
    /// running it); nil when it names another id itself.
    public func keepingApplicationID(_ id: String) -> Configuration? {
        guard applicationID != id else { return self }
        guard preferences.applicationIDIsDerived else { return nil }
        var preferences = preferences
        preferences.applicationID = id
        preferences.applicationIDIsDerived = false
        return refined(preferences: preferences, startURL: startURL)
    }

    /// Where the app's own data (the `storage` capability, window state) is kept:
    /// `$XDG_DATA_HOME/<app id>/`.
    public var appDataDirectory: URL {
        ApplicationID.dataHome.appendingPathComponent(applicationID)
    }
}
