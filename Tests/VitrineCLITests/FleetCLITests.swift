import Foundation
import Testing
import VitrineTestSupport

/// `vitrine fleet`'s refusals before it touches a broker: wildcard groups, impossible
/// rollouts, commands that have their own subcommand, a broker that is not there. Real
/// processes, no display.
@Suite
struct FleetCLITests {
    private func fleet(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess("/usr/bin/env", ["-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", try BuiltProducts.path("vitrine"), "fleet"] + arguments,
                       timeout: 30)
    }

    @Test func wildcardGroupsAndImpossibleRolloutsAreRefusedBeforeConnecting() throws {
        let folder = try ConfigFolder()
        let file = try folder.write("new.toml", "title = \"New\"\n")
        let broker = ["--broker", "mqtt://127.0.0.1:1"]
        for group in ["+", "#", "lobby/1", "lobby/#", ""] {
            let run = try fleet(["cmd", "--group", group, "reload"] + broker)
            #expect(run.status != 0 && run.stderr.contains("--group must be one topic level"), "\(group): \(run)")
        }
        let cases: [([String], String)] = [
            (["push", file, "--group", "lobby", "--batch", "0%"] + broker, "--batch must be a share of the group from 1% to 100%, got '0%'"),
            (["push", file, "--group", "lobby", "--batch", "150%"] + broker, "--batch must be a share"),
            (["push", file, "--group", "lobby", "--halt-after", "0"] + broker, "--halt-after must be 1 or more"),
            (["push", file, "--group", "lobby", "--canary=-1"] + broker, "--canary must be 0 or more"),
            (["cmd", "--group", "lobby", "config"] + broker, "unknown command 'config'"),
            (["cmd", "--group", "lobby", "navigate", "not a url"] + broker, "absolute URL"),
            (["cmd", "--group", "lobby", "--kiosk", "k1", "reload"] + broker, "name either --group or --kiosk"),
            (["ls", "--broker", "http://x"], "--broker must be mqtt://"),
            (["ls"], "name the broker"),
        ]
        for (arguments, message) in cases {
            let run = try fleet(arguments)
            #expect(run.status != 0 && run.stderr.contains(message), "\(arguments): \(run)")
        }
    }

    @Test func aBrokerThatIsNotThereIsAClearErrorNotAHang() throws {
        let run = try fleet(["ls", "--broker", "mqtt://127.0.0.1:1"])
        #expect(run.status == 1 && run.stderr.contains("could not connect to mqtt://127.0.0.1:1 within 10"), "\(run)")
    }
}
