#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// One `[[sidecars]]` entry: a backend process (a local server, a model runner) started
/// before the first window and ended with the app. Made only by `declared(…)`, which checks
/// every field, so a declaration in a configuration is always one the app may run.
public struct SidecarDeclaration: Sendable, Equatable {
    /// Unique among the app's sidecars: `[a-z0-9-]{1,32}` (events, `vitrine.sidecars.get`).
    public let name: String
    /// The program, absolute, resolved (inside the app folder when written relative).
    public let command: String
    /// `command` as written when relative to the app folder (`bin/server`), which
    /// `vitrine bundle` ships; nil for an absolute command (a system program).
    public let bundledPath: String?
    public let arguments: [String]
    /// Added to Vitrine's environment (names are unique: a TOML table's keys).
    public let environment: [EnvironmentVariable]
    public let readiness: SidecarReadiness
    /// How long `readiness` may take before the sidecar counts as failed.
    public let readyTimeout: Duration
    public let restart: SidecarRestartPolicy

    public struct EnvironmentVariable: Sendable, Equatable {
        public let name: String
        public let value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The variable that carries the sidecar's port: Vitrine's to set, never the file's.
    public static let portVariable = "VITRINE_SIDECAR_PORT"
    public static let nameExpectation = "1 to 32 lowercase letters, digits or '-'"
    public static let defaultReadyTimeout = Duration.seconds(30)

    /// Whether `name` may name a sidecar.
    public static func accepts(name: String) -> Bool {
        (1...32).contains(name.utf8.count) && name.utf8.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || isDigit($0) || $0 == UInt8(ascii: "-")
        }
    }

    /// Whether `name` may name an environment variable: a letter or `_`, then letters, digits or `_`.
    public static func accepts(variable name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return name.utf8.allSatisfy { $0 == UInt8(ascii: "_") || isLetter($0) || isDigit($0) }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// A checked declaration, or the first problem with it (a message naming the field).
    /// `appFolder` is the folder of the configuration file: relative commands resolve there.
    public static func declared(name: String, command: String, arguments: [String] = [], environment: [(String, String)] = [],
                                ready: String? = nil, readyTimeout: Duration = defaultReadyTimeout,
                                restart: String? = nil, appFolder: String) throws(SidecarProblem) -> SidecarDeclaration {
        guard accepts(name: name) else { throw SidecarProblem(field: "name", "must be \(nameExpectation), got \"\(name)\"") }
        let (resolved, bundled) = try resolve(command: command, appFolder: appFolder)
        guard !arguments.contains(where: { $0.utf8.contains(0) }) else {
            throw SidecarProblem(field: "args", "an argument must not contain a NUL character")
        }
        var variables: [EnvironmentVariable] = []
        for (variable, value) in environment {
            guard accepts(variable: variable) else {
                throw SidecarProblem(field: "env", "\"\(variable)\" is not a variable name (a letter or '_', then letters, digits or '_')")
            }
            guard variable != portVariable else {
                throw SidecarProblem(field: "env", "\(portVariable) is set by Vitrine to the sidecar's port; it cannot be set here")
            }
            guard !value.utf8.contains(0) else { throw SidecarProblem(field: "env", "a value must not contain a NUL character") }
            variables.append(EnvironmentVariable(name: variable, value: value))
        }
        let readiness = try SidecarReadiness(ready)
        let policy: SidecarRestartPolicy
        if let restart {
            guard let chosen = SidecarRestartPolicy(rawValue: restart) else {
                throw SidecarProblem(field: "restart", "must be one of never, on-failure, always, got \"\(restart)\"")
            }
            policy = chosen
        } else {
            policy = .never
        }
        return SidecarDeclaration(name: name, command: resolved, bundledPath: bundled, arguments: arguments, environment: variables,
                                  readiness: readiness, readyTimeout: readyTimeout, restart: policy)
    }

    /// `command` as an absolute path, and as written when it is inside the app folder.
    /// A relative command may not climb out of the folder (`..`), nor lead out of it through
    /// a symbolic link; either must name an executable file.
    static func resolve(command: String, appFolder: String) throws(SidecarProblem) -> (String, String?) {
        guard !command.isEmpty, !command.utf8.contains(0) else { throw SidecarProblem(field: "command", "must be a program's path") }
        if command.hasPrefix("/") {
            guard isExecutableFile(command) else {
                throw SidecarProblem(field: "command", "'\(command)' is not an executable file")
            }
            return (command, nil)
        }
        let parts = command.split(separator: "/", omittingEmptySubsequences: true)
        guard !command.hasPrefix("~"), !parts.contains(".."), !parts.isEmpty else {
            throw SidecarProblem(field: "command", "'\(command)' climbs out of the app folder; name a program inside it, or an absolute path")
        }
        let folder = appFolder.hasSuffix("/") ? String(appFolder.dropLast()) : appFolder
        let path = folder + "/" + parts.joined(separator: "/")
        guard let realFolder = realPath(folder), let realProgram = realPath(path) else {
            throw SidecarProblem(field: "command", "'\(command)' does not exist in the app folder \(folder)")
        }
        guard realProgram.hasPrefix(realFolder == "/" ? "/" : realFolder + "/") else {
            throw SidecarProblem(field: "command", "'\(command)' leads out of the app folder (to \(realProgram)) through a symbolic link")
        }
        guard isExecutableFile(realProgram) else {
            throw SidecarProblem(field: "command", "'\(command)' is not an executable file (chmod +x)")
        }
        return (path, parts.joined(separator: "/"))
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && access(path, X_OK) == 0
    }
}

/// What is wrong with a sidecar's declaration: the field and why.
public struct SidecarProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let field: String
    public let reason: String

    public init(field: String, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field) \(reason)" }
}

/// When a sidecar counts as ready: at once, when its port takes a connection, or when a
/// path on it answers `GET` with a 2xx status.
public enum SidecarReadiness: Sendable, Equatable {
    case started
    case port
    case path(String)

    public static let expectation = #""port" or an HTTP path such as "/health""#

    init(_ text: String?) throws(SidecarProblem) {
        switch text {
        case nil: self = .started
        case "port"?: self = .port
        case let path? where path.hasPrefix("/") && path.count <= 256
            && !path.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0.value > 0x7E }):
            self = .path(path)
        case let other?:
            throw SidecarProblem(field: "ready", "must be \(Self.expectation) (printable ASCII, no spaces), got \"\(other)\"")
        }
    }
}

/// Whether a sidecar that ended is started again.
public enum SidecarRestartPolicy: String, Sendable, CaseIterable {
    /// Never: it stays exited.
    case never
    /// When it ended with a non-zero status or a signal.
    case onFailure = "on-failure"
    /// Whenever it ends (except when the app stops it).
    case always
}
