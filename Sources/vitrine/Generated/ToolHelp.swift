#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ArgumentParser

/// The commands, arguments and help ArgumentParser knows of a program (its
/// `--experimental-dump-help` JSON, ToolInfoV0), read for the manual page.
struct ToolHelp: Decodable {
    struct Command: Decodable {
        var commandName: String
        var abstract: String?
        var discussion: String?
        var shouldDisplay: Bool?
        var subcommands: [Command]?
        var arguments: [Argument]?
    }

    struct Argument: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
        }
        var kind: String
        var shouldDisplay: Bool
        var isOptional: Bool
        var isRepeating: Bool
        var names: [Name]?
        var valueName: String?
        var defaultValue: String?
        var abstract: String?
        var discussion: String?
        var allValueDescriptions: [String: String]?
        var allValues: [String]?

        var isPositional: Bool { kind == "positional" }
        var takesValue: Bool { kind != "flag" }
        /// `--width`, `-h`: every spelling, in the declaration's order.
        var spellings: [String] { (names ?? []).map { ($0.kind == "short" ? "-" : "--") + $0.name } }
    }

    var command: Command

    /// Every command shown in help, at every depth, each after its parent: its words after
    /// the program's name (`["fleet", "ls"]`; empty for the program itself).
    var shownCommands: [(path: [String], command: Command)] {
        func walk(_ command: Command, _ path: [String]) -> [(path: [String], command: Command)] {
            guard command.shouldDisplay != false else { return [] }
            return [(path, command)] + (command.subcommands ?? []).flatMap { walk($0, path + [$0.commandName]) }
        }
        return walk(command, [])
    }

    /// The help of `command`'s type (`VitrineCommand`), with its subcommands.
    static func of(_ command: any ParsableCommand.Type) throws -> ToolHelp {
        try JSONDecoder().decode(ToolHelp.self, from: Data(command._dumpHelp().utf8))
    }
}
