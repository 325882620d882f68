import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
import VitrineGTK
import VitrineTooling

/// `vitrine fleet push FILE --group G --canary N --batch P% [--halt-after F]`: a staged
/// rollout (`Rollout`) of one configuration to a group's kiosks, each through its own
/// `cmd/config`, each batch's replies awaited before the next.
struct FleetPushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Roll a configuration out to a group: canaries first, then batches; halt at the first roll-back.",
        discussion: """
            Each kiosk checks, applies and tries the configuration as for a single push (cmd/config) \
            and keeps its own [remote.mqtt] when the file has none. The rollout halts when a kiosk \
            rolls the configuration back (its start page did not load in time or crashed) or after \
            --halt-after failed pushes (refused, or no reply within --timeout); later batches never \
            receive it. Prints what went where; exit status 1 unless every online kiosk kept it.
            """)

    @OptionGroup var connection: FleetConnection

    @Argument(help: ArgumentHelp("The TOML configuration to roll out.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The group to roll out to.", valueName: "group"))
    var group: String

    @Option(help: ArgumentHelp("How many kiosks try it first, alone.", valueName: "n"))
    var canary: Int = 1

    @Option(help: ArgumentHelp("Each later batch's share of the group, such as 25%.", valueName: "percent"))
    var batch: String = "25%"

    @Option(name: .customLong("halt-after"), help: ArgumentHelp("Halt after this many failed pushes.", valueName: "n"))
    var haltAfter: Int = 1

    @Option(help: ArgumentHelp("Seconds to wait for a batch's replies (longer than the kiosks' config-trial-timeout).",
                               valueName: "seconds"))
    var timeout: Double = 60

    func validate() throws {
        try checkGroup(group)
        guard let percent = Rollout.percent(batch), (1...100).contains(percent) else {
            throw ValidationError("--batch must be a share of the group from 1% to 100%, got '\(batch)'")
        }
        guard canary >= 0 else { throw ValidationError("--canary must be 0 or more, got \(canary)") }
        guard haltAfter >= 1 else { throw ValidationError("--halt-after must be 1 or more, got \(haltAfter)") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() throws {
        guard let text = FileManager.default.contents(atPath: file) else { throw RuntimeFailure("cannot read \(file)") }
        // The kiosks' own first check, here for a clear message before anything is sent.
        if case .failure(let error) = RemoteCommand.parse(name: RemoteCommandName.config.rawValue, argument: Array(text), from: .mqtt) {
            throw RuntimeFailure("\(file): \(error)")
        }
        let client = try connection.connect()
        defer { client.close() }
        let started = ContinuousClock.now
        var rollout: Rollout
        do {
            let members = try client.members(of: group)
            rollout = try Rollout(online: members.online, offline: members.offline, canary: canary,
                                  batchPercent: Rollout.percent(batch) ?? 100, haltAfter: haltAfter)
        } catch let error as RolloutError {
            throw RuntimeFailure(error.description)
        } catch let error as FleetError {
            throw RuntimeFailure(error.description)
        }
        let topics = client.topics
        client.subscribe(topics.replies(RemoteCommandName.config.rawValue))
        var number = 0
        while let kiosks = rollout.nextBatch() {
            printToStandardError("batch \(number == 0 && canary > 0 ? "canary" : String(number)): \(kiosks.joined(separator: ", "))")
            number += 1
            for kiosk in kiosks { try client.publish(topics.kiosk(kiosk).command(RemoteCommandName.config.rawValue), Array(text)) }
            let replies = client.replies(to: .config, from: Set(kiosks), timeout: .seconds(timeout))
            for kiosk in kiosks { rollout.record(kiosk, reply: replies[kiosk]) }
        }
        print(rollout.table)
        print("in \(formatted(started.duration(to: .now))) s")
        if !rollout.succeeded { throw ExitCode.failure }
    }
}

extension FleetClient {
    /// The first reply to `command` from each of `kiosks` (subscribed to beforehand), until
    /// all have answered or `timeout` has passed; `onMessage` sees every other message.
    func replies(to command: RemoteCommandName, from kiosks: Set<String>, timeout: Duration,
                 onMessage: (FleetClient.Message) -> Void = { _ in }) -> [String: RemoteReply] {
        var replies: [String: RemoteReply] = [:]
        let deadline = ContinuousClock.now + timeout
        while replies.count < kiosks.count, let message = next(until: deadline) {
            guard let kiosk = topics.deviceID(of: message.topic, tail: "reply/\(command.rawValue)") else {
                onMessage(message)
                continue
            }
            guard kiosks.contains(kiosk), replies[kiosk] == nil, !message.retained, let reply = RemoteReply(payload: message.payload) else { continue }
            replies[kiosk] = reply
        }
        return replies
    }
}

/// Seconds with one decimal.
func formatted(_ duration: Duration) -> String {
    let tenths = Int((duration.inSeconds * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}
