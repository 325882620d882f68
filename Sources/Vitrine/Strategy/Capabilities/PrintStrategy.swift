#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a page asks of the `print` capability, read from `{"action": …}`.
public enum PrintCommand: Sendable, Equatable {
    /// GTK's print dialog for the page: answers whether the user printed.
    case dialog
    /// The page as PDF bytes, no dialog, laid out by `options` (its destination unused).
    case pdf(PrintSettings)

    /// The largest PDF a page gets back, in bytes.
    public static let sizeLimit = 32 << 20

    public init(body: JSONValue) throws(ScriptMessageError) {
        switch body["action"]?.stringValue {
        case "dialog": self = .dialog
        case "pdf": self = .pdf(try Self.settings(body))
        default: throw ScriptMessageError.invalidBody("print", expected: #"{"action": "dialog" | "pdf", …}"#)
        }
    }

    /// `{pageSize?: "a4" | "letter" | "80x200mm"…, landscape?: bool, margins?: millimetres 0–100}`.
    private static func settings(_ body: JSONValue) throws(ScriptMessageError) -> PrintSettings {
        // The destination is the adapter's own temporary file; this one is never used.
        var settings = PrintSettings(destination: .file(URL(fileURLWithPath: "/dev/null")))
        if let size = body["pageSize"], size != .null {
            guard let text = size.stringValue, let paper = PaperSize(text) else {
                throw ScriptMessageError("print: pdf: pageSize is one of \(PaperSize.names.map(\.key).joined(separator: ", ")) or WIDTHxHEIGHTmm")
            }
            settings.paperSize = paper
        }
        switch body["landscape"] {
        case nil, .null?, .bool(false)?: settings.orientation = .portrait
        case .bool(true)?: settings.orientation = .landscape
        default: throw ScriptMessageError("print: pdf: landscape must be true or false")
        }
        if let margins = body["margins"], margins != .null {
            guard let number = margins.numberValue, number == number.rounded(), PrintSettings.acceptsMargins(Int(number)) else {
                throw ScriptMessageError("print: pdf: margins is a whole number of millimetres from 0 to 100")
            }
            settings.margins = number
        }
        return settings
    }
}

/// `print`: `{"action": "dialog"}` → whether the user printed (GTK's print dialog; refused in
/// a kiosk, which shows no dialog); `{"action": "pdf", pageSize?, landscape?, margins?}` →
/// the page as PDF, its bytes as base64 text, without a dialog. Only for the window's top document:
/// what is printed is the view's page, which a frame inside it does not own.
public struct PrintStrategy: ScriptMessageStrategy {
    public static let identifier = Capability.print.rawValue
    public static let capability: Capability? = .print

    public nonisolated init() {}

    public func handle(_ message: ScriptMessage, context: ScriptMessageContext) async throws -> JSONValue {
        let command = try PrintCommand(body: message.body)
        guard let desktop = context.host.desktop else { throw ScriptMessageError.noDesktop(.print) }
        if command == .dialog, desktop.isKioskWindow { throw ScriptMessageError("print: a kiosk shows no print dialog ([printing] prints silently)") }
        guard let caller = context.caller, caller.isMainFrame else {
            throw ScriptMessageError("print: only the window's top document may print its page, not a frame inside it")
        }
        switch command {
        case .dialog:
            return .bool(try await desktop.printPage(owner: caller.token))
        case .pdf(let settings):
            return .string(Data(try await desktop.pagePDF(settings, owner: caller.token)).base64EncodedString())
        }
    }
}
