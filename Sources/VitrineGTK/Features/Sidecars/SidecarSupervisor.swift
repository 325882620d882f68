import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Vitrine

/// The app's sidecars (`[[sidecars]]`), app-wide: each started before the first window
/// with a free loopback port, checked for readiness, restarted by its policy, its output
/// logged (bounded), and all of them ended with the app. What happens is decided by each
/// sidecar's `SidecarLifecycle` (core); this object starts, probes, waits and kills.
@MainActor
public final class SidecarSupervisor {
    /// One declared sidecar: its state machine, its port (kept across restarts) and run.
    final class Sidecar {
        var life: SidecarLifecycle
        let port: Int
        var process: SidecarProcess?
        var output = SidecarOutput()
        /// The readiness check or the restart pause in progress.
        var pending: Task<Void, Never>?
        /// Whether a line telling of dropped output is due.
        var dropsToldSoon = false

        init(_ declaration: SidecarDeclaration, port: Int) {
            life = SidecarLifecycle(declaration)
            self.port = port
        }

        var name: String { life.declaration.name }
        var status: SidecarStatus { SidecarStatus(port: port, state: life.state) }
    }

    private(set) var sidecars: [Sidecar] = []
    private let folder: String?
    private let record: @MainActor (ContainerEvent) -> Void
    /// Sends granted pages a page event (`sidecars:ready`, `sidecars:exited`).
    private let emit: @MainActor (_ event: String, _ payload: JSONValue) -> Void
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    /// How long the app's stop waits after SIGTERM before SIGKILL.
    static let stopGrace = Duration.seconds(3)

    /// Starts `declarations` (in `folder`, the app folder) now; `record` gets their events,
    /// `emit` their page events.
    public init(_ declarations: [SidecarDeclaration], folder: String?, record: @escaping @MainActor (ContainerEvent) -> Void,
                emit: @escaping @MainActor (_ event: String, _ payload: JSONValue) -> Void) {
        self.folder = folder
        self.record = record
        self.emit = emit
        start = clock.now
        for declaration in declarations {
            let sidecar = Sidecar(declaration, port: SidecarProbe.freePort() ?? 0)
            sidecars.append(sidecar)
            launch(sidecar)
        }
    }

    private var now: Duration { clock.now - start }

    /// `name`'s port and state; nil when no sidecar has that name.
    public func status(of name: String) -> SidecarStatus? { sidecars.first { $0.name == name }?.status }
    public var names: [String] { sidecars.map(\.name) }

    private func tell(_ event: String, _ payload: JSONValue) { emit(event, payload) }

    private func launch(_ sidecar: Sidecar) {
        let declaration = sidecar.life.declaration
        guard sidecar.port > 0 else {
            sidecar.life.couldNotStart()
            record(.sidecar(SidecarRecord(name: sidecar.name, event: .failed, detail: "no free loopback port")))
            return
        }
        do {
            let process = try SidecarProcess(declaration, port: sidecar.port, folder: folder, onOutput: { [weak self, weak sidecar] stream, bytes in
                guard let self, let sidecar else { return }
                self.log(sidecar.output.append(bytes, on: stream, at: self.now), of: sidecar)
            }, onExit: { [weak self, weak sidecar] exit in
                guard let self, let sidecar else { return }
                self.ended(sidecar, exit)
            })
            sidecar.process = process
            sidecar.life.started(at: now)
            record(.sidecar(SidecarRecord(name: sidecar.name, event: .started, port: sidecar.port, pid: Int(process.pid))))
            awaitReadiness(of: sidecar)
        } catch {
            sidecar.life.couldNotStart()
            record(.sidecar(SidecarRecord(name: sidecar.name, event: .failed, detail: error.description)))
            tell("sidecars:exited", ["name": .string(sidecar.name), "state": .string(sidecar.life.state.rawValue)])
        }
    }

    /// Polls the sidecar's readiness off the main thread (a probe may wait up to a second)
    /// until it passes, its time runs out or the run ends.
    private func awaitReadiness(of sidecar: Sidecar) {
        let declaration = sidecar.life.declaration, port = sidecar.port
        let deadline = clock.now + declaration.readyTimeout
        sidecar.pending = Task { @MainActor [weak self, weak sidecar] in
            while true {
                let ready = await Task.detached { SidecarProbe.isReady(declaration.readiness, port: port) }.value
                guard let self, let sidecar, !Task.isCancelled, sidecar.life.state == .starting else { return }
                if ready {
                    if sidecar.life.becameReady() {
                        self.record(.sidecar(SidecarRecord(name: sidecar.name, event: .ready, port: port)))
                        self.tell("sidecars:ready", ["name": .string(sidecar.name), "port": .number(Double(port))])
                    }
                    return
                }
                if self.clock.now >= deadline {
                    if sidecar.life.readyTimedOut() == .kill {
                        self.record(.sidecar(.notReady(declaration)))
                        sidecar.process?.signalGroup(SIGKILL)
                    }
                    return
                }
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    /// Records `lines`; once output is being dropped, a line tells how much a second later
    /// (the next line kept would tell it too, but a flood may be the last thing printed).
    private func log(_ lines: [SidecarOutput.Line], of sidecar: Sidecar) {
        for line in lines { record(.sidecarOutput(name: sidecar.name, stream: line.stream.rawValue, line: line.text)) }
        guard sidecar.output.dropped > 0, !sidecar.dropsToldSoon else { return }
        sidecar.dropsToldSoon = true
        Task { @MainActor [weak self, weak sidecar] in
            try? await Task.sleep(for: .seconds(1))
            guard let self, let sidecar else { return }
            sidecar.dropsToldSoon = false
            self.log(sidecar.output.flushDrops().map { [SidecarOutput.Line(.stderr, $0)] } ?? [], of: sidecar)
        }
    }

    private func ended(_ sidecar: Sidecar, _ exit: SidecarExit) {
        let pid = sidecar.process.map { Int($0.pid) }
        // What it left running in its group goes with it. The group outlives its reaped leader
        // while it has members; with none left the id names no group (ESRCH).
        sidecar.process?.signalGroup(SIGKILL)
        sidecar.process = nil
        sidecar.pending?.cancel()
        log(sidecar.output.finish(at: now) + (sidecar.output.flushDrops().map { [SidecarOutput.Line(.stderr, $0)] } ?? []), of: sidecar)
        let wasLive = sidecar.life.isLive
        let step = sidecar.life.exited(exit, at: now)
        record(.sidecar(.exited(sidecar.name, exit, pid: pid)))
        let ending: (String, JSONValue) = switch exit {
        case .code(let code): ("code", .number(Double(code)))
        case .signal(let signal): ("signal", .number(Double(signal)))
        }
        tell("sidecars:exited", .object(JSONObject([("name", .string(sidecar.name)), ("state", .string(sidecar.life.state.rawValue)), ending])))
        // Failed by this end (one failed before, by its readiness, was told then).
        if wasLive, sidecar.life.state == .failed { record(.sidecar(.endedForGood(sidecar.life))) }
        guard case .restart(let pause) = step else { return }
        record(.sidecar(.restarting(sidecar.name, after: pause)))
        sidecar.pending = Task { @MainActor [weak self, weak sidecar] in
            try? await Task.sleep(for: pause)
            guard let self, let sidecar, !Task.isCancelled, sidecar.life.state == .restarting else { return }
            self.launch(sidecar)
        }
    }

    /// Ends every sidecar: SIGTERM to each one's process group, SIGKILL to those still
    /// running after `stopGrace`. Waits by reading /proc, so it works after the main loop
    /// has ended (the app's last act).
    public func stop() {
        let running = sidecars.filter { $0.process != nil }
        for sidecar in sidecars {
            sidecar.pending?.cancel()
            sidecar.life.stopping()
        }
        for sidecar in running { sidecar.process?.signalGroup(SIGTERM) }
        let deadline = clock.now + Self.stopGrace
        while clock.now < deadline, running.contains(where: { $0.process?.hasEnded == false }) { usleep(20_000) }
        for sidecar in running {
            sidecar.process?.signalGroup(SIGKILL)
            record(.sidecar(SidecarRecord(name: sidecar.name, event: .stopped, pid: sidecar.process.map { Int($0.pid) })))
        }
    }
}
