#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Every option of a configuration file and of the command line, once each, in the order
/// messages list them. Adding a simple option is one declaration here (and, for a new
/// behaviour, its field on the `Configurator`).
enum ConfigOptions {
    static let all: [ConfigOption] = [
        preset,
        startURL,
        ConfigOption.string("title", .text, "the window title") { $0.title($1) }.example(#""Lobby""#).printable { $0.title },
        ConfigOption.origins("allowed-origins", flag: "allow-origin", "origins that belong to the app, besides the start page's") { configurator, origins in
            origins.reduce(configurator) { $0.allowOrigin($1) }
        }.printable { Printed.lines($0.allowedOrigins.map(\.description).sorted()) },
        appDirectory,
        ConfigOption.string("user-agent", flag: "user-agent", .headerText, "the User-Agent header") { $0.userAgent($1) }
            .example(#""Vitrine-Kiosk/1.0""#).printable { $0.userAgent },
        ConfigOption.bool("developer-tools", flag: "developer-tools", "the web inspector") { $0.developerTools($1) }.printable { Printed.bool($0.developerTools) },
        ConfigOption.bool("disable-zoom", "no pinch or keyboard zoom (a viewport user script)") { $0.disableZoom($1) }.printable { Printed.bool($0.disablesZoom) },
        ConfigOption.bool("title-follows-page", "the window title follows the page's") { $0.titleFollowsPage($1) }.printable { Printed.bool($0.titleFollowsPage) },
        ConfigOption.bool("error-pages", "Vitrine's error page (with automatic retry) when a load fails") { $0.showsErrorPages($1) }.printable { Printed.bool($0.showsErrorPages) },
        ConfigOption.bool("crash-recovery", "bring the page back when its web process dies or hangs") { $0.recoversFromCrashes($1) }.printable { Printed.bool($0.recoversFromCrashes) },
        downloadDirectory,

        ConfigOption.section("window", "the window")
            .summarized(as: "window") { configuration, _ in
                let size = configuration.windowSize
                return "\(size.width)x\(size.height)" + (configuration.fullscreen ? ", fullscreen" : "")
            },
        ConfigOption.integer("window.width", flag: "width", .windowLength, "window width in pixels") {
            $0.windowSize(width: $1, height: $0.preferences.windowSize.height)
        }.printable { String($0.windowSize.width) },
        ConfigOption.integer("window.height", flag: "height", .windowLength, "window height in pixels") {
            $0.windowSize(width: $0.preferences.windowSize.width, height: $1)
        }.printable { String($0.windowSize.height) },
        ConfigOption.bool("window.fullscreen", flag: "fullscreen", "a fullscreen window") { $0.fullscreen($1) }.printable { Printed.bool($0.fullscreen) },
        ConfigOption.bool("window.decorations", "the desktop's title bar and borders; false: a frameless window that the page's data-vitrine-drag-region elements move (with the window capability) and its edges resize") {
            $0.preference(\.decorated, $1)
        }.printable { Printed.bool($0.decorated) },
        ConfigOption.bool("window.remember", "keep the window's size, position (X11) and maximized state per app-id, restored at start (default: yes for the app and demo presets)") {
            $0.preference(\.remembersWindowState, $1)
        }.printable { Printed.bool($0.remembersWindowState) },
        ConfigOption.bool("window.close-to-tray", "closing the last window while the app shows a tray icon (tray capability) hides it instead of quitting; a click on the icon brings it back") {
            $0.preference(\.closesToTray, $1)
        }.printable { Printed.bool($0.closesToTray) },
        ConfigOption.string("window.color-scheme", .choice(ColorSchemeChoice.allCases.map(\.rawValue)),
                "the colour scheme pages see (prefers-color-scheme): system (the desktop's, from its portal, followed while the app runs), light or dark (default: system)") {
            $0.preference(\.colorScheme, ColorSchemeChoice(rawValue: $1) ?? .system)
        }.example(#""dark""#).printable { $0.colorScheme.rawValue },

        .section("navigation", "the navigation chain"),
        ConfigOption.seconds("navigation.decision-timeout", allowsZero: false, "seconds a handler may take before the navigation is cancelled") {
            $0.decisionTimeout($1)
        }.printable { Printed.seconds($0.navigationChain.defaultTimeout) },
        ConfigOption.structured("navigation.handlers", "the handlers, replacing the preset's chain, in order")
            .written(type: "an array of tables, each with a type (" + ConfigHandlers.all.map(\.type).joined(separator: ", ") + ") and that handler's keys",
                     example: """
                [[navigation.handlers]]
                type = "origin-allowlist"

                [[navigation.handlers]]
                type = "default-allow"
                """)
            .summarized(as: "chain") { configuration, _ in configuration.navigationChain.names.joined(separator: " → ") }.printable { Printed.lines($0.navigationChain.names) },

        ConfigOption.structured("strategies", "the script-message strategies enabled, and who may call them")
            .written(type: "a table: enabled (an array of strategy names) and origins (a table of name = [origins])", example: """
                [strategies]
                enabled = ["page", "user"]
                """)
            .summarized(as: "strategies") { configuration, _ in
                let identifiers = configuration.strategies.identifiers
                return identifiers.isEmpty ? "(none)" : identifiers.joined(separator: ", ")
            }.printable { Printed.lines($0.strategies.identifiers) },
        ConfigOption.structured("tabs", "native tabs; the first is the home tab")
            .written(type: "an array of tables: title (the tab's label) and url (its page)", example: """
                [[tabs]]
                title = "Home"
                url = "https://example.org/"
                """)
            .summarized(as: "tabs") { configuration, _ in
                configuration.tabs.isEmpty ? nil : configuration.tabs.map(\.title).joined(separator: ", ")
            }.printable { Printed.lines($0.tabs.map { "\($0.title)\t\($0.url.absoluteString)" }) },
        ConfigOption.structured("sidecars", "backend processes started before the first window and ended with the app")
            .written(type: #"an array of tables: name ([a-z0-9-], unique), command (relative to the app folder, or absolute), args, env (a table of NAME = "value"), ready ("port" or an HTTP path such as "/health"), ready-timeout (seconds, default 30), restart (never, on-failure or always; default never)"#,
                     example: """
                [[sidecars]]
                name = "api"
                command = "/usr/bin/python3"
                args = ["backend/server.py"]
                env = { LOG_LEVEL = "info" }
                ready = "/health"
                restart = "on-failure"
                """)
            .localOnly()
            .secret(fields: ["env"])  // an API key is often passed this way
            .summarized(as: "sidecars") { configuration, _ in
                configuration.sidecars.isEmpty ? nil : configuration.sidecars.map(\.name).joined(separator: ", ")
            }.printable { Printed.lines($0.sidecars.map { "\($0.name)\t\($0.command)" }) },

    ] + kioskOptions + scheduleOptions + zoneOptions + [
        .section("storage", "cookies, local storage and caches"),
        ConfigOption.bool("storage.persistent", "keep them across restarts (default: yes for apps, no for kiosks)") {
            $0.preference(\.persistentStorage, $1)
        }.printable { Printed.bool($0.websiteDataStorage != .ephemeral) },
        ConfigOption.url("storage.data-directory", .path(nil), "the folder they are kept in (default: WebKit's own for this program)") {
            $0.preference(\.dataDirectory, $1)
        }.printable { $0.dataDirectory?.path },

        .section("rendering", "how pages are drawn"),
        ConfigOption.string("rendering.hardware-acceleration", .choice(HardwareAcceleration.allCases.map(\.rawValue)),
                "auto (WebKit's choice), never (no GPU compositing, and no GL driver in the program), always (default: never on a software GL renderer such as llvmpipe, else auto)") {
            $0.preference(\.hardwareAcceleration, HardwareAcceleration(rawValue: $1))
        }.printable { $0.hardwareAcceleration?.rawValue },
        ConfigOption.bool("rendering.dmabuf-renderer",
                "WebKit's DMA-BUF renderer; false if windows stay blank (some NVIDIA and VM setups). With hardware acceleration never, WebKit is not asked to look for it (it would never draw with it)") {
            $0.preference(\.dmabufRenderer, $1)
        }.printable { Printed.bool($0.dmabufRenderer) },

        .section("media", "video and sound"),
        ConfigOption.string("media.autoplay", .choice(AutoplayPolicy.allCases.map(\.rawValue)),
                "allow: media starts with sound, no tap needed; muted: only muted media starts by itself; deny: nothing does (default: allow for signage, muted otherwise)") {
            $0.preference(\.autoplay, AutoplayPolicy(rawValue: $1))
        }.printable { $0.autoplayPolicy.rawValue },

        .section("security", "how far a page's web process is confined"),
        ConfigOption.bool("security.sandbox", flag: "sandbox",
              "web processes run under bubblewrap, with no view of this user's files (default: yes; false is warned at every start)") {
            $0.preference(\.sandboxesWebProcesses, $1)
        }.summarized(as: "sandbox") { configuration, _ in
            // Only its absence is worth a glance.
            configuration.sandboxesWebProcesses ? nil : "off: web processes can read every file this user can"
        }.localOnly().printable { Printed.bool($0.sandboxesWebProcesses) },
        ConfigOption.bool("security.allow-automation",
              "WebDriver may drive the app when it is started with --automation (default: yes; no for the kiosk preset); only a file sets it") {
            $0.preference(\.allowsAutomation, $1)
        }.localOnly().printable { Printed.bool($0.allowsAutomation) },

    ] + networkOptions + [
        ConfigOption.section("metrics", "Prometheus metrics in a file for node_exporter's textfile collector")
            .summarized(as: "metrics") { configuration, _ in
                configuration.metricsTextfile.map { "\($0.path) every \(seconds(configuration.metricsInterval))" }
            },
        ConfigOption.url("metrics.textfile", .path(.output(suffix: ".prom", why: "node_exporter's textfile collector reads only *.prom files")),
             "the metrics file, written atomically; relative paths are relative to the configuration file") {
            $0.preference(\.metricsTextfile, $1)
        }.printable { $0.metricsTextfile?.path },
        ConfigOption.seconds("metrics.interval", allowsZero: false, "seconds between writes of the metrics file (default 15)") {
            $0.preference(\.metricsInterval, $1)
        }.printable { Printed.seconds($0.metricsInterval) },


        ConfigOption.originGrants("permissions", names: PermissionKind.allCases.map(\.rawValue), "origin = permission kinds granted; everything else is denied") {
            configurator, grants in
            grants.reduce(configurator) { $0.grantPermissions(Set($1.names.compactMap(PermissionKind.init(rawValue:))), to: $1.origin) }
        }
            .printable { Printed.lines($0.permissions.map { Printed.grant($0.origin, PermissionKind.allCases.filter($0.kinds.contains).map(\.rawValue)) }) },
        ConfigOption.originGrants("capabilities", names: Capability.allCases.map(\.rawValue),
                                  "origin = native capabilities its pages may use; everything else is refused") { configurator, grants in
            grants.reduce(configurator) { $0.grantCapabilities(Set($1.names.compactMap(Capability.init(rawValue:))), to: $1.origin) }
        }.summarized(as: "capabilities") { configuration, _ in
            let grants = configuration.capabilities.byOrigin.sorted { $0.key.description < $1.key.description }
            return grants.isEmpty ? nil : grants.map { origin, granted in
                "\(origin): \(Capability.allCases.filter(granted.contains).map(\.rawValue).joined(separator: ", "))"
            }.joined(separator: "; ")
        }
            .printable { configuration in
                Printed.lines(configuration.capabilities.byOrigin.sorted { $0.key.description < $1.key.description }.map { origin, granted in
                    Printed.grant(origin, Capability.allCases.filter(granted.contains).map(\.rawValue))
                })
            },
        ConfigOption.integer("capabilities.max-windows",
                 .integer(expected: "an integer from 1 to 256", refusal: "be from 1 to 256", where: { (1...256).contains($0) }),
                 "the most windows the window capability keeps open at once (default 8); more are refused") {
            $0.preference(\.maxWindows, $1)
        }.printable { String($0.maxWindows) },
        ConfigOption.bool("capabilities.background-clipboard",
              "let granted pages write the clipboard from a hidden, minimized or unfocused window (default false: only the focused window's)") {
            $0.preference(\.backgroundClipboard, $1)
        }.printable { Printed.bool($0.backgroundClipboard) },
        .section("events", "the events log (--events FILE)"),
        ConfigOption.integer("events.max-size",
                 .integer(expected: "a number of bytes of at least 4096", refusal: "be at least 4096 (bytes)", where: { $0 >= 4096 }),
                 "bytes the events file may reach before it is renamed FILE.1 (one old file kept) and started afresh (default 10485760)") {
            $0.preference(\.eventsLogMaxSize, $1)
        }.printable { String($0.eventsLogMaxSize) },
        ConfigOption.bool("events.startup-trace", flag: "startup-trace",
              "a startup line for each phase of the start, from process start to the first page's load, with its CLOCK_MONOTONIC time in milliseconds") {
            $0.preference(\.tracesStartup, $1)
        }.printable { Printed.bool($0.tracesStartup) },
        .section("reports", "crash and error reports, kept in the app's data folder (reports/reports.jsonl); vitrine ctl reports lists them"),
        ConfigOption.bool("reports.enabled",
              "keep reports of the page's uncaught errors and unhandled rejections, web-process crashes, hangs and Vitrine's own fatal signals (default true)") {
            $0.preference(\.keepsReports, $1)
        }.printable { Printed.bool($0.keepsReports) },
        ConfigOption.string("reports.upload", .reportsUpload,
                "where reports not sent yet are POSTed as JSON at the next start; marked sent on a 2xx answer (default: kept only)") {
            configurator, text in ConfigFileDecoder.parseURL(text).map { configurator.preference(\.reportsUpload, SecretURL($0)) } ?? configurator
        }.example(#""https://reports.example.org/vitrine""#).secret().localOnly().printable { $0.reportsUpload?.description },
        ConfigOption.string("app-id", flag: "app-id", .applicationID,
                "the app's reverse-DNS id: its bus name, window class and data folder (default: derived from its app folder or start page)") {
            $0.appID($1)
        }.example(#""org.example.Shop""#).printable { $0.applicationID },
        .section("app", "the app's place on the desktop"),
        ConfigOption.strings("app.url-schemes", .urlSchemes,
                             "URL schemes the app handles: myapp://… opened on the desktop starts it, or reaches the running app as a deep-link event") {
            $0.preference(\.urlSchemes, $1)
        }.example(#"["myapp"]"#).printable { Printed.lines($0.urlSchemes) },
        .section("tls", "TLS exceptions"),
        ConfigOption.structured("tls.trust", "trust exactly this certificate for this host")
            .written(type: "an array of tables: host (a host name) and certificate (an existing PEM file)", example: """
                [[tls.trust]]
                host = "kiosk.local"
                certificate = "/etc/vitrine/kiosk.pem"
                """).printable { Printed.lines($0.tlsExceptions.map { "\($0.host) \($0.certificatePath)" }) },
    ] + printing + remoteView + update

    // The options ConfigAssembly reads itself: the preset and the start page decide what
    // the others refine; a download directory also changes the chain's end.
    static let preset = ConfigOption.string(
        "preset", flag: "preset", .choice(Preset.allCases.map(\.commandLineName)) { Preset(name: $0) != nil },
        "the preset the file refines: default, product-page, payment, app, demo, kiosk", nil
    ).summarized(as: "preset") { _, preset in preset.commandLineName }.printable (withPreset: { _, preset in preset.commandLineName })
    static let startURL = ConfigOption.url("start-url", .url, "the page opened at start", nil)
        .summarized(as: "start URL") { configuration, _ in configuration.startURL?.absoluteString ?? "(none)" }.printable { $0.startURL?.absoluteString }
    static let appDirectory = ConfigOption.url("app-dir", flag: "app-dir", .path(.folder), "a folder served under app://app/", nil)
        .summarized(as: "app folder") { configuration, _ in
            configuration.appDirectory.map { "\($0.path.path) as \($0.rootURL.absoluteString)" }
        }.printable { $0.appDirectory?.path.path }
    static let downloadDirectory = ConfigOption.url(
        "download-directory", .path(nil), "enables downloads into this folder; absent: downloads are refused"
    ) { $0.downloadDirectory($1) }.printable { $0.downloadDirectory?.path }

    /// The options directly in the table at `parent` (empty: the top level), in order.
    static func options(in parent: String) -> [ConfigOption] { all.filter { $0.parent == parent } }

    /// The option set by `--flag`.
    static func option(flag: String) -> ConfigOption? { all.first { $0.flag == flag } }

    static func option(_ key: String) -> ConfigOption? { all.first { $0.key == key } }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return attoseconds == 0 ? "\(seconds) s" : "\(duration.inSeconds) s"
    }
}

extension ConfigFile {
    /// `check-config`'s summary of a built configuration: the few facts worth a glance —
    /// what opens, how, and what the page may call — as (label, text) lines.
    public static func summary(of configuration: Configuration, preset: Preset) -> [(String, String)] {
        ConfigOptions.all.compactMap { option in
            guard let summary = option.summary, let text = summary.text(configuration, preset) else { return nil }
            return (summary.label, text)
        }
    }

    /// The effective value of the option `key` in a built configuration as a script reads it
    /// (`check-config --print kiosk.rotation`), a list one item a line, "" when unset; nil
    /// when the key is unknown or a table that only groups keys.
    public static func printedValue(of key: String, in configuration: Configuration, preset: Preset = .default) -> String? {
        ConfigOptions.option(key)?.printed.map { $0(configuration, preset) ?? "" }
    }

    /// The keys `printedValue(of:in:)` knows.
    public static var printableKeys: [String] { ConfigOptions.all.filter { $0.printed != nil }.map(\.key) }

    /// Why `value`, given to `--flag`, is refused (nil: accepted): the file's rule for the
    /// same option. Flags that no option declares are not checked here.
    public static func commandLineProblem(flag: String, value: String) -> String? {
        ConfigOptions.option(flag: flag)?.type?.commandLineProblem(flag: flag, text: value)
    }
}
