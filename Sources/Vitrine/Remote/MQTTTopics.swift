/// The topics of one kiosk, all under `PREFIX/ID/`, and the command topics of the fleet
/// groups it belongs to, `PREFIX/group/NAME/cmd/COMMAND` (one publish, every member).
public struct MQTTTopics: Sendable, Equatable {
    public let prefix: String
    public let deviceID: String
    /// The groups (`[remote.mqtt] groups`) whose commands this kiosk takes as its own.
    public let groups: [String]

    public init(prefix: String, deviceID: String, groups: [String] = []) {
        self.prefix = prefix
        self.deviceID = deviceID
        self.groups = groups
    }

    public var base: String { "\(prefix)/\(deviceID)" }
    /// Retained JSON: online, url, title, display, version (and crashes, lastError).
    public var state: String { "\(base)/state" }
    /// Every events-log line.
    public var events: String { "\(base)/events" }
    /// Proof of play: each playlist item's turn as its events-log line.
    public var proofOfPlay: String { "\(base)/proof-of-play" }
    /// The PNG a `screenshot` command takes.
    public var screenshot: String { "\(base)/screenshot" }
    /// The `.tar.gz` a `support` command makes (when no upload URL is configured).
    public var support: String { "\(base)/support" }
    /// What the kiosk subscribes to: every command.
    public var commands: String { "\(base)/cmd/+" }
    public func command(_ name: String) -> String { "\(base)/cmd/\(name)" }
    /// What the kiosk subscribes to for each of its groups: every command sent to the group.
    public var groupCommands: [String] { groups.map { "\(Self.groupBase(prefix: prefix, group: $0))/cmd/+" } }
    /// The topic that sends command `name` to every kiosk of `group`.
    public static func groupCommand(prefix: String, group: String, _ name: String) -> String {
        "\(groupBase(prefix: prefix, group: group))/cmd/\(name)"
    }
    private static func groupBase(prefix: String, group: String) -> String { "\(prefix)/group/\(group)" }
    public func reply(_ name: String) -> String { "\(base)/reply/\(name)" }
    /// The reply level of a topic that names no command: `reply/unknown`.
    public static let unknownCommandReply = "unknown"

    /// The command a topic names (`…/cmd/reload` → `reload`), on the kiosk's own topics or
    /// one of its groups'; nil for any other topic (another group's among them: a broker
    /// delivers what was subscribed, but the kiosk does not rely on that).
    public func commandName(of topic: String) -> String? {
        let heads = ["\(base)/cmd/"] + groups.map { "\(Self.groupBase(prefix: prefix, group: $0))/cmd/" }
        guard let head = heads.first(where: topic.hasPrefix) else { return nil }
        let name = String(topic.dropFirst(head.count))
        return name.isEmpty || name.contains("/") ? nil : name
    }

    /// A topic level a prefix or device id may use: no wildcards, separators or controls.
    public static func isTopicLevelCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "-_.".contains(character))
    }

    /// Whether `text` is a usable topic level (device id) or a prefix of levels.
    public static func isValid(_ text: String, allowingLevels: Bool) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 128 else { return false }
        let levels = text.split(separator: "/", omittingEmptySubsequences: false)
        guard allowingLevels || levels.count == 1 else { return false }
        return levels.allSatisfy { !$0.isEmpty && $0.allSatisfy(isTopicLevelCharacter) }
    }
}
