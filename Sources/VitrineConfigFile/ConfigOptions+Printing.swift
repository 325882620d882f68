#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

extension ConfigOptions {
    /// `[printing]`: silent printing to a CUPS queue or a PDF file.
    static let printing: [ConfigOption] = [
        ConfigOption.section("printing", "silent printing: a page's print() goes to this printer or file, with no dialog") {
            $0.printing()
        }.summarized(as: "printing") { configuration, _ in
            configuration.printing.map { settings in
                let target = switch settings.destination {
                case .systemDefault: "the default printer"
                case .printer(let queue): "printer \(queue)"
                case .file(let uri): uri.path
                }
                return "silent, to \(target)" + (settings.copies > 1 ? ", \(settings.copies) copies" : "")
            }
        }.printable { Printed.bool($0.printing != nil) },
        ConfigOption.string("printing.printer", .string(
            expected: #"a CUPS queue name such as "Tickets", or "default" (the system's default queue)"#,
            refusal: "be a CUPS queue name", where: PrintDestination.acceptsQueueName),
            #"the CUPS queue jobs go to ("default": the system's default queue)"#
        ) { configurator, queue in
            configurator.printDestination(queue == "default" ? .systemDefault : .printer(queue))
        }.example(#""Tickets""#)
            .printable { $0.printing.flatMap { Printed.queue($0.destination) } },
        // A push may not point the kiosk's writes at another of its files.
        ConfigOption.url("printing.output-uri", .url,
                         "print to this PDF file instead (file:///PATH.pdf, overwritten by each job; no symbolic links on the way)") {
            $0.printDestination(.file($1))
        }.example(#""file:///tmp/receipt.pdf""#).localOnly()
            .printable { $0.printing.flatMap { if case .file(let uri) = $0.destination { uri.absoluteString } else { nil } } },
        ConfigOption.string("printing.paper-size", .string(
            expected: #"a4, a3, a5, a6, letter, legal, or WIDTHxHEIGHTmm such as "80x200mm""#,
            refusal: "be a paper size") { PaperSize($0) != nil },
            "the paper: a4, a3, a5, a6, letter, legal, or WIDTHxHEIGHTmm (receipt rolls; default: the printer's)"
        ) { configurator, text in
            configurator.printing { $0.paperSize = PaperSize(text) }
        }.example(#""a4""#).printable { $0.printing?.paperSize.map(Printed.paperSize) },
        ConfigOption.string("printing.orientation", .choice(PrintOrientation.allCases.map(\.rawValue)), "portrait or landscape") {
            configurator, text in configurator.printing { $0.orientation = PrintOrientation(rawValue: text) ?? .portrait }
        }.printable { $0.printing?.orientation.rawValue },
        ConfigOption.integer("printing.copies", .integer(expected: "an integer from 1 to 99", refusal: "be from 1 to 99",
                                             where: PrintSettings.acceptsCopies), "copies of each job (default 1)") {
            configurator, copies in configurator.printing { $0.copies = copies }
        }.printable { $0.printing.map { String($0.copies) } },
        ConfigOption.integer("printing.margins", .integer(expected: "millimetres from 0 to 100", refusal: "be from 0 to 100 (millimetres)",
                                              where: PrintSettings.acceptsMargins),
                 "the margin on every side, in millimetres (default: the printer's)") {
            configurator, millimetres in configurator.printing { $0.margins = Double(millimetres) }
        }.printable { $0.printing?.margins.map(Printed.millimetres) },
    ]
}
