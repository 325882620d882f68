import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif
import Vitrine
import VitrineGTK

/// `vitrine ctl [--app-id ID] ACTION [ARGUMENT]`: drives the running Vitrine app of that id
/// (default: the stock org.vitrine.Vitrine) over the session bus. The actions, their help and
/// their checks are the session bus's commands (`RemoteCommandName`, `RemoteCommand.parse`):
/// what `ctl` accepts, the running instance accepts.
struct ControlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Drive the running Vitrine window over D-Bus: \(Action.synopsis).",
        discussion: """
            --app-id picks the app (each app is its own instance on the bus; default: \(ApplicationID.stock), \
            the stock program). The same actions are available to any D-Bus client, e.g. \
            'gapplication action org.vitrine.Vitrine reload' or \
            'gdbus call --session --dest org.vitrine.Vitrine --object-path /org/vitrine/Vitrine \
            --method org.gtk.Actions.Activate navigate "[<\\"https://example.org/\\">]" "{}"'. \
            An argument is trimmed of surrounding white space; display takes on or off in any case. \
            reports is read from the app's data folder, not over D-Bus: it answers whether the app runs or not.
            """)

    /// One of the commands the session bus carries, or `reports`, which ctl reads itself.
    struct Action: ExpressibleByArgument {
        /// Nil for `reports`.
        let command: RemoteCommandName?

        /// `reports`: read from the app's data folder, so it answers whether the app runs or not
        /// (after a crash above all).
        static let reportsName = "reports"
        static let reportsHelp = "list the app's crash and error reports, oldest first: one JSON object per line, with \"sent\" (read from its data folder; the app need not run)"

        init?(argument: String) {
            if argument == Self.reportsName {
                command = nil
                return
            }
            guard let command = RemoteCommandName(ctlName: argument) else { return nil }
            self.command = command
        }

        static var allValueStrings: [String] { RemoteCommandName.carried(by: .sessionBus).map(\.ctlName) + [reportsName] }
        static var allValueDescriptions: [String: String] {
            Dictionary(uniqueKeysWithValues: RemoteCommandName.carried(by: .sessionBus).map { ($0.ctlName, $0.help) } + [(reportsName, reportsHelp)])
        }
        /// One line per action: `navigate URL: open URL through the navigation chain …`.
        static var list: String {
            (RemoteCommandName.carried(by: .sessionBus).map { command in
                usage(command) + ": " + command.help
            } + [reportsName + ": " + reportsHelp]).joined(separator: "\n")
        }

        /// `reload, home, …, navigate URL, display on|off, reports`.
        static var synopsis: String {
            (RemoteCommandName.carried(by: .sessionBus).map(usage) + [reportsName]).joined(separator: ", ")
        }

        /// How the action is written on ctl's command line: `navigate URL`, `alert URL --for DURATION`.
        static func usage(_ command: RemoteCommandName) -> String {
            if command == .alert { return "alert URL --for DURATION" }
            return command.argument.valueName.map { "\(command.ctlName) \($0)" } ?? command.ctlName
        }
    }

    @Argument(help: ArgumentHelp("The action.", discussion: Action.list))
    var action: Action

    @Argument(help: ArgumentHelp("Its argument: \(RemoteCommandName.carried(by: .sessionBus).filter { $0.argument != .none }.map { "\($0 == .alert ? "URL" : $0.argument.valueName ?? "") for \($0.ctlName)" }.joined(separator: ", ")).",
                                 valueName: "argument"))
    var argument: String?

    @Option(name: .customLong("for"), help: ArgumentHelp("How long an alert stays: seconds (90, 90s), minutes (5m) or hours (2h), at most a day.",
                                                         valueName: "duration"))
    var alertDuration: String?

    @Option(name: .customLong("app-id"), help: ArgumentHelp("The app to drive, by its reverse-DNS id.", valueName: "id"))
    var appID: String = ApplicationID.stock

    mutating func validate() throws {
        if let problem = ApplicationID.problem(with: appID) {
            throw ValidationError("--app-id '\(appID)' is not a reverse-DNS application id such as org.example.Shop: \(problem)")
        }
        guard let command = action.command else {
            if argument != nil || alertDuration != nil { throw ValidationError("\(Action.reportsName) takes no argument") }
            return
        }
        if command == .alert {
            // `alert URL --for DURATION` is sent as the JSON object MQTT's cmd/alert takes.
            guard let duration = alertDuration else { throw ValidationError("alert needs --for DURATION, such as --for 5m") }
            guard let seconds = SignageAlert.seconds(duration) else {
                throw ValidationError("--for '\(duration)' is not a duration such as 90, 90s, 5m or 2h")
            }
            argument = RemoteCommand.alertArgument(url: argument ?? "", seconds: seconds)
        } else if alertDuration != nil {
            throw ValidationError("--for is the duration of an alert; \(command.ctlName) takes none")
        }
        if [.screenshot, .support].contains(command), let path = argument, !path.hasPrefix("/") {
            // The running instance has its own working directory.
            argument = URL(fileURLWithPath: path).standardizedFileURL.path
        }
        // The running instance's own check, here first for a clear message and exit status.
        switch RemoteCommand.parse(name: command.rawValue, argument: Array((argument ?? "").utf8), from: .sessionBus) {
        case .failure(let error): throw ValidationError(error.description)
        case .success(.screenshot(let path)): argument = path  // trimmed, as the instance reads it
        case .success(.support(let path?)):
            // The instance refuses too (it creates the file exclusively); this says so clearly.
            var status = stat()
            if lstat(path, &status) == 0 { throw ValidationError("\(path) already exists; support-bundle never replaces a file") }
            argument = path
        case .success: break
        }
    }

    func run() throws {
        guard let command = action.command else {
            let log = ReportLog(appDataFolder: ApplicationID.dataHome.appendingPathComponent(appID))
            // A run that died of a signal left its line: listed as a report from now on.
            do throws(FileSystemError) { try log.collectFatalSignals(app: appID) } catch { throw RuntimeFailure(error.description) }
            for line in log.listing() { print(line) }
            return
        }
        // An action without an argument takes no parameter at all (GAction checks its type).
        let parameter = command.argument == .none ? nil : argument ?? ""
        if command == .screenshot, let path = parameter { unlink(path) }
        do {
            try MainActor.assumeIsolated { try RemoteControl.send(command.rawValue, argument: parameter, applicationID: appID) }
        } catch let error as RemoteControlError {
            throw RuntimeFailure(error.description)
        }
        guard [.screenshot, .support].contains(command), let path = parameter else { return }
        // The action has no reply: wait for the file to appear (a bundle appears whole:
        // it is linked into place once written).
        for _ in 0..<(command == .support ? 600 : 100) {
            if FileSystem.size(path).map({ $0 > 0 }) == true {
                print(path)
                return
            }
            usleep(100_000)
        }
        throw RuntimeFailure("the running instance did not write \(path)")
    }
}
