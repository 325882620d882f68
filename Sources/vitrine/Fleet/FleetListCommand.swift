import ArgumentParser
import Vitrine
import VitrineGTK
import VitrineTooling

/// `vitrine fleet ls [--group G]`: every kiosk's retained state.
struct FleetListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the kiosks (their retained state): online or offline, version, groups, page, last error.")

    @OptionGroup var connection: FleetConnection

    @Option(help: ArgumentHelp("Only the kiosks of this group.", valueName: "group"))
    var group: String?

    func validate() throws {
        if let group { try checkGroup(group) }
    }

    func run() throws {
        let client = try connection.connect()
        defer { client.close() }
        let kiosks: [FleetKiosk]
        do {
            kiosks = FleetKiosk.members(of: group, in: try client.kiosks(timeout: .seconds(10)))
        } catch let error as FleetError {
            throw RuntimeFailure(error.description)
        }
        print(FleetKiosk.table(kiosks))
    }
}
