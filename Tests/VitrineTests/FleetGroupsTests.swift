import Foundation
import Testing
import Vitrine
@testable import VitrineConfigFile
import VitrineTestSupport

/// `[remote.mqtt] groups`: the names a kiosk takes group commands for, their topics, the
/// state that lists them, and a pushed file that leaves each kiosk its own `[remote.mqtt]`
/// (display-free).
@Suite("Fleet: groups")
struct FleetGroupsTests {
    let topics = MQTTTopics(prefix: "corp/screens", deviceID: "lobby-1", groups: ["lobby", "floor-2"])

    @Test func aKioskTakesCommandsOfItsOwnGroupsOnly() {
        #expect(topics.groupCommands == ["corp/screens/group/lobby/cmd/+", "corp/screens/group/floor-2/cmd/+"])
        #expect(topics.commandName(of: "corp/screens/group/lobby/cmd/reload") == "reload")
        #expect(topics.commandName(of: "corp/screens/group/floor-2/cmd/navigate") == "navigate")
        #expect(topics.commandName(of: "corp/screens/lobby-1/cmd/home") == "home")
        // Another group, a group's deeper level, a group named like a prefix of ours.
        #expect(topics.commandName(of: "corp/screens/group/kitchen/cmd/reload") == nil)
        #expect(topics.commandName(of: "corp/screens/group/lobby/cmd/a/b") == nil)
        #expect(topics.commandName(of: "corp/screens/group/lob/cmd/reload") == nil)
        #expect(topics.commandName(of: "corp/screens/group/lobby/cmd/") == nil)
        #expect(MQTTTopics.groupCommand(prefix: "vitrine", group: "lobby", "reload") == "vitrine/group/lobby/cmd/reload")
        #expect(MQTTTopics(prefix: "vitrine", deviceID: "a").groupCommands.isEmpty)
    }

    @Test func groupsAreReadAndListedInTheState() throws {
        let configuration = try ConfigFile(text: "[remote.mqtt]\nbroker = \"mqtt://127.0.0.1\"\ngroups = [\"lobby\", \"floor-2\"]\n",
                                           path: "/tmp/g.toml").configuration()
        #expect(configuration.mqtt?.groups == ["lobby", "floor-2"])
        #expect(configuration.mqtt?.topics.groupCommands.count == 2)
        #expect(ConfigFile.summary(of: configuration, preset: .default).first { $0.0 == "mqtt" }?.1.contains("groups lobby, floor-2") == true)
        let state = KioskState(version: "1", groups: ["lobby", "floor-2"])
        #expect(state.json["groups"] == .array(["lobby", "floor-2"]))
    }

    @Test func groupNamesThatAreNoSingleTopicLevelAreRefused() throws {
        let folder = try ConfigFolder()
        let found = configurationErrors("""
            [remote.mqtt]
            broker = "mqtt://127.0.0.1"
            groups = ["lobby", "+", "floor/2", "#", "", "lobby", "ok"]
            """, named: "g.toml", in: folder)
        #expect(found == [
            #"DIR/g.toml:3:20: remote.mqtt.groups[1] must be one topic level of letters, digits, '-', '_' or '.', got "+""#,
            #"DIR/g.toml:3:25: remote.mqtt.groups[2] must be one topic level of letters, digits, '-', '_' or '.', got "floor/2""#,
            ##"DIR/g.toml:3:36: remote.mqtt.groups[3] must be one topic level of letters, digits, '-', '_' or '.', got "#""##,
            #"DIR/g.toml:3:41: remote.mqtt.groups[4] must be one topic level of letters, digits, '-', '_' or '.', got """#,
        ], "\(found)")
        let repeated = configurationErrors("[remote.mqtt]\nbroker = \"mqtt://m\"\ngroups = [\"a\", \"b\", \"a\"]\n", named: "r.toml", in: folder)
        #expect(repeated == [#"DIR/r.toml:3:21: remote.mqtt.groups[2] repeats "a""#], "\(repeated)")
        let notArray = configurationErrors("[remote.mqtt]\nbroker = \"mqtt://m\"\ngroups = \"lobby\"\n", named: "s.toml", in: folder)
        #expect(notArray.count == 1 && notArray[0].contains("remote.mqtt.groups must be an array of strings"), "\(notArray)")
    }

    @Test func aPushWithoutRemoteMQTTKeepsTheKiosksOwn() throws {
        let folder = try ConfigFolder()
        try folder.write("mqtt.pass", "secret")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder.path + "/mqtt.pass")
        let running = """
            start-url = "https://old.example/"
            [remote.mqtt]
            broker = "mqtt://127.0.0.1"
            device-id = "lobby-1"
            username = "kiosk"
            password-file = "mqtt.pass"
            groups = ["lobby"]
            """
        let pushed = "# fleet file\nstart-url = \"https://new.example/\"\n"
        let completed = ConfigFile.keepingRemoteMQTT(of: running, in: pushed)
        #expect(completed.hasPrefix(pushed), "the pushed text stays as sent, at its positions")
        let path = folder.path + "/kiosk.toml"
        // A kept password file is no new local path.
        try ConfigFile.checkPush(completed, replacing: running, at: path)
        let configuration = try ConfigFile(text: completed, path: path).configuration()
        let runningConfiguration = try ConfigFile(text: running, path: path).configuration()
        #expect(configuration.mqtt == runningConfiguration.mqtt && configuration.mqtt?.password == "secret")
        #expect(configuration.startURL?.absoluteString == "https://new.example/")
        // A push with its own [remote.mqtt], one that is not TOML, or a kiosk without one: as sent.
        let own = "[remote.mqtt]\nbroker = \"mqtt://other\"\n"
        #expect(ConfigFile.keepingRemoteMQTT(of: running, in: own) == own)
        #expect(ConfigFile.keepingRemoteMQTT(of: running, in: "start-url = ") == "start-url = ")
        #expect(ConfigFile.keepingRemoteMQTT(of: nil, in: pushed) == pushed)
        // Beside a [remote] table of the push's own, the result is still one valid file.
        let withRemote = ConfigFile.keepingRemoteMQTT(of: running, in: pushed + "[remote]\n")
        #expect(try ConfigFile(text: withRemote, path: path).configuration().mqtt == runningConfiguration.mqtt, "\(withRemote)")
        // Completed or not, a push naming a local file is still refused.
        let stealing = pushed + "[metrics]\ntextfile = \"/root/.bashrc.prom\"\n"
        #expect(throws: ConfigFileError.self) {
            try ConfigFile.checkPush(ConfigFile.keepingRemoteMQTT(of: running, in: stealing), replacing: running, at: path)
        }
    }
}
