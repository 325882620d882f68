#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `shell`: `{"action": "open", "url"}` hands a URL to the desktop (its browser, mail
/// client, …) with the external-browser handler's rule: only its schemes (http, https,
/// mailto, tel). `{"action": "openFile", "path"}` opens a file the user chose in a dialog
/// in its default application. Answers true.
public struct ShellStrategy: ScriptMessageStrategy {
    public static let identifier = Capability.shell.rawValue
    public static let capability: Capability? = .shell

    public nonisolated init() {}

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        let body = message.body
        switch body["action"]?.stringValue {
        case "open":
            let schemes = ExternalBrowserHandler.defaultExternalSchemes
            guard let text = body["url"]?.stringValue, let url = URL(string: text),
                  let scheme = url.scheme?.lowercased(), schemes.contains(scheme) else {
                throw ScriptMessageError("shell: open needs an absolute URL with one of the schemes \(schemes.sorted().joined(separator: ", "))")
            }
            context.host.openExternally(url)
        case "openFile":
            guard let path = body["path"]?.stringValue, ChosenFiles.shared.contains(path) else {
                throw ScriptMessageError("shell: openFile: only a file the user chose in a dialog can be opened")
            }
            close(try ChosenFiles.shared.open(path, for: "shell: openFile")) // still the file chosen
            context.host.openExternally(URL(fileURLWithPath: path))
        default:
            throw ScriptMessageError.invalidBody(Self.identifier, expected: #"{"action": "open", "url"} or {"action": "openFile", "path"}"#)
        }
        return true
    }
}
