#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The desktop's file dialogs and messages (`dialog` capability).
@MainActor
public protocol FileDialogService: AnyObject {
    /// Asks the user for files, a folder or a file to save: the paths, or nil when cancelled.
    func chooseFiles(_ request: FileDialogRequest) async throws -> [String]?
    /// Tells the user something and waits until they close it.
    func showMessage(title: String, message: String) async
}

/// `dialog`: `{"action": "open", "multiple"?, "folder"?, "title"?, "directory"?}` → paths
/// or null (cancelled); `{"action": "save", "title"?, "name"?, "directory"?, "text"? |
/// "base64"?}` (`name` a plain file name, see `saveName`) → the path (written with the contents, when given) or null;
/// `{"action": "message" | "confirm", "title", "message"}` → true / the answer;
/// `{"action": "read", "path", "as"?: "text" | "bytes" | "base64"}` → a chosen file's
/// contents: its text, its bytes (a `Uint8Array`) or their base64 text.
public struct DialogStrategy: TypedScriptMessageStrategy {
    public static let identifier = "dialog"
    public static let capability: Capability? = .dialog
    /// The largest file a page may read, or write through a save dialog, in bytes.
    public static let sizeLimit = 16 << 20

    public enum Request: ActionRequest {
        case open(title: String?, directory: String?, multiple: Bool?, folder: Bool?)
        case save(title: String?, directory: String?, name: String?, text: String?, base64: String?)
        case message(title: String, message: String)
        case confirm(title: String, message: String)
        /// `as` absent: text.
        case read(path: String, as: ReadForm?)
        public static let actions = ["open", "save", "message", "confirm", "read"]
    }

    /// How a chosen file's contents come back.
    public enum ReadForm: String, Decodable, Sendable { case text, bytes, base64 }

    public nonisolated init() {}

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> JSONValue {
        switch request {
        case .open(let title, let folder, let multiple, let chooseFolder):
            let kind: FileDialogRequest.Kind = chooseFolder == true ? .openFolder : multiple == true ? .openFiles : .openFile
            let dialogs = try context.service(FileDialogService.self, for: .dialog)
            guard let paths = try await dialogs.chooseFiles(FileDialogRequest(kind: kind, title: title, folder: folder)) else {
                return .null
            }
            if kind != .openFolder { ChosenFiles.shared.add(paths) }
            return .array(paths.map(JSONValue.string))
        case .save(let title, let folder, let name, let text, let base64):
            let contents = try Self.contents(text: text, base64: base64)
            let request = FileDialogRequest(kind: .save, title: title, folder: folder, suggestedName: try Self.saveName(name))
            let dialogs = try context.service(FileDialogService.self, for: .dialog)
            guard let path = try await dialogs.chooseFiles(request)?.first else { return .null }
            if let contents {
                do {
                    try Data(contents).write(to: URL(fileURLWithPath: path), options: .atomic)
                } catch {
                    throw ScriptMessageError("dialog: cannot write \(path): \(error)")
                }
            }
            ChosenFiles.shared.add([path]) // pinned to the file just written
            return .string(path)
        case .message(let title, let text):
            try await context.service(FileDialogService.self, for: .dialog).showMessage(title: title, message: text)
            return true
        case .confirm(let title, let text):
            return .bool(await context.host.confirm(title: title, message: text))
        case .read(let path, let form):
            return try Self.read(path, as: form ?? .text)
        }
    }

    /// The name a save dialog suggests: a plain file name in the dialog's folder, or nil.
    /// GTK resolves a suggested name against that folder, so `../x` or `a/b` would land
    /// elsewhere; a leading dot would make a hidden file (`.bashrc`, `.profile`).
    static func saveName(_ name: String?) throws(ScriptMessageError) -> String? {
        guard let name, !name.isEmpty else { return nil }
        guard !name.contains("/"), !name.contains("\\"), !name.contains("\0"), !name.hasPrefix("."), name.utf8.count <= 255 else {
            throw ScriptMessageError("dialog: save: name must be a plain file name (no / or \\, no NUL, not starting with a dot, at most 255 bytes): \(JSONValue.string(name).jsonText)")
        }
        return name
    }

    /// What a save dialog writes: `text` as UTF-8 or `base64` bytes; nil: nothing.
    private static func contents(text: String?, base64: String?) throws(ScriptMessageError) -> [UInt8]? {
        var bytes = text.map { Array($0.utf8) }
        if let encoded = base64 {
            guard let data = Data(base64Encoded: encoded) else { throw ScriptMessageError("dialog: save: base64 is not base64") }
            bytes = [UInt8](data)
        }
        if let bytes, bytes.count > sizeLimit {
            throw ScriptMessageError("dialog: save: \(bytes.count) bytes; the limit is \(sizeLimit)")
        }
        return bytes
    }

    /// A file the user chose, bounded: its text (UTF-8), its bytes, or their base64 text.
    @MainActor
    private static func read(_ path: String, as form: ReadForm) throws(ScriptMessageError) -> JSONValue {
        let fd = try ChosenFiles.shared.open(path, for: "dialog: read")
        defer { close(fd) }
        guard let bytes = FileSystem.readAll(fd, limit: sizeLimit) else { throw ScriptMessageError("dialog: read: \(path) cannot be read") }
        guard bytes.count <= sizeLimit else { throw ScriptMessageError("dialog: read: \(path) is over \(sizeLimit) bytes, the limit") }
        let data = Data(bytes)
        switch form {
        case .bytes: return .bytes(bytes)
        case .base64: return .string(data.base64EncodedString())
        case .text: break
        }
        guard let text = String(data: data, encoding: .utf8) else { throw ScriptMessageError("dialog: read: \(path) is not UTF-8 text (read it as bytes)") }
        return .string(text)
    }
}

