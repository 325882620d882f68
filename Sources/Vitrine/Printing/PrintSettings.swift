#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Silent printing (`[printing]`): where a kiosk page's `window.print()` goes, and how,
/// with no dialog. Absent, a locked-down kiosk refuses printing (`blocked-dialog print`).
public struct PrintSettings: Sendable, Equatable {
    /// A CUPS queue, the system's default queue, or a PDF file.
    public var destination: PrintDestination
    /// Nil: the printer's own default.
    public var paperSize: PaperSize?
    public var orientation: PrintOrientation = .portrait
    public var copies = 1
    /// The same margin on every side, in millimetres; nil: the page's own (`@page`) or GTK's.
    public var margins: Double?

    public init(destination: PrintDestination) {
        self.destination = destination
    }

    /// `check-config`'s warning when the printer is not among `knownQueues` (CUPS's
    /// queues on this machine; nil: they could not be listed). Only a warning: printers come
    /// and go, and a kiosk may be configured before its printer is installed.
    public func queueWarning(knownQueues: [String]?) -> String? {
        switch destination {
        case .file: return nil
        case .systemDefault:
            guard let knownQueues else { return "cannot list CUPS's printers (is cups-client installed?): printing may fail" }
            return knownQueues.isEmpty ? "CUPS has no printers here: printing to the default printer will fail until one is added" : nil
        case .printer(let queue):
            guard let knownQueues else {
                return "cannot list CUPS's printers (is cups-client installed?): printer '\(queue)' is not checked"
            }
            guard !knownQueues.contains(queue) else { return nil }
            let known = knownQueues.isEmpty ? "none" : knownQueues.joined(separator: ", ")
            return "printer '\(queue)' is not a CUPS queue here (known: \(known)): jobs will fail until it is added"
        }
    }

    /// Whether `count` can be a number of copies: the one rule files and the builder apply.
    public static func acceptsCopies(_ count: Int) -> Bool { (1...99).contains(count) }
    /// Whether `millimetres` can be a margin.
    public static func acceptsMargins(_ millimetres: Int) -> Bool { (0...100).contains(millimetres) }
}

/// Where a print job goes.
public enum PrintDestination: Sendable, Equatable {
    /// The system's default CUPS queue (`printer = "default"`).
    case systemDefault
    /// A CUPS queue by name.
    case printer(String)
    /// A PDF file, overwritten by each job (`output-uri = "file:///…"`).
    case file(URL)

    /// `"default"`, a queue's name, or a file URI: what `printer`/`output-uri` said.
    public var name: String {
        switch self {
        case .systemDefault: "default"
        case .printer(let queue): queue
        case .file(let url): url.absoluteString
        }
    }

    /// Whether `text` can name a CUPS queue: CUPS allows printable characters other than
    /// space, tab, '/', '\\', '?', '\'', '"', '#' and at most 127 bytes.
    public static func acceptsQueueName(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 127 else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            scalar.value > 0x20 && scalar.value != 0x7F && !"/\\?'\"#".unicodeScalars.contains(scalar)
        }
    }
}

/// The page's orientation on paper.
public enum PrintOrientation: String, Sendable, CaseIterable {
    case portrait, landscape
}

/// A paper size: one of a few names, or `WIDTHxHEIGHTmm` (receipt rolls, tickets).
public enum PaperSize: Sendable, Equatable {
    /// A PWG 5101.1 name as GTK knows it (`iso_a4`, `na_letter`).
    case named(String)
    case custom(widthMillimetres: Double, heightMillimetres: Double)

    /// The names a file may use, and GTK's name for each.
    public static let names: KeyValuePairs<String, String> = [
        "a3": "iso_a3", "a4": "iso_a4", "a5": "iso_a5", "a6": "iso_a6", "letter": "na_letter", "legal": "na_legal",
    ]

    /// `"a4"`, `"letter"`, `"80x200mm"`…; nil for anything else.
    public init?(_ text: String) {
        let lowered = text.lowercased()
        if let gtkName = Self.names.first(where: { $0.key == lowered })?.value {
            self = .named(gtkName)
            return
        }
        guard lowered.hasSuffix("mm") else { return nil }
        let sides = lowered.dropLast(2).split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let width = Double(sides[0]), let height = Double(sides[1]),
              (10...2000).contains(width), (10...10000).contains(height) else { return nil }
        self = .custom(widthMillimetres: width, heightMillimetres: height)
    }
}
