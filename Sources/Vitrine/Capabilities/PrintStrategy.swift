#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The page printed (`print` capability).
@MainActor
public protocol PrintService: KioskAware {
    /// Shows the print dialog for the page of the top document `owner`: whether the user printed.
    func printPage(owner: FrameToken) async throws -> Bool
    /// The page of the top document `owner` as PDF, laid out by `settings`.
    func pagePDF(_ settings: PrintSettings, owner: FrameToken) async throws -> [UInt8]
}

/// What a page asks of the `print` capability, checked.
public enum PrintCommand: Sendable, Equatable {
    /// GTK's print dialog for the page: answers whether the user printed.
    case dialog
    /// The page as PDF bytes, no dialog, laid out by `options` (its destination unused).
    case pdf(PrintSettings)

    /// The largest PDF a page gets back, in bytes.
    public static let sizeLimit = 32 << 20

    public init(_ request: PrintStrategy.Request) throws(ScriptMessageError) {
        switch request {
        case .dialog: self = .dialog
        case .pdf(let pageSize, let landscape, let margins):
            self = .pdf(try Self.settings(pageSize: pageSize, landscape: landscape, margins: margins))
        }
    }

    /// `pageSize`: "a4" | "letter" | "80x200mm"…; `margins`: millimetres 0–100.
    private static func settings(pageSize: String?, landscape: Bool?, margins: Double?) throws(ScriptMessageError) -> PrintSettings {
        // The destination is the adapter's own temporary file; this one is never used.
        var settings = PrintSettings(destination: .file(URL(fileURLWithPath: "/dev/null")))
        if let pageSize {
            guard let paper = PaperSize(pageSize) else {
                throw ScriptMessageError("print: pdf: pageSize is one of \(PaperSize.names.map(\.key).joined(separator: ", ")) or WIDTHxHEIGHTmm")
            }
            settings.paperSize = paper
        }
        settings.orientation = landscape == true ? .landscape : .portrait
        if let margins {
            guard margins == margins.rounded(), PrintSettings.acceptsMargins(Int(exactly: margins) ?? -1) else {
                throw ScriptMessageError("print: pdf: margins is a whole number of millimetres from 0 to 100")
            }
            settings.margins = margins
        }
        return settings
    }
}

/// `print`: `{"action": "dialog"}` → whether the user printed (GTK's print dialog; refused in
/// a kiosk, which shows no dialog); `{"action": "pdf", pageSize?, landscape?, margins?}` →
/// the page as PDF bytes (a `Uint8Array`), without a dialog. Only for the window's top document:
/// what is printed is the view's page, which a frame inside it does not own.
public struct PrintStrategy: TypedScriptMessageStrategy {
    public static let identifier = "print"
    public static let capability: Capability? = .print

    public enum Request: ActionRequest {
        case dialog
        case pdf(pageSize: String?, landscape: Bool?, margins: Double?)
        public static let actions = ["dialog", "pdf"]
    }

    public nonisolated init() {}

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> JSONValue {
        let command = try PrintCommand(request)
        let printer = try context.service(PrintService.self, for: .print)
        if command == .dialog, printer.isKioskWindow { throw ScriptMessageError("print: a kiosk shows no print dialog ([printing] prints silently)") }
        guard let caller = context.caller, caller.isMainFrame else {
            throw ScriptMessageError("print: only the window's top document may print its page, not a frame inside it")
        }
        switch command {
        case .dialog:
            return .bool(try await printer.printPage(owner: caller.token))
        case .pdf(let settings):
            return .bytes(try await printer.pagePDF(settings, owner: caller.token))
        }
    }
}
