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
/// (default: the stock org.vitrine.Vitrine) over the session bus.
struct ControlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ctl",
        abstract: "Drive the running Vitrine window over D-Bus: reload, home, navigate URL, screenshot FILE, quit, display on|off, next.",
        discussion: """
            --app-id picks the app (each app is its own instance on the bus; default: \(ApplicationID.stock), \
            the stock program). The same actions are available to any D-Bus client, e.g. \
            'gapplication action org.vitrine.Vitrine reload' or \
            'gdbus call --session --dest org.vitrine.Vitrine --object-path /org/vitrine/Vitrine \
            --method org.gtk.Actions.Activate navigate "[<\\"https://example.org/\\">]" "{}"'. \
            navigate goes through the window's navigation chain, so a kiosk's allow-list still applies. \
            quit ends the program as SIGTERM does (a kiosk ignores the window manager's close requests).
            """)

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case reload, home, navigate, screenshot, quit, display, next
    }

    @Argument(help: "reload | home | navigate | screenshot | quit | display | next")
    var action: Action

    @Argument(help: "The URL for navigate, the PNG file for screenshot, on or off for display.")
    var argument: String?

    @Option(name: .customLong("app-id"), help: ArgumentHelp("The app to drive, by its reverse-DNS id.", valueName: "id"))
    var appID: String = ApplicationID.stock

    mutating func validate() throws {
        if let problem = ApplicationID.problem(with: appID) {
            throw ValidationError("--app-id '\(appID)' is not a reverse-DNS application id such as org.example.Shop: \(problem)")
        }
        switch action {
        case .display:
            guard argument == "on" || argument == "off" else { throw ValidationError("display needs on or off") }
        case .reload, .home, .quit, .next:
            if argument != nil { throw ValidationError("'\(action.rawValue)' takes no argument") }
        case .navigate:
            guard let argument, let url = URL(string: argument), url.scheme != nil else {
                throw ValidationError("navigate needs a URL with a scheme, e.g. https://example.org/")
            }
        case .screenshot:
            guard let argument, argument.lowercased().hasSuffix(".png") else {
                throw ValidationError("screenshot needs a file name ending in .png")
            }
        }
    }

    func run() throws {
        var parameter = argument
        if action == .screenshot, let path = argument, !path.hasPrefix("/") {
            // The running instance has its own working directory.
            parameter = URL(fileURLWithPath: path).standardizedFileURL.path
        }
        if let path = parameter, action == .screenshot { unlink(path) }
        do {
            try MainActor.assumeIsolated { try RemoteControl.send(action.rawValue, argument: parameter, applicationID: appID) }
        } catch let error as RemoteControlError {
            throw RuntimeFailure(error.description)
        }
        guard action == .screenshot, let path = parameter else { return }
        // The action has no reply: wait for the file to appear.
        for _ in 0..<100 {
            if FileSystem.size(path).map({ $0 > 0 }) == true {
                print(path)
                return
            }
            usleep(100_000)
        }
        throw RuntimeFailure("the running instance did not write \(path)")
    }
}
