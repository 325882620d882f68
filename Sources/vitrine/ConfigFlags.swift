// Generated from the option table (Sources/VitrineConfigFile/ConfigOptions.swift) by
// `make generated` (`vitrine generate config-flags`). Do not edit: a test fails when it is stale.
import ArgumentParser

/// The `open` command's options that a configuration file also has, one per option with a
/// flag. Values are read as text and checked by the option's own rule
/// (`ConfigOverrides(commandLine:)`), so the command line and the file say the same.
struct ConfigFlags: ParsableArguments {
    @Option(name: .customLong("preset"), help: ArgumentHelp("The preset the file refines: default, product-page, payment, app, demo, kiosk. In a file: preset.", valueName: "preset"))
    var preset: String?

    @Option(name: .customLong("allow-origin"), help: ArgumentHelp("Origins that belong to the app, besides the start page's. Repeatable; adds to the file's. In a file: allowed-origins.", valueName: "origin"))
    var allowOrigin: [String] = []

    @Option(name: .customLong("app-dir"), help: ArgumentHelp("A folder served under app://app/. In a file: app-dir.", valueName: "folder"))
    var appDir: String?

    @Option(name: .customLong("user-agent"), help: ArgumentHelp("The User-Agent header. In a file: user-agent.", valueName: "user-agent"))
    var userAgent: String?

    @Flag(name: .customLong("developer-tools"), inversion: .prefixedNo, help: "The web inspector. In a file: developer-tools.")
    var developerTools: Bool?

    @Option(name: .customLong("width"), help: ArgumentHelp("Window width in pixels. In a file: window.width.", valueName: "n"))
    var width: String?

    @Option(name: .customLong("height"), help: ArgumentHelp("Window height in pixels. In a file: window.height.", valueName: "n"))
    var height: String?

    @Flag(name: .customLong("fullscreen"), inversion: .prefixedNo, help: "A fullscreen window. In a file: window.fullscreen.")
    var fullscreen: Bool?

    @Flag(name: .customLong("sandbox"), inversion: .prefixedNo, help: "Web processes run under bubblewrap, with no view of this user's files (default: yes; false is warned at every start). In a file: security.sandbox.")
    var sandbox: Bool?

    @Flag(name: .customLong("startup-trace"), inversion: .prefixedNo, help: "A startup line for each phase of the start, from process start to the first page's load, with its CLOCK_MONOTONIC time in milliseconds. In a file: events.startup-trace.")
    var startupTrace: Bool?

    @Option(name: .customLong("app-id"), help: ArgumentHelp("The app's reverse-DNS id: its bus name, window class and data folder (default: derived from its app folder or start page). In a file: app-id.", valueName: "app-id"))
    var appId: String?

    /// The flags given, by flag, with their values as written (a repeated flag's in order).
    var given: [String: [String]] {
        var given: [String: [String]] = [:]
        given["preset"] = preset.map { [$0] }
        given["allow-origin"] = allowOrigin.isEmpty ? nil : allowOrigin
        given["app-dir"] = appDir.map { [$0] }
        given["user-agent"] = userAgent.map { [$0] }
        given["developer-tools"] = developerTools.map { [String($0)] }
        given["width"] = width.map { [$0] }
        given["height"] = height.map { [$0] }
        given["fullscreen"] = fullscreen.map { [String($0)] }
        given["sandbox"] = sandbox.map { [String($0)] }
        given["startup-trace"] = startupTrace.map { [String($0)] }
        given["app-id"] = appId.map { [$0] }
        return given
    }
}
