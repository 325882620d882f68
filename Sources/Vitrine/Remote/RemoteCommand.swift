#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a remote asks a kiosk to do, whether through the session bus (`vitrine ctl`) or
/// an MQTT broker (`PREFIX/ID/cmd/NAME`). The commands are declared in `RemoteCommandName`;
/// `parse` checks every argument the same way for every transport: a bad one is an error
/// to answer, never a crash.
public enum RemoteCommand: Sendable, Equatable {
    case reload
    case home
    /// The playlist's next page (issue 14).
    case next
    /// Goes through the kiosk's navigation chain.
    case navigate(URL)
    /// Over MQTT the PNG is published on `screenshot` (no path); over the bus it is written to `path`.
    case screenshot(path: String?)
    case display(on: Bool)
    /// Ends the program as SIGTERM does (the session bus only).
    case quit
    /// A whole TOML configuration to check, apply and keep or roll back.
    case config(String)
    /// A support bundle: over the bus written to `path` (created, never replaced); over
    /// MQTT (no path) published on `support` or uploaded to `[remote] support-upload`.
    case support(path: String?)
    /// An alert page over every display and the schedule, for so many seconds.
    case alert(url: URL, seconds: Int)
    /// Ends the alert shown.
    case alertClear

    public var name: RemoteCommandName {
        switch self {
        case .reload: .reload
        case .home: .home
        case .next: .next
        case .navigate: .navigate
        case .screenshot: .screenshot
        case .display: .display
        case .quit: .quit
        case .config: .config
        case .support: .support
        case .alert: .alert
        case .alertClear: .alertClear
        }
    }

    /// The command `name` with `argument` (an MQTT payload, a D-Bus string, `vitrine ctl`'s
    /// argument) as it came over `transport`, or why it is refused.
    public static func parse(name: String, argument: [UInt8], from transport: RemoteTransport) -> Result<RemoteCommand, RemoteCommandError> {
        guard let command = RemoteCommandName(name, on: transport) else {
            let known = RemoteCommandName.carried(by: transport).map(\.rawValue).joined(separator: ", ")
            return .failure(RemoteCommandError("unknown command '\(quoted(name, 64))'; expected one of: \(known)"))
        }
        let limit = command.argumentLimit
        guard argument.count <= limit else {
            return .failure(RemoteCommandError("the \(command.rawValue) argument is \(argument.count) bytes; at most \(limit) are accepted"))
        }
        guard let text = String(validating: argument, as: UTF8.self), !text.unicodeScalars.contains("\0") else {
            return .failure(RemoteCommandError("the \(command.rawValue) argument is not UTF-8 text"))
        }
        let trimmed = text.trimmingWhitespace
        switch command {
        case .reload: return nothing(trimmed, command).map { .reload }
        case .home: return nothing(trimmed, command).map { .home }
        case .next: return nothing(trimmed, command).map { .next }
        case .quit: return nothing(trimmed, command).map { .quit }
        case .alertClear: return nothing(trimmed, command).map { .alertClear }
        case .alert: return parseAlert(trimmed)
        case .navigate: return navigate(trimmed).map { .navigate($0) }
        case .display: return onOff(trimmed).map { .display(on: $0) }
        case .screenshot: return pngFile(trimmed, transport).map { .screenshot(path: $0) }
        case .support: return bundleFile(trimmed, transport).map { .support(path: $0) }
        case .config:
            guard !trimmed.isEmpty else { return .failure(RemoteCommandError("the config argument is empty; send a whole TOML configuration")) }
            return .success(.config(text))
        }
    }

    /// An absolute URL with a scheme and no spaces or control characters.
    public static func navigate(_ text: String) -> Result<URL, RemoteCommandError> {
        guard !text.isEmpty, !text.unicodeScalars.contains(where: isControlOrSpace),
              let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty
        else {
            return .failure(RemoteCommandError("navigate takes an absolute URL such as https://example.org/, got '\(quoted(text, 200))'"))
        }
        return .success(url)
    }

    /// `{"url": "https://…", "seconds": 60}`: the URL as `navigate` takes it, whole seconds
    /// from 1 to `SignageAlert.longestSeconds`, no other key.
    public static func parseAlert(_ text: String) -> Result<RemoteCommand, RemoteCommandError> {
        let usage = #"alert takes {"url": "https://…", "seconds": N} with N from 1 to \#(SignageAlert.longestSeconds)"#
        guard let json = try? JSONValue(parsing: text), case .object(let object) = json else {
            return .failure(RemoteCommandError("\(usage), got '\(quoted(text, 200))'"))
        }
        guard Set(object.keys).isSubset(of: ["url", "seconds"]), let urlText = object["url"]?.stringValue,
              case .number(let number)? = object["seconds"]
        else {
            return .failure(RemoteCommandError("\(usage), got '\(quoted(text, 200))'"))
        }
        guard number.rounded() == number, let seconds = Int(exactly: number), SignageAlert.acceptsSeconds(seconds) else {
            return .failure(RemoteCommandError("an alert lasts 1 to \(SignageAlert.longestSeconds) whole seconds (a day at most), got \(number)"))
        }
        return navigate(urlText).map { .alert(url: $0, seconds: seconds) }
    }

    /// The argument `alert` takes, as `vitrine ctl alert URL --for DURATION` writes it.
    public static func alertArgument(url: String, seconds: Int) -> String {
        JSONValue.object(["url": .string(url), "seconds": .number(Double(seconds))]).jsonText
    }

    private static func nothing(_ text: String, _ command: RemoteCommandName) -> Result<Void, RemoteCommandError> {
        text.isEmpty ? .success(()) : .failure(RemoteCommandError("\(command.rawValue) takes no argument, got '\(quoted(text, 64))'"))
    }

    private static func onOff(_ text: String) -> Result<Bool, RemoteCommandError> {
        switch text.lowercased() {
        case "on": .success(true)
        case "off": .success(false)
        default: .failure(RemoteCommandError(#"display takes "on" or "off", got '\#(quoted(text, 64))'"#))
        }
    }

    /// A file only the session's own user may name; over MQTT the kiosk picks its own.
    private static func pngFile(_ text: String, _ transport: RemoteTransport) -> Result<String?, RemoteCommandError> {
        switch transport {
        case .mqtt:
            return text.isEmpty ? .success(nil)
                : .failure(RemoteCommandError("screenshot takes no argument over MQTT (the PNG is published on the screenshot topic), got '\(quoted(text, 64))'"))
        case .sessionBus:
            guard text.hasPrefix("/"), text.lowercased().hasSuffix(".png"), !text.unicodeScalars.contains(where: isControl) else {
                return .failure(RemoteCommandError("screenshot takes an absolute path ending in .png, got '\(quoted(text, 200))'"))
            }
            return .success(text)
        }
    }

    /// Like `pngFile`: only the session's own user names a file.
    private static func bundleFile(_ text: String, _ transport: RemoteTransport) -> Result<String?, RemoteCommandError> {
        switch transport {
        case .mqtt:
            return text.isEmpty ? .success(nil)
                : .failure(RemoteCommandError("support takes no argument over MQTT (the bundle is published on the support topic or uploaded), got '\(quoted(text, 64))'"))
        case .sessionBus:
            if let problem = SupportArchive.destinationProblem(text) { return .failure(RemoteCommandError(problem)) }
            return .success(text)
        }
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.generalCategory == .control }
    private static func isControlOrSpace(_ scalar: Unicode.Scalar) -> Bool { isControl(scalar) || scalar == " " }

    /// At most `limit` characters of what a remote sent, its control characters escaped, for
    /// a reply or a log line.
    private static func quoted(_ text: String, _ limit: Int) -> String {
        String(text.prefix(limit).unicodeScalars.map { isControl($0) ? $0.escaped(asASCII: true) : String($0) }.joined())
    }
}

