import ArgumentParser
import Vitrine
import VitrineGTK
import VitrineTooling

/// `vitrine fleet cmd --group G reload|home|next|navigate URL|display on|off`: one publish on
/// the group's topic (the broker fans it out), every member's reply collected. `--kiosk ID`
/// sends to one kiosk's own topic instead.
struct FleetSendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cmd",
        abstract: "Send a command to every kiosk of a group (one publish on its group topic) and show their replies.",
        discussion: "Commands: \(synopsis). A configuration goes out with 'fleet push', screenshots with 'fleet screenshot'.")

    /// `reload, home, next, navigate URL, display on|off`.
    static var synopsis: String {
        commands.map { command in command.argument.valueName.map { "\(command.rawValue) \($0)" } ?? command.rawValue }.joined(separator: ", ")
    }

    /// What MQTT carries but a configuration and a screenshot, which have their own subcommands.
    static var commands: [RemoteCommandName] { RemoteCommandName.carried(by: .mqtt).filter { $0 != .config && $0 != .screenshot } }

    @OptionGroup var connection: FleetConnection

    @Option(help: ArgumentHelp("The group to send to.", valueName: "group"))
    var group: String?

    @Option(help: ArgumentHelp("One kiosk to send to, on its own topic, instead of a group.", valueName: "id"))
    var kiosk: String?

    @Argument(help: ArgumentHelp("The command.", valueName: "command"))
    var command: String

    @Argument(help: ArgumentHelp("Its argument (a URL for navigate, on or off for display).", valueName: "argument"))
    var argument: String?

    @Option(help: ArgumentHelp("Seconds to wait for the replies.", valueName: "seconds"))
    var timeout: Double = 10

    func validate() throws {
        guard (group == nil) != (kiosk == nil) else { throw ValidationError("name either --group or --kiosk") }
        if let group { try checkGroup(group) }
        if let kiosk, !MQTTTopics.isValid(kiosk, allowingLevels: false) { throw ValidationError("--kiosk must be one topic level, got '\(kiosk)'") }
        guard let name = RemoteCommandName(rawValue: command), Self.commands.contains(name) else {
            throw ValidationError("unknown command '\(command)'; expected one of: \(Self.commands.map(\.rawValue).joined(separator: ", "))")
        }
        if case .failure(let error) = RemoteCommand.parse(name: command, argument: Array((argument ?? "").utf8), from: .mqtt) {
            throw ValidationError(error.description)
        }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() throws {
        let name = RemoteCommandName(rawValue: command)!
        let client = try connection.connect()
        defer { client.close() }
        let topics = client.topics
        let members: (online: [String], offline: [String])
        let topic: String
        if let group {
            members = try client.members(of: group)
            topic = topics.groupCommand(group, command)
        } else {
            members = ([kiosk!], [])
            topic = topics.kiosk(kiosk!).command(command)
        }
        let expected = members.online, offline = members.offline
        client.subscribe(topics.replies(command))
        let started = ContinuousClock.now
        try client.publish(topic, Array((argument ?? "").utf8))
        let replies = client.replies(to: name, from: Set(expected), timeout: .seconds(timeout))
        let rows = expected.map { kiosk in
            [kiosk] + (replies[kiosk].map { $0.ok ? ["ok", ""] : ["failed", $0.error ?? ""] } ?? ["no reply", ""])
        } + offline.map { [$0, "offline", "not sent"] }
        print(TextTable.render(header: ["KIOSK", "RESULT", "DETAIL"], rows: rows))
        print("\(replies.count) of \(expected.count) replied in \(formatted(started.duration(to: .now))) s")
        if replies.count < expected.count || replies.values.contains(where: { !$0.ok }) { throw ExitCode.failure }
    }
}
