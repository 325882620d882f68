/// Whether a server Vitrine started listens exactly where its configuration says, judged
/// from the listening sockets it holds (`TCPListener.held(byProcess:)`), read again and
/// again from its start: a server may open its sockets one after another, and a library
/// under it may add one nobody asked for (libvncserver's IPv6 socket on `[::]:5900`).
///
/// `observe` answers `.waiting` until the configured socket has been seen for `settle`, then
/// `.listening` once; any other socket at any time, or none within `timeout`, is `.refused`
/// with the reason to log. The owner stops the server on a refusal.
public struct ListenerCheck: Sendable {
    public enum Verdict: Sendable, Equatable {
        case waiting
        case listening
        case refused(String)
    }

    /// The program's name, for the reason.
    public let program: String
    public let address: IPAddress
    public let port: Int
    public let settle: Duration
    public let timeout: Duration
    private var firstSeen: Duration?

    /// Nil when `host` is no IP address (nothing could match it).
    public init?(program: String, host: String, port: Int, settle: Duration = .seconds(1), timeout: Duration = .seconds(10)) {
        guard let address = IPAddress(host) else { return nil }
        self.program = program
        self.address = address
        self.port = port
        self.settle = settle
        self.timeout = timeout
    }

    /// `ADDR:PORT` as configured.
    public var expected: String { address.withPort(port) }

    /// Judges the sockets the server holds `elapsed` after its start.
    public mutating func observe(_ listeners: [TCPListener], elapsed: Duration) -> Verdict {
        let others = listeners.filter { $0.address != address || $0.port != port }
        if !others.isEmpty {
            let names = Set(others.map(\.description)).sorted()
            let every = others.contains { $0.address.isWildcard } ? " (every address)" : ""
            return .refused("\(program) listens on \(names.joined(separator: ", "))\(every), not only on \(expected)")
        }
        if listeners.isEmpty {
            // A socket seen and then closed is a server that stopped serving.
            return elapsed >= timeout || firstSeen != nil
                ? .refused("\(program) does not listen on \(expected)\(firstSeen == nil ? " within \(timeout.components.seconds) s" : " any more")")
                : .waiting
        }
        let seen = firstSeen ?? elapsed
        firstSeen = seen
        return elapsed - seen >= settle ? .listening : .waiting
    }
}
