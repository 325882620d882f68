import Foundation
import Testing
import Vitrine

/// The MQTT remote's values: topics, commands and their payload checks, replies, the state
/// JSON, Home Assistant's discovery payloads and a pushed configuration's trial.
@Suite("MQTT: core values")
struct MQTTCoreTests {
    let topics = MQTTTopics(prefix: "vitrine", deviceID: "lobby-1")

    @Test func topicsSitUnderPrefixAndID() {
        #expect(topics.state == "vitrine/lobby-1/state")
        #expect(topics.events == "vitrine/lobby-1/events")
        #expect(topics.commands == "vitrine/lobby-1/cmd/+")
        #expect(topics.reply("navigate") == "vitrine/lobby-1/reply/navigate")
        #expect(topics.commandName(of: "vitrine/lobby-1/cmd/reload") == "reload")
        #expect(topics.commandName(of: "vitrine/lobby-2/cmd/reload") == nil)
        #expect(topics.commandName(of: "vitrine/lobby-1/cmd/a/b") == nil)
        #expect(MQTTTopics.isValid("corp/screens", allowingLevels: true))
        #expect(!MQTTTopics.isValid("corp/screens", allowingLevels: false))
        #expect(!MQTTTopics.isValid("+", allowingLevels: false) && !MQTTTopics.isValid("a//b", allowingLevels: true))
    }

    @Test func commandsAreParsedAndBadPayloadsRefused() throws {
        func parse(_ name: String, _ payload: String) -> Result<RemoteCommand, RemoteCommandError> {
            RemoteCommand.parse(name: name, argument: Array(payload.utf8), from: .mqtt)
        }
        #expect(try parse("reload", "").get() == .reload)
        #expect(try parse("navigate", " https://example.org/a \n").get() == .navigate(URL(string: "https://example.org/a")!))
        #expect(try parse("display", "OFF").get() == .display(on: false))
        #expect(try parse("config", "title = \"x\"").get() == .config("title = \"x\""))
        #expect(try parse("screenshot", "").get() == .screenshot(path: nil))
        func error(_ name: String, _ payload: [UInt8]) -> String? {
            if case .failure(let error) = RemoteCommand.parse(name: name, argument: payload, from: .mqtt) { return error.description }
            return nil
        }
        #expect(error("navigate", Array("no scheme".utf8))?.contains("absolute URL") == true)
        #expect(error("navigate", Array("https://a.example/\u{7}".utf8))?.contains("absolute URL") == true)
        #expect(error("navigate", [UInt8](repeating: 0x61, count: 8193)) == "the navigate argument is 8193 bytes; at most 8192 are accepted")
        #expect(error("config", [UInt8](repeating: 0x61, count: 256 * 1024 + 1))?.contains("at most 262144") == true)
        #expect(error("navigate", [0xff, 0xfe]) == "the navigate argument is not UTF-8 text")
        #expect(error("display", Array("dim".utf8)) == #"display takes "on" or "off", got 'dim'"#)
        #expect(error("config", Array("  \n".utf8))?.contains("empty") == true)
        #expect(error("format-disk", [])?.hasPrefix("unknown command 'format-disk'") == true)
    }

    @Test func repliesAndStateAreTheDocumentedJSON() {
        #expect(RemoteReply.success.json.jsonText == #"{"ok":true,"error":null}"#, "in the documented order")
        #expect(RemoteReply.failure("display control is not available in this build").json.jsonText == #"{"ok":false,"error":"display control is not available in this build"}"#)
        var state = KioskState(version: "1.2.3")
        state.observe(.load(event: .finished, url: "https://a.example/", error: nil))
        state.observe(.load(event: .failed, url: "https://b.example/", error: "refused"))
        state.observe(.native(action: .webProcessTerminated, detail: "crashed"))
        state.title = "A"
        #expect(state.json.jsonText
            == #"{"online":true,"url":"https://a.example/","title":"A","display":"on","version":"1.2.3","crashes":1,"lastError":"refused: https://b.example/","groups":[],"alert":null}"#)
        #expect(KioskState.offline.jsonText == #"{"online":false}"#)
        state.alert = "https://a.example/evacuate"
        state.alertUntil = 1_800_000_000
        #expect(state.json.jsonText.hasSuffix(#","alert":{"url":"https://a.example/evacuate","until":1800000000}}"#))
    }

    @Test func anotherDisplaysWindowCountsItsErrorsButNotItsAddress() {
        var state = KioskState(version: "1")
        state.observe(.load(event: .finished, url: "app://app/a.html", error: nil))
        state.observe(.load(event: .finished, url: "app://app/b.html", error: nil), ownsURL: false)
        state.observe(.load(event: .failed, url: "app://app/c.html", error: "gone"), ownsURL: false)
        state.observe(.native(action: .webProcessTerminated, detail: "killed"), ownsURL: false)
        #expect(state.url == "app://app/a.html")
        #expect(state.lastError == "gone: app://app/c.html" && state.crashes == 1)
    }

    @Test func homeAssistantDiscoveryFollowsTheSchema() throws {
        let messages = HomeAssistantDiscovery(topics: MQTTTopics(prefix: "vitrine", deviceID: "lobby.1"), version: "1.0").messages
        #expect(messages.map(\.topic) == [
            "homeassistant/button/lobby_1/reload/config", "homeassistant/button/lobby_1/home/config",
            "homeassistant/button/lobby_1/next/config", "homeassistant/text/lobby_1/navigate/config",
            "homeassistant/switch/lobby_1/display/config", "homeassistant/sensor/lobby_1/url/config",
            "homeassistant/sensor/lobby_1/crashes/config", "homeassistant/sensor/lobby_1/last_error/config",
            "homeassistant/image/lobby_1/screenshot/config",
        ])
        var uniqueIDs = Set<String>()
        for (topic, payload) in messages {
            let component = topic.split(separator: "/")[1]
            // Common to every entity: a unique id, the device, availability from the state.
            let uniqueID = try #require(payload["unique_id"]?.stringValue)
            uniqueIDs.insert(uniqueID)
            #expect(payload["name"]?.stringValue?.isEmpty == false)
            #expect(payload["device"]?["identifiers"] == .array([.string("vitrine_lobby_1")]))
            #expect(payload["device"]?["name"] == .string("lobby.1"))
            #expect(payload["availability_topic"] == .string("vitrine/lobby.1/state"))
            #expect(payload["availability_template"]?.stringValue?.contains("value_json.online") == true)
            switch component {
            case "button":
                #expect(payload["command_topic"]?.stringValue?.hasPrefix("vitrine/lobby.1/cmd/") == true)
            case "text", "switch":
                #expect(payload["command_topic"] != nil && payload["state_topic"] == .string("vitrine/lobby.1/state"))
            case "sensor":
                #expect(payload["state_topic"] == .string("vitrine/lobby.1/state") && payload["value_template"] != nil)
            case "image":
                #expect(payload["image_topic"] == .string("vitrine/lobby.1/screenshot") && payload["content_type"] == .string("image/png"))
            default:
                Issue.record("unexpected component \(component)")
            }
        }
        #expect(uniqueIDs.count == messages.count)
        let display = messages.first { $0.topic.contains("/switch/") }!.payload
        #expect(display["payload_on"] == .string("on") && display["payload_off"] == .string("off"))
        #expect(display["command_topic"] == .string("vitrine/lobby.1/cmd/display"))
    }

    @Test func aPushedConfigurationIsKeptOnlyWhenAPageTheChainAllowedLoads() {
        let start = URL(string: "http://kiosk.example/")!
        var trial = ConfigTrial(startURL: start, timeout: .seconds(5))
        func navigation(_ policy: NavigationPolicy) -> ContainerEvent {
            .navigation(url: start.absoluteString, handler: "default-allow", policy: policy, navigationType: .other, target: .currentView, phase: .request)
        }
        // A failed load, its own "finished", then the error page (no navigation decision).
        #expect(trial.observe(navigation(.allow)) == nil)
        #expect(trial.observe(.load(event: .failed, url: start.absoluteString, error: "refused")) == nil)
        #expect(trial.observe(.load(event: .finished, url: start.absoluteString, error: nil)) == nil)
        #expect(trial.observe(.load(event: .finished, url: start.absoluteString, error: nil)) == nil)
        #expect(trial.observe(navigation(.cancel)) == nil)
        #expect(trial.observe(.load(event: .finished, url: start.absoluteString, error: nil)) == nil)
        // The retry loads.
        #expect(trial.observe(navigation(.allow)) == nil)
        #expect(trial.observe(.load(event: .finished, url: start.absoluteString, error: nil)) == .keep)

        var crashing = ConfigTrial(startURL: start, timeout: .seconds(5))
        #expect(crashing.observe(.native(action: .crashLoop, detail: start.absoluteString))
            == .rollBack(reason: "the new configuration's page crashed in a loop (http://kiosk.example/)"))
        #expect(crashing.timedOutVerdict == .rollBack(reason: "the new start page http://kiosk.example/ did not load within 5.0 s"))
    }
}
