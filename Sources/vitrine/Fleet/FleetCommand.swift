import ArgumentParser

/// `vitrine fleet`: an operator's view of the kiosks on one MQTT broker, and staged
/// changes to them. Every subcommand connects as the kiosks do (`FleetConnection`).
struct FleetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "See and drive the kiosks on an MQTT broker: list them, roll out a configuration, send commands, take screenshots.",
        discussion: """
            The broker, credentials and topic prefix come from the [remote.mqtt] section of a \
            configuration file (--config, the same keys a kiosk has) or from --broker. A group \
            is a name in the kiosks' [remote.mqtt] groups; their retained state says which \
            groups they are in.
            """,
        subcommands: [FleetListCommand.self, FleetPushCommand.self, FleetSendCommand.self, FleetScreenshotCommand.self])
}
