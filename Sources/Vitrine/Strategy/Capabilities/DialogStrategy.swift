#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `dialog`: `{"action": "open", "multiple"?, "folder"?, "title"?, "directory"?}` → paths
/// or null (cancelled); `{"action": "save", "title"?, "name"?, "directory"?, "text"? |
/// "base64"?}` (`name` a plain file name, see `saveName`) → the path (written with the contents, when given) or null;
/// `{"action": "message" | "confirm", "title", "message"}` → true / the answer;
/// `{"action": "read", "path", "as": "text" | "base64"}` → a chosen file's contents.
public struct DialogStrategy: ScriptMessageStrategy {
    public static let identifier = Capability.dialog.rawValue
    public static let capability: Capability? = .dialog
    /// The largest file a page may read, or write through a save dialog, in bytes.
    public static let sizeLimit = 16 << 20

    public nonisolated init() {}

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        let body = message.body
        let title = body["title"]?.stringValue
        let folder = body["directory"]?.stringValue
        switch body["action"]?.stringValue {
        case "open":
            let kind: FileDialogRequest.Kind = body["folder"] == .bool(true) ? .openFolder
                : body["multiple"] == .bool(true) ? .openFiles : .openFile
            guard let paths = try await desktop(context).chooseFiles(FileDialogRequest(kind: kind, title: title, folder: folder)) else {
                return .null
            }
            if kind != .openFolder { ChosenFiles.shared.add(paths) }
            return .array(paths.map(JSONValue.string))
        case "save":
            let contents = try Self.contents(body)
            let request = FileDialogRequest(kind: .save, title: title, folder: folder, suggestedName: try Self.saveName(body["name"]))
            guard let path = try await desktop(context).chooseFiles(request)?.first else { return .null }
            if let contents {
                do {
                    try Data(contents).write(to: URL(fileURLWithPath: path), options: .atomic)
                } catch {
                    throw ScriptMessageError("dialog: cannot write \(path): \(error)")
                }
            }
            ChosenFiles.shared.add([path]) // pinned to the file just written
            return .string(path)
        case "message", "confirm":
            guard let title, let text = body["message"]?.stringValue else {
                throw ScriptMessageError("dialog: \(body["action"]!.stringValue!) needs title and message, strings")
            }
            if body["action"] == "message" {
                try await desktop(context).showMessage(title: title, message: text)
                return true
            }
            return .bool(await context.host.confirm(title: title, message: text))
        case "read":
            return try Self.read(body)
        default:
            throw ScriptMessageError.invalidBody(Self.identifier, expected: #"{"action": "open" | "save" | "message" | "confirm" | "read", …}"#)
        }
    }

    @MainActor
    private func desktop(_ context: ScriptMessageContext) throws -> any DesktopServices {
        guard let desktop = context.host.desktop else { throw ScriptMessageError.noDesktop(.dialog) }
        return desktop
    }

    /// The name a save dialog suggests: a plain file name in the dialog's folder, or nil.
    /// GTK resolves a suggested name against that folder, so `../x` or `a/b` would land
    /// elsewhere; a leading dot would make a hidden file (`.bashrc`, `.profile`).
    static func saveName(_ value: JSONValue?) throws(ScriptMessageError) -> String? {
        guard let value, value != .null else { return nil }
        guard let name = value.stringValue else { throw ScriptMessageError("dialog: save: name must be a string") }
        if name.isEmpty { return nil }
        guard !name.contains("/"), !name.contains("\\"), !name.contains("\0"), !name.hasPrefix("."), name.utf8.count <= 255 else {
            throw ScriptMessageError("dialog: save: name must be a plain file name (no / or \\, no NUL, not starting with a dot, at most 255 bytes): \(JSONValue.string(name).jsonText)")
        }
        return name
    }

    /// What a save dialog writes: `text` as UTF-8 or `base64` bytes; nil: nothing.
    private static func contents(_ body: JSONValue) throws(ScriptMessageError) -> [UInt8]? {
        var bytes: [UInt8]?
        if let text = body["text"]?.stringValue { bytes = Array(text.utf8) }
        if let encoded = body["base64"]?.stringValue {
            guard let data = Data(base64Encoded: encoded) else { throw ScriptMessageError("dialog: save: base64 is not base64") }
            bytes = [UInt8](data)
        }
        if let bytes, bytes.count > sizeLimit {
            throw ScriptMessageError("dialog: save: \(bytes.count) bytes; the limit is \(sizeLimit)")
        }
        return bytes
    }

    /// A file the user chose, bounded: its text (UTF-8) or its bytes as base64.
    @MainActor
    private static func read(_ body: JSONValue) throws(ScriptMessageError) -> JSONValue {
        guard let path = body["path"]?.stringValue else { throw ScriptMessageError("dialog: read needs path, a string") }
        let fd = try ChosenFiles.shared.open(path, for: "dialog: read")
        defer { close(fd) }
        guard let bytes = FileSystem.readAll(fd, limit: sizeLimit) else { throw ScriptMessageError("dialog: read: \(path) cannot be read") }
        guard bytes.count <= sizeLimit else { throw ScriptMessageError("dialog: read: \(path) is over \(sizeLimit) bytes, the limit") }
        let data = Data(bytes)
        if body["as"] == "base64" { return .string(data.base64EncodedString()) }
        guard let text = String(data: data, encoding: .utf8) else { throw ScriptMessageError("dialog: read: \(path) is not UTF-8 text (read it as bytes)") }
        return .string(text)
    }
}

