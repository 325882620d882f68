/// The topics of one kiosk, all under `PREFIX/ID/`.
public struct MQTTTopics: Sendable, Equatable {
    public let prefix: String
    public let deviceID: String

    public init(prefix: String, deviceID: String) {
        self.prefix = prefix
        self.deviceID = deviceID
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
    /// What the kiosk subscribes to: every command.
    public var commands: String { "\(base)/cmd/+" }
    public func command(_ name: String) -> String { "\(base)/cmd/\(name)" }
    public func reply(_ name: String) -> String { "\(base)/reply/\(name)" }
    /// The reply level of a topic that names no command: `reply/unknown`.
    public static let unknownCommandReply = "unknown"

    /// The command a topic names (`…/cmd/reload` → `reload`), nil for any other topic.
    public func commandName(of topic: String) -> String? {
        let head = "\(base)/cmd/"
        guard topic.hasPrefix(head) else { return nil }
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
