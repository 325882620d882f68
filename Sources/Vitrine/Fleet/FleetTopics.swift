/// The topics an operator's tool (`vitrine fleet`) reads and writes: every kiosk's under
/// one prefix, and the group topics that reach many kiosks with one publish.
public struct FleetTopics: Sendable, Equatable {
    public let prefix: String

    public init(prefix: String) {
        self.prefix = prefix
    }

    /// Every kiosk's retained state.
    public var states: String { "\(prefix)/+/state" }
    /// Every kiosk's replies to `command`.
    public func replies(_ command: String) -> String { "\(prefix)/+/reply/\(command)" }
    /// Every kiosk's screenshots.
    public var screenshots: String { "\(prefix)/+/screenshot" }

    /// One kiosk's topics.
    public func kiosk(_ deviceID: String) -> MQTTTopics { MQTTTopics(prefix: prefix, deviceID: deviceID) }
    /// The topic that sends `command` to every kiosk of `group`.
    public func groupCommand(_ group: String, _ command: String) -> String {
        MQTTTopics.groupCommand(prefix: prefix, group: group, command)
    }

    /// The kiosk a topic of the form `PREFIX/ID/tail` belongs to (`tail` may have levels:
    /// `reply/config`); nil for any other topic.
    public func deviceID(of topic: String, tail: String) -> String? {
        let head = prefix + "/", end = "/" + tail
        guard topic.hasPrefix(head), topic.hasSuffix(end), topic.count > head.count + end.count else { return nil }
        let id = String(topic.dropFirst(head.count).dropLast(end.count))
        return MQTTTopics.isValid(id, allowingLevels: false) ? id : nil
    }
}
