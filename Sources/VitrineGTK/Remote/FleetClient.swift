#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CMosquitto
import Dispatch
import Glibc
import Synchronization
import Vitrine

/// An operator's connection to a fleet's broker (`vitrine fleet`): the kiosk's own
/// session code and `[remote.mqtt]` settings (broker, credentials, CAs, topic prefix), under
/// a client id of its own and without a last will. Its calls block until a deadline: it
/// serves a command-line tool, which has no main loop.
///
/// Ownership: it holds the session and stops it in `close()` or deinit; the session's
/// reports go to an inbox both share, so a report after the client is gone is dropped.
public final class FleetClient: @unchecked Sendable {
    public struct Message: Sendable, Equatable {
        public let topic: String
        public let payload: [UInt8]
        public let retained: Bool
    }

    /// What the session's loop thread hands over, in order.
    private final class Inbox: Sendable {
        let reports = Mutex<[MosquittoSession.Report]>([])
        let arrived = DispatchSemaphore(value: 0)

        func take(until deadline: ContinuousClock.Instant) -> MosquittoSession.Report? {
            while true {
                if let report = reports.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return report }
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { return nil }
                let nanoseconds = left.components.seconds * 1_000_000_000 + left.components.attoseconds / 1_000_000_000
                _ = arrived.wait(timeout: .now() + .nanoseconds(Int(min(nanoseconds, 3_600_000_000_000))))
            }
        }
    }

    public let topics: FleetTopics
    private let settings: MQTTSettings
    private let session: MosquittoSession
    private let inbox: Inbox
    /// Subscriptions made again after a reconnection (the session is a clean one).
    private let patterns = Mutex<[String]>([])
    private let closed = Atomic<Bool>(false)

    public init(settings: MQTTSettings) throws {
        self.settings = settings
        topics = FleetTopics(prefix: settings.topicPrefix)
        let inbox = Inbox()
        self.inbox = inbox
        do {
            session = try MosquittoSession(settings: settings, clientID: "vitrine-fleet-\(getpid())-\(UInt32.random(in: 0...UInt32.max))",
                                           will: nil) { report in
                inbox.reports.withLock { $0.append(report) }
                inbox.arrived.signal()
            }
        } catch let error as RemoteControlError {
            throw FleetError(error.description)
        }
    }

    /// Connects; throws when the broker has not accepted the connection within `timeout`.
    public func connect(timeout: Duration) throws {
        session.start()
        let deadline = ContinuousClock.now + timeout
        var lastCode: Int32?
        while let report = inbox.take(until: deadline) {
            switch report {
            case .connected: return
            case .disconnected(let code): lastCode = code
            default: break
            }
        }
        let why = lastCode.map { " (\(String(cString: mosquitto_connack_string($0))))" } ?? ""
        throw FleetError("could not connect to \(settings.broker) within \(timeout.inSeconds) s\(why)")
    }

    public func subscribe(_ pattern: String) {
        patterns.withLock { $0.append(pattern) }
        session.subscribe(pattern)
    }

    /// Publishes `payload` on `topic` (QoS 1, never retained: a retained command is refused).
    public func publish(_ topic: String, _ payload: [UInt8]) throws {
        guard session.publish(topic, payload, retain: false) else { throw FleetError("could not publish on \(topic)") }
    }

    /// The next message, or nil once `deadline` has passed.
    public func next(until deadline: ContinuousClock.Instant) -> Message? {
        while let report = inbox.take(until: deadline) {
            switch report {
            case .message(let topic, let payload, let retained):
                return Message(topic: topic, payload: payload, retained: retained)
            case .connected:
                for pattern in patterns.withLock({ $0 }) { session.subscribe(pattern) }
            case .disconnected, .published:
                break
            }
        }
        return nil
    }

    /// Every kiosk's retained state. A subscriber is sent the retained messages before
    /// anything published after it subscribed, so the end of them is a probe the client
    /// publishes to itself; throws when even the probe did not come back in `timeout`.
    public func kiosks(timeout: Duration) throws -> [FleetKiosk] {
        let probe = "\(topics.prefix)/vitrine-fleet-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        subscribe(topics.states)
        subscribe(probe)
        try publish(probe, [])
        let deadline = ContinuousClock.now + timeout
        var states: [String: FleetKiosk] = [:]
        while let message = next(until: deadline) {
            if message.topic == probe { return states.values.sorted { $0.id < $1.id } }
            if let id = topics.deviceID(of: message.topic, tail: "state"), let kiosk = FleetKiosk(id: id, statePayload: message.payload) {
                states[id] = kiosk
            }
        }
        throw FleetError("the broker did not answer within \(timeout.inSeconds) s")
    }

    /// Disconnects (no last will: the tool is no kiosk).
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        session.stop()
    }

    deinit {
        close()
    }
}
