#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the fatal-signal handler writes into `ReportLog.fatalFile` as the program dies: one
/// line `signal NUMBER SECONDS` (the signal, then the time since 1970), written with
/// async-signal-safe calls only, so it carries nothing a dying process cannot format.
public struct FatalSignalRecord: Sendable, Equatable {
    /// The signals the handler catches, by number and name.
    public static let signals: [(number: Int32, name: String)] = [
        (4, "SIGILL"), (6, "SIGABRT"), (7, "SIGBUS"), (8, "SIGFPE"), (11, "SIGSEGV"),
    ]

    public let signal: Int32
    public let seconds: Int

    public init(signal: Int32, seconds: Int) {
        self.signal = signal
        self.seconds = seconds
    }

    /// A handler's line; nil for anything else (a torn last line, a caught signal it does not name).
    public init?(line: String) {
        let fields = line.split(separator: " ")
        guard fields.count == 3, fields[0] == "signal", let number = Int32(fields[1]), let seconds = Int(fields[2]),
              Self.signals.contains(where: { $0.number == number }), seconds >= 0 else { return nil }
        self.init(signal: number, seconds: seconds)
    }

    public var line: String { "signal \(signal) \(seconds)" }

    public var name: String { Self.signals.first { $0.number == signal }?.name ?? "signal \(signal)" }

    public func report(app: String) -> ErrorReport {
        ErrorReport(kind: .fatalSignal, app: app, message: "Vitrine died of \(name) (signal \(signal))",
                    time: Date(timeIntervalSince1970: Double(seconds)))
    }
}
