/// Home Assistant's MQTT discovery messages for one kiosk: retained
/// `homeassistant/<component>/<node>/<object>/config` payloads that make it a device with
/// buttons (reload, home, next), a text entity (navigate), a switch (display), sensors
/// (URL, crashes, last error) and an image (the last screenshot).
///
/// Every entity reads the kiosk's retained `state` JSON (`value_template`) and is available
/// while that says `online` — the broker's last will turns them all unavailable.
public struct HomeAssistantDiscovery: Sendable {
    public static let discoveryPrefix = "homeassistant"

    public let topics: MQTTTopics
    public let version: String

    public init(topics: MQTTTopics, version: String) {
        self.topics = topics
        self.version = version
    }

    /// Home Assistant's node id: the device id with only `[a-zA-Z0-9_-]`.
    public var nodeID: String {
        String(topics.deviceID.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "_" })
    }

    /// One entity: its component, object id and what it says beyond the common fields.
    struct Entity {
        let component: String
        let object: String
        let name: String
        let fields: [String: JSONValue]
    }

    var entities: [Entity] {
        let state = JSONValue.string(topics.state)
        func button(_ command: RemoteCommandName, _ name: String) -> Entity {
            Entity(component: "button", object: command.rawValue, name: name,
                   fields: ["command_topic": .string(topics.command(command.rawValue)), "payload_press": .string("")])
        }
        func sensor(_ object: String, _ name: String, _ field: String) -> Entity {
            Entity(component: "sensor", object: object, name: name,
                   fields: ["state_topic": state, "value_template": .string("{{ value_json.\(field) }}")])
        }
        return [
            button(.reload, "Reload"),
            button(.home, "Home"),
            button(.next, "Next page"),
            Entity(component: "text", object: RemoteCommandName.navigate.rawValue, name: "Address", fields: [
                "command_topic": .string(topics.command(RemoteCommandName.navigate.rawValue)), "state_topic": state,
                "value_template": .string("{{ value_json.url }}"), "max": .number(255),
            ]),
            Entity(component: "switch", object: RemoteCommandName.display.rawValue, name: "Display", fields: [
                "command_topic": .string(topics.command(RemoteCommandName.display.rawValue)), "state_topic": state,
                "value_template": .string("{{ value_json.display }}"),
                "payload_on": .string("on"), "payload_off": .string("off"), "state_on": .string("on"), "state_off": .string("off"),
            ]),
            sensor("url", "Current URL", "url"),
            sensor("crashes", "Crashes", "crashes").adding(["state_class": .string("total_increasing")]),
            sensor("last_error", "Last error", "lastError"),
            Entity(component: "image", object: "screenshot", name: "Screenshot",
                   fields: ["image_topic": .string(topics.screenshot), "content_type": .string("image/png")]),
        ]
    }

    /// Every discovery message: (topic, payload), to publish retained.
    public var messages: [(topic: String, payload: JSONValue)] {
        entities.map { entity in
            var payload = entity.fields
            payload["name"] = .string(entity.name)
            payload["unique_id"] = .string("vitrine_\(nodeID)_\(entity.object)")
            payload["object_id"] = .string("\(nodeID)_\(entity.object)")
            payload["availability_topic"] = .string(topics.state)
            payload["availability_template"] = .string("{{ 'online' if value_json.online else 'offline' }}")
            payload["payload_available"] = .string("online")
            payload["payload_not_available"] = .string("offline")
            payload["qos"] = .number(1)
            payload["device"] = .object([
                "identifiers": .array([.string("vitrine_\(nodeID)")]),
                "name": .string(topics.deviceID),
                "manufacturer": .string("Vitrine"),
                "model": .string("Vitrine kiosk"),
                "sw_version": .string(version),
            ])
            // Keys in a stable order: the same retained message for the same kiosk.
            let members = JSONObject(payload.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
            return ("\(Self.discoveryPrefix)/\(entity.component)/\(nodeID)/\(entity.object)/config", .object(members))
        }
    }
}

extension HomeAssistantDiscovery.Entity {
    func adding(_ more: [String: JSONValue]) -> Self {
        Self(component: component, object: object, name: name, fields: fields.merging(more) { $1 })
    }
}
