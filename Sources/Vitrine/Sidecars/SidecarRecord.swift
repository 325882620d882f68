#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One moment of a sidecar's life as its events line tells it (`ContainerEvent.sidecar`).
public struct SidecarRecord: Sendable, Equatable {
    public enum Event: String, Sendable, CaseIterable {
        case started, ready, exited, restarting, failed, stopped
    }

    public var name: String
    public var event: Event
    public var port: Int?
    public var pid: Int?
    /// Its exit status (`exited`).
    public var code: Int?
    /// The signal that ended it (`exited`).
    public var signal: Int?
    public var detail: String?

    public init(name: String, event: Event, port: Int? = nil, pid: Int? = nil, code: Int? = nil, signal: Int? = nil,
                detail: String? = nil) {
        self.name = name
        self.event = event
        self.port = port
        self.pid = pid
        self.code = code
        self.signal = signal
        self.detail = detail
    }

    /// An `exited` record of `exit`.
    public static func exited(_ name: String, _ exit: SidecarExit, pid: Int?) -> SidecarRecord {
        switch exit {
        case .code(let code): SidecarRecord(name: name, event: .exited, pid: pid, code: Int(code))
        case .signal(let signal): SidecarRecord(name: name, event: .exited, pid: pid, signal: Int(signal))
        }
    }
}

/// The records whose `detail` explains: written here, so their wording is tested as values.
extension SidecarRecord {
    /// `0.5 s`, `30 s`.
    static func seconds(_ duration: Duration) -> String {
        let seconds = duration.inSeconds
        return (seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) + " s"
    }

    /// The sidecar starts again after `pause`.
    public static func restarting(_ name: String, after pause: Duration) -> SidecarRecord {
        SidecarRecord(name: name, event: .restarting, detail: "in \(seconds(pause))")
    }

    /// The sidecar of `declaration` was not ready in time: failed.
    public static func notReady(_ declaration: SidecarDeclaration) -> SidecarRecord {
        let check = switch declaration.readiness {
        case .started: "started"
        case .port: "port"
        case .path(let path): path
        }
        return SidecarRecord(name: declaration.name, event: .failed,
                             detail: "not ready within \(seconds(declaration.readyTimeout)) (ready = \"\(check)\")")
    }

    /// The sidecar `life` tells of ended and is not started again: failed.
    public static func endedForGood(_ life: SidecarLifecycle) -> SidecarRecord {
        let name = life.declaration.name
        guard life.declaration.restart != .never, life.restarts >= life.backoff.budget else {
            return SidecarRecord(name: name, event: .failed, detail: "it ended with a failure (restart = \"\(life.declaration.restart.rawValue)\")")
        }
        return SidecarRecord(name: name, event: .failed, detail: "it ended \(life.restarts + 1) times in a row; not started again")
    }
}
