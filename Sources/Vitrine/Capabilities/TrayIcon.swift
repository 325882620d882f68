#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The app's icon in the desktop's tray (`tray` capability, `WebContainer.setTray`): an
/// image, a tooltip and a menu. Validated here, before any D-Bus call: a hostile page can
/// neither point the icon at a file outside the app's folder nor flood the menu.
public struct TrayIcon: Sendable, Equatable {
    /// What the tray shows.
    public enum Image: Sendable, Equatable {
        /// An icon of the desktop's theme (`mail-unread`).
        case themed(String)
        /// A PNG or SVG file of the app's folder, by its path relative to the folder (`icons/tray.png`).
        case file(String)
    }

    public var image: Image
    public var tooltip: String
    /// The tray's menu: its commands' ids reach the page (`tray:activated`).
    public var menu: AppMenu

    public enum Limits {
        public static let tooltipLength = 200
        public static let iconNameLength = 100
        public static let pathLength = 512
        /// An icon file's size, at most.
        public static let iconBytes = 1 << 20
    }

    public init(image: Image, tooltip: String = "", menu: AppMenu = try! AppMenu(items: [])) throws(ScriptMessageError) {
        switch image {
        case .themed(let name):
            guard !name.isEmpty, name.utf8.count <= Limits.iconNameLength,
                  name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0)) })
            else { throw ScriptMessageError("tray: an icon-theme name is 1 to \(Limits.iconNameLength) of A-Z a-z 0-9 - _ .") }
        case .file(let path):
            try Self.checkRelative(path)
        }
        guard tooltip.count <= Limits.tooltipLength, !tooltip.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ScriptMessageError("tray: a tooltip is at most \(Limits.tooltipLength) characters without control characters")
        }
        self.image = image
        self.tooltip = tooltip
        self.menu = menu
    }

    /// The tray `body` declares: `{icon, tooltip?, items?}`. An `icon` with a `/` or ending in
    /// `.png`/`.svg` is a file of the app's folder; any other is an icon-theme name.
    public init(json body: JSONValue) throws(ScriptMessageError) {
        guard let icon = body["icon"]?.stringValue else { throw ScriptMessageError("tray: icon must be a string (a file of the app's folder or an icon-theme name)") }
        let tooltip = body["tooltip"] ?? .null
        guard tooltip == .null || tooltip.stringValue != nil else { throw ScriptMessageError("tray: tooltip must be a string") }
        let items = body["items"] ?? .array([])
        let lower = icon.lowercased()
        let image: Image = icon.contains("/") || lower.hasSuffix(".png") || lower.hasSuffix(".svg") ? .file(icon) : .themed(icon)
        try self.init(image: image, tooltip: tooltip.stringValue ?? "", menu: try AppMenu(json: items))
    }

    /// The user chose the menu's command `id` (a tray host's click): a check item flips. The
    /// page's event; nil, and nothing changes, for an id the menu has no enabled command of.
    public mutating func choose(_ id: String) -> TrayEvent? {
        menu.choose(id).map { .activated(id: id, checked: $0.checked) }
    }

    /// Refuses absolute paths and `..`: the icon is named from inside the app's folder.
    private static func checkRelative(_ path: String) throws(ScriptMessageError) {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, path.utf8.count <= Limits.pathLength, !path.hasPrefix("/"), !path.contains("\0"), !path.contains("\\"),
              !segments.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty })
        else {
            throw ScriptMessageError("tray: icon \(JSONValue.string(String(path.prefix(80))).jsonText) must be a path inside the app's folder, "
                + "relative and without \"..\"")
        }
    }

    /// The icon file's bytes, read from `folder` without leaving it (a symlink out is refused
    /// as a `..` would be); nil for a themed icon.
    public func iconFileBytes(in folder: URL?) throws(ScriptMessageError) -> [UInt8]? {
        guard case .file(let path) = image else { return nil }
        guard let folder else { throw ScriptMessageError("tray: an icon file needs the app's folder (app-dir); use an icon-theme name") }
        // The resolver reads a URL path: every byte but a letter, a digit and "/" percent-encoded.
        let encoded = path.utf8.map { byte in
            let scalar = Unicode.Scalar(byte)
            return scalar == "/" || (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
                ? String(scalar) : "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }.joined()
        switch AppResourceResolver(root: folder).open(encodedPath: encoded) {
        case .failure(.forbidden):
            throw ScriptMessageError("tray: icon \(JSONValue.string(path).jsonText) leads outside the app's folder")
        case .failure(.notFound):
            throw ScriptMessageError("tray: icon \(JSONValue.string(path).jsonText) is not a file of the app's folder")
        case .success(let file):
            defer { close(file.descriptor) }
            guard file.size <= Limits.iconBytes else { throw ScriptMessageError("tray: icon \(JSONValue.string(path).jsonText) is over 1 MiB") }
            var bytes = [UInt8](repeating: 0, count: file.size)
            let count = bytes.withUnsafeMutableBytes { read(file.descriptor, $0.baseAddress, file.size) }
            guard count == file.size else { throw ScriptMessageError("tray: icon \(JSONValue.string(path).jsonText) cannot be read") }
            return bytes
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

/// What the user did with the tray, as the page hears it.
public enum TrayEvent: Sendable, Equatable {
    /// Chose a command of the tray's menu; a check item's new state.
    case activated(id: String, checked: Bool? = nil)
    /// Clicked the icon itself.
    case click

    /// The `vitrine.on` event name (`tray:activated`, `tray:click`) and its payload.
    public var name: String {
        switch self {
        case .activated: "tray:activated"
        case .click: "tray:click"
        }
    }

    public var payload: JSONValue {
        switch self {
        case .activated(let id, nil): ["id": .string(id)]
        case .activated(let id, let checked?): ["id": .string(id), "checked": .bool(checked)]
        case .click: .object([:])
        }
    }
}
