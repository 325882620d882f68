#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
import ArgumentParser

/// `vitrine generate WHAT`: writes a file that is generated from the program's declarations
/// to standard output — `make generated` keeps the committed copies, and a test that they are
/// fresh. Hidden: a tool of the source tree, not of users.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Print a file generated from the program's declarations.",
        shouldDisplay: false)

    enum Output: String, ExpressibleByArgument, CaseIterable {
        /// Sources/vitrine/ConfigFlags.swift
        case configFlags = "config-flags"
        /// packaging/man/vitrine.1
        case manual = "vitrine.1"
        /// packaging/man/vitrine.toml.5
        case configManual = "vitrine.toml.5"
        /// docs/reference/*.md
        case configurationReference = "reference/configuration.md"
        case cliReference = "reference/cli.md"
        case eventsReference = "reference/events.md"
        case mqttReference = "reference/mqtt.md"
        case metricsReference = "reference/metrics.md"
    }

    @Argument(help: ArgumentHelp("the file to generate", valueName: Output.allCases.map(\.rawValue).joined(separator: " | ")))
    var output: Output

    func run() throws {
        switch output {
        case .configFlags: print(ConfigFlagsSource.text, terminator: "")
        case .manual: print(VitrineManual.page(try ToolHelp.of(VitrineCommand.self)), terminator: "")
        case .configManual: print(ConfigManual.page, terminator: "")
        case .configurationReference: print(Reference.configuration, terminator: "")
        case .cliReference: print(Reference.cli(try ToolHelp.of(VitrineCommand.self)), terminator: "")
        case .eventsReference: print(Reference.events(schema: try Self.eventsSchema()), terminator: "")
        case .mqttReference: print(Reference.mqtt, terminator: "")
        case .metricsReference: print(MainActor.assumeIsolated { Reference.metrics }, terminator: "")
        }
    }

    /// Resources/events.schema.json, where the program finds its resources.
    private static func eventsSchema() throws -> JSONValue {
        let file = ResourceLocator().directory.appendingPathComponent("events.schema.json")
        let schema = try JSONValue(parsing: String(decoding: try Data(contentsOf: file), as: UTF8.self))
        guard schema.objectValue != nil else { throw ValidationError("\(file.path) is not a JSON object") }
        return schema
    }
}
