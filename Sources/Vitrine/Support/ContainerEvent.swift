import Foundation

/// Something worth auditing: a navigation decision, a script message, a load event.
public enum ContainerEvent: Sendable, Equatable {
    case navigation(url: String, handler: String, policy: NavigationPolicy, navigationType: String, target: String, phase: String)
    case message(name: String, outcome: String, error: String?)
    case load(event: String, url: String, error: String?)
    /// Native work a handler or strategy asked for: a route shown, a URL opened outside.
    case native(action: String, detail: String)

    /// The JSON object written to the events log.
    public var json: JSONValue {
        switch self {
        case let .navigation(url, handler, policy, navigationType, target, phase):
            return ["type": "navigation", "url": .string(url), "handler": .string(handler),
                    "policy": .string(policy.rawValue), "navigationType": .string(navigationType),
                    "target": .string(target), "phase": .string(phase)]
        case let .message(name, outcome, error):
            var object: [String: JSONValue] = ["type": "message", "name": .string(name), "outcome": .string(outcome)]
            if let error { object["error"] = .string(error) }
            return .object(object)
        case let .load(event, url, error):
            var object: [String: JSONValue] = ["type": "load", "event": .string(event), "url": .string(url)]
            if let error { object["error"] = .string(error) }
            return .object(object)
        case let .native(action, detail):
            return ["type": "native", "action": .string(action), "detail": .string(detail)]
        }
    }
}

/// Where events go.
@MainActor
public protocol EventSink: AnyObject {
    func record(_ event: ContainerEvent)
}

/// Keeps events in memory, for tests and for embedding programs that inspect them.
@MainActor
public final class MemoryEventLog: EventSink {
    public private(set) var events: [ContainerEvent] = []

    public init() {}

    public func record(_ event: ContainerEvent) {
        events.append(event)
    }
}

/// Appends one JSON object per line to a file (`-` for standard output), flushed at once
/// so a crash loses nothing already decided.
@MainActor
public final class JSONLinesEventLog: EventSink {
    private let handle: FileHandle

    public init(path: String) throws {
        if path == "-" {
            handle = FileHandle.standardOutput
            return
        }
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw ConfigurationError("cannot create events file '\(path)'")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw ConfigurationError("cannot open events file '\(path)' for writing")
        }
        handle.seekToEndOfFile()
        self.handle = handle
    }

    public func record(_ event: ContainerEvent) {
        handle.write(Data((event.json.jsonText + "\n").utf8))
    }
}
