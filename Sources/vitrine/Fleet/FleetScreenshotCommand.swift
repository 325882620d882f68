import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
import VitrineGTK
import VitrineTooling

/// `vitrine fleet screenshot --group G DIR`: one `cmd/screenshot` on the group's topic;
/// each member's PNG written to `DIR/ID.png`.
struct FleetScreenshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screenshot",
        abstract: "Take a screenshot of every kiosk of a group, into DIR/ID.png.")

    @OptionGroup var connection: FleetConnection

    @Option(help: ArgumentHelp("The group.", valueName: "group"))
    var group: String

    @Argument(help: ArgumentHelp("The folder the PNGs go to (made if missing).", valueName: "dir"))
    var folder: String

    @Option(help: ArgumentHelp("Seconds to wait for the screenshots.", valueName: "seconds"))
    var timeout: Double = 20

    func validate() throws {
        try checkGroup(group)
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let client = try connection.connect()
        defer { client.close() }
        let topics = client.topics
        let (online, offline) = try client.members(of: group)
        let members = Set(online)
        client.subscribe(topics.screenshots)
        client.subscribe(topics.replies(RemoteCommandName.screenshot.rawValue))
        try client.publish(topics.groupCommand(group, RemoteCommandName.screenshot.rawValue), [])
        // A kiosk publishes its PNG, then its reply: a PNG counts once its reply says ok.
        var written: [String: String] = [:]
        let replies = client.replies(to: .screenshot, from: members, timeout: .seconds(timeout)) { message in
            guard let kiosk = topics.deviceID(of: message.topic, tail: "screenshot"), members.contains(kiosk), !message.retained,
                  message.payload.starts(with: [0x89, 0x50, 0x4E, 0x47])
            else { return }
            let path = folder + "/" + kiosk + ".png"
            if (try? Data(message.payload).write(to: URL(fileURLWithPath: path), options: .atomic)) != nil { written[kiosk] = path }
        }
        let rows = online.map { kiosk -> [String] in
            switch (replies[kiosk], written[kiosk]) {
            case (let reply?, let path?) where reply.ok: [kiosk, "ok", path]
            case (let reply?, _) where !reply.ok: [kiosk, "failed", reply.error ?? ""]
            default: [kiosk, "no screenshot", ""]
            }
        } + offline.map { [$0, "offline", "not sent"] }
        print(TextTable.render(header: ["KIOSK", "RESULT", "FILE"], rows: rows))
        if online.contains(where: { replies[$0]?.ok != true || written[$0] == nil }) { throw ExitCode.failure }
    }
}
