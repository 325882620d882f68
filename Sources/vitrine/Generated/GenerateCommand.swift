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
    }

    @Argument(help: "config-flags | vitrine.1 | vitrine.toml.5")
    var output: Output

    func run() throws {
        switch output {
        case .configFlags: print(ConfigFlagsSource.text, terminator: "")
        case .manual: print(VitrineManual.page(try ToolHelp.of(VitrineCommand.self)), terminator: "")
        case .configManual: print(ConfigManual.page, terminator: "")
        }
    }
}
