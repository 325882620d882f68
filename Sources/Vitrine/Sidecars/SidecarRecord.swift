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
