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
public struct ShellStrategy: TypedScriptMessageStrategy {
    public static let identifier = "shell"
    public static let capability: Capability? = .shell

    public enum Request: ActionRequest {
        case open(url: String)
        case openFile(path: String)
        public static let actions = ["open", "openFile"]
    }

    public nonisolated init() {}

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> Bool {
        switch request {
        case .open(let text):
            let schemes = ExternalBrowserHandler.defaultExternalSchemes
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), schemes.contains(scheme) else {
                throw ScriptMessageError("shell: open needs an absolute URL with one of the schemes \(schemes.sorted().joined(separator: ", "))")
            }
            context.host.openExternally(url)
        case .openFile(let path):
            guard ChosenFiles.shared.contains(path) else {
                throw ScriptMessageError("shell: openFile: only a file the user chose in a dialog can be opened")
            }
            close(try ChosenFiles.shared.open(path, for: "shell: openFile")) // still the file chosen
            context.host.openExternally(URL(fileURLWithPath: path))
        }
        return true
    }
}
