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
        ConfigOption.string("title", .text, "the window title") { $0.title($1) }.example(#""Lobby""#),
        .origins("allowed-origins", flag: "allow-origin", "origins that belong to the app, besides the start page's") { configurator, origins in
            origins.reduce(configurator) { $0.allowOrigin($1) }
        },
        appDirectory,
        ConfigOption.string("user-agent", flag: "user-agent", .headerText, "the User-Agent header") { $0.userAgent($1) }
            .example(#""Vitrine-Kiosk/1.0""#),
        .bool("developer-tools", flag: "developer-tools", "the web inspector") { $0.developerTools($1) },
        .bool("disable-zoom", "no pinch or keyboard zoom (a viewport user script)") { $0.disableZoom($1) },
        .bool("title-follows-page", "the window title follows the page's") { $0.titleFollowsPage($1) },
        .bool("error-pages", "Vitrine's error page (with automatic retry) when a load fails") { $0.showsErrorPages($1) },
        .bool("crash-recovery", "bring the page back when its web process dies or hangs") { $0.recoversFromCrashes($1) },
        downloadDirectory,

        ConfigOption.section("window", "the window")
            .summarized(as: "window") { configuration, _ in
                let size = configuration.windowSize
                return "\(size.width)x\(size.height)" + (configuration.fullscreen ? ", fullscreen" : "")
            },
        .integer("window.width", flag: "width", .windowLength, "window width in pixels") {
            $0.windowSize(width: $1, height: $0.preferences.windowSize.height)
        },
        .integer("window.height", flag: "height", .windowLength, "window height in pixels") {
            $0.windowSize(width: $0.preferences.windowSize.width, height: $1)
        },
        .bool("window.fullscreen", flag: "fullscreen", "a fullscreen window") { $0.fullscreen($1) },
        .bool("window.decorations", "the desktop's title bar and borders; false: a frameless window that the page's data-vitrine-drag-region elements move (with the window capability) and its edges resize") {
            $0.preference(\.decorated, $1)
        },
        .bool("window.remember", "keep the window's size, position (X11) and maximized state per app-id, restored at start (default: yes for the app and demo presets)") {
            $0.preference(\.remembersWindowState, $1)
        },
        .bool("window.close-to-tray", "closing the last window while the app shows a tray icon (tray capability) hides it instead of quitting; a click on the icon brings it back") {
            $0.preference(\.closesToTray, $1)
        },

        .section("navigation", "the navigation chain"),
        .seconds("navigation.decision-timeout", allowsZero: false, "seconds a handler may take before the navigation is cancelled") {
            $0.decisionTimeout($1)
        },
        ConfigOption.structured("navigation.handlers", "the handlers, replacing the preset's chain, in order")
            .summarized(as: "chain") { configuration, _ in configuration.navigationChain.names.joined(separator: " → ") },

        ConfigOption.structured("strategies", "the script-message strategies enabled, and who may call them")
            .summarized(as: "strategies") { configuration, _ in
                let identifiers = configuration.strategies.identifiers
                return identifiers.isEmpty ? "(none)" : identifiers.joined(separator: ", ")
            },
        ConfigOption.structured("tabs", "native tabs; the first is the home tab")
            .summarized(as: "tabs") { configuration, _ in
                configuration.tabs.isEmpty ? nil : configuration.tabs.map(\.title).joined(separator: ", ")
            },

        // Any [kiosk] table makes the window a kiosk, refining the preset's kiosk options.
        ConfigOption.section("kiosk", "kiosk behaviour") { $0.kiosk($0.kiosk ?? KioskOptions()) }
            .summarized(as: "kiosk") { configuration, _ in
                configuration.kiosk.map { kiosk in
                    let idle = kiosk.idleReset.map { "idle reset after \(seconds($0))" } ?? "no idle reset"
                    let keyboard = kiosk.onScreenKeyboard ? ", on-screen keyboard (\(configuration.keyboardLayout))" : ""
                    return "yes, \(kiosk.lockdown ? "locked down" : "not locked down"), \(idle)\(keyboard)"
                }
            },
        .bool("kiosk.lockdown", "no context menu, inspector, zoom or history shortcuts", kiosk(\.lockdown)),
        .bool("kiosk.hide-cursor", "hide the mouse pointer over the window", kiosk(\.hidesCursor)),
        .seconds("kiosk.idle-reset", allowsZero: true, zeroMeaning: "never", "seconds without input before going back to the start page") {
            kiosk(\.idleReset)($0, $1 == .zero ? nil : $1)
        },
        .bool("kiosk.idle-clear-data", "on idle reset, also clear cookies, storage and caches", kiosk(\.clearsDataOnIdleReset)),
        .bool("kiosk.inhibit-screen-blanking", "keep the screen from blanking", kiosk(\.inhibitsScreenBlanking)),
        .integer("kiosk.crash-loop-limit",
                 .integer(expected: "an integer of at least 1", refusal: "be at least 1", where: KioskOptions.acceptsCrashLoopLimit),
                 "more crashes than this within crash-loop-window: error page and countdown", kiosk(\.crashLoopLimit)),
        .seconds("kiosk.crash-loop-window", allowsZero: false, "the window crash-loop-limit counts crashes in", kiosk(\.crashLoopWindow)),
        .seconds("kiosk.crash-loop-backoff", allowsZero: true, "how long the crash-loop page waits before trying again", kiosk(\.crashLoopBackoff)),
        .seconds("kiosk.unresponsive-timeout", allowsZero: false, "seconds before a hung page is terminated and reloaded",
                 kiosk(\.unresponsiveTimeout)),
        .seconds("kiosk.load-timeout", allowsZero: true, zeroMeaning: "never",
                 "seconds a page's server may take to begin answering before the error page shows and it is tried again") {
            kiosk(\.loadTimeout)($0, $1 == .zero ? nil : $1)
        },
        .integer("kiosk.web-memory-limit",
                 .integer(expected: "a number of megabytes from 64 to 1048576", refusal: "be from 64 to 1048576 (megabytes)",
                          where: KioskOptions.acceptsWebMemoryLimit),
                 "megabytes a web process may use before it is killed and recovered like a crash", kiosk(\.webMemoryLimit)),
        ConfigOption.integer("kiosk.rotation",
                 .integer(expected: "0, 90, 180 or 270", refusal: "be 0, 90, 180 or 270", where: KioskOptions.rotations.contains),
                 "degrees clockwise the kiosk-session script turns the screen (cage -r)", kiosk(\.rotation))
            .printable { String($0.kiosk?.rotation ?? 0) },
        .string("kiosk.external-links", .choice(["block", "browser"]),
                "block: the chain decides; browser: links leaving the app open in the desktop's browser") { configurator, choice in
            choice == "browser" ? configurator.mapChain(ConfigAssembly.insertingExternalBrowser) : configurator
        },

        .bool("kiosk.on-screen-keyboard", "Vitrine's own keyboard slides up below the page when an editable field gets the focus",
              kiosk(\.onScreenKeyboard)),

        .section("keyboard", "the on-screen keyboard ([kiosk] on-screen-keyboard)"),
        .string("keyboard.layout", .choice(KeyboardLayout.shippedNames),
                "its layout: \(KeyboardLayout.shippedNames.joined(separator: ", ")) (Resources/keyboard/NAME.json)") {
            $0.preference(\.keyboardLayout, $1)
        },
    ] + scheduleOptions + zoneOptions + [
        .section("storage", "cookies, local storage and caches"),
        .bool("storage.persistent", "keep them across restarts (default: yes for apps, no for kiosks)") {
            $0.preference(\.persistentStorage, $1)
        },
        .url("storage.data-directory", .path(nil), "the folder they are kept in (default: WebKit's own for this program)") {
            $0.preference(\.dataDirectory, $1)
        },

        .section("rendering", "how pages are drawn"),
        .string("rendering.hardware-acceleration", .choice(HardwareAcceleration.allCases.map(\.rawValue)),
                "auto (WebKit's choice), never (no GPU compositing), always (default: never on a software GL renderer such as llvmpipe, else auto)") {
            $0.preference(\.hardwareAcceleration, HardwareAcceleration(rawValue: $1))
        },
        .bool("rendering.dmabuf-renderer", "WebKit's DMA-BUF renderer; false if windows stay blank (some NVIDIA and VM setups)") {
            $0.preference(\.dmabufRenderer, $1)
        },

        .section("media", "video and sound"),
        .string("media.autoplay", .choice(AutoplayPolicy.allCases.map(\.rawValue)),
                "allow: media starts with sound, no tap needed; muted: only muted media starts by itself; deny: nothing does (default: allow for signage, muted otherwise)") {
            $0.preference(\.autoplay, AutoplayPolicy(rawValue: $1))
        },

        .section("security", "how far a page's web process is confined"),
        ConfigOption.bool("security.sandbox", flag: "sandbox",
              "web processes run under bubblewrap, with no view of this user's files (default: yes; false is warned at every start)") {
            $0.preference(\.sandboxesWebProcesses, $1)
        }.summarized(as: "sandbox") { configuration, _ in
            // Only its absence is worth a glance.
            configuration.sandboxesWebProcesses ? nil : "off: web processes can read every file this user can"
        }.localOnly(),
        ConfigOption.bool("security.allow-automation",
              "WebDriver may drive the app when it is started with --automation (default: yes; no for the kiosk preset); only a file sets it") {
            $0.preference(\.allowsAutomation, $1)
        }.localOnly(),

        ConfigOption.section("network", "enterprise networks: a proxy, trust anchors, client certificates, credentials")
            .summarized(as: "network") { configuration, _ in networkSummary(configuration.network) },
        ConfigOption.string("network.proxy", .proxy, #"the proxy for every request: "system" (the desktop's) or a URL such as http://proxy.corp:3128"#) {
            configurator, text in configurator.network { $0.proxy = NetworkProxy(text) }
        }.example(#""http://proxy.corp:3128""#),
        .structured("network.no-proxy", #"hosts reached without the proxy, such as "localhost" or "*.corp""#),
        .structured("network.ca-certificates", "PEM files of extra certificate authorities, trusted for every host"),
        .structured("network.client-certificate", "a client certificate (mutual TLS) for a host: host, certificate, key"),
        ConfigOption.structured("network.credentials", "HTTP Basic/Digest credentials for an origin: origin, username, password-file (mode 0600)")
            .secret(fields: ["password-file"]),

        .section("remote", "remote control beyond the session bus"),
        ConfigOption.string("remote.support-upload", .supportUpload, "where cmd/support PUTs its bundle (default: published on the support topic)") {
            configurator, text in ConfigFileDecoder.parseURL(text).map { configurator.preference(\.supportUpload, SecretURL($0)) } ?? configurator
        }.example(#""https://support.corp/upload/lobby-1.tar.gz""#).secret().localOnly(),
        ConfigOption.section("remote.mqtt", "a fleet's MQTT broker: state, events and commands under PREFIX/ID/")
            .summarized(as: "mqtt") { configuration, _ in
                configuration.mqtt.map { "\($0.broker) as \($0.topics.base)/" + ($0.groups.isEmpty ? "" : ", groups \($0.groups.joined(separator: ", "))")
                    + ($0.homeAssistant ? ", Home Assistant discovery" : "") }
            },
        ConfigOption.string("remote.mqtt.broker", .mqttBroker, "mqtt://host[:port] or mqtts://host[:port] (TLS; the broker's certificate is always verified)") {
            configurator, text in MQTTBroker(text).map { configurator.mqtt(broker: $0) } ?? configurator
        }.example(#""mqtts://mqtt.corp:8883""#),
        ConfigOption.string("remote.mqtt.device-id", .topicLevel(levels: false), "this kiosk's name in topics (default: the host name)") {
            configurator, id in configurator.mqttIfPresent { $0.deviceID = id }
        }.example(#""lobby-1""#),
        ConfigOption.string("remote.mqtt.topic-prefix", .topicLevel(levels: true), #"the topics' first levels (default "vitrine")"#) {
            configurator, prefix in configurator.mqttIfPresent { $0.topicPrefix = prefix }
        }.example(#""corp/screens""#),
        ConfigOption.string("remote.mqtt.username", .nonEmptyText, "the user name given to the broker") {
            configurator, name in configurator.mqttIfPresent { $0.username = name }
        }.example(#""kiosk""#),
        ConfigOption.structured("remote.mqtt.password-file", "a file (mode 0600) holding the broker password").secret(),
        .structured("remote.mqtt.ca-certificates", "PEM files of the authorities that vouch for the broker (default: the system's)"),
        .url("remote.mqtt.client-certificate", .path(.file), "a client certificate (PEM) for the broker, with client-key") {
            configurator, url in configurator.mqttIfPresent { $0.clientCertificate = url.path }
        },
        .url("remote.mqtt.client-key", .path(.file), "the client certificate's private key (PEM)") {
            configurator, url in configurator.mqttIfPresent { $0.clientKey = url.path }
        },
        ConfigOption.strings("remote.mqtt.groups", .topicLevels, "fleet groups whose commands (PREFIX/group/NAME/cmd/…) the kiosk takes as its own") {
            configurator, groups in configurator.mqttIfPresent { $0.groups = groups }
        }.example(#"["lobby", "floor-2"]"#),
        .bool("remote.mqtt.home-assistant", "publish Home Assistant MQTT discovery messages") {
            configurator, on in configurator.mqttIfPresent { $0.homeAssistant = on }
        },
        .seconds("remote.mqtt.config-trial-timeout", allowsZero: false, "seconds a pushed configuration's start page has to load (with a 2xx/3xx status) before it is rolled back") {
            configurator, timeout in configurator.mqttIfPresent { $0.configTrialTimeout = timeout }
        },

        ConfigOption.section("metrics", "Prometheus metrics in a file for node_exporter's textfile collector")
            .summarized(as: "metrics") { configuration, _ in
                configuration.metricsTextfile.map { "\($0.path) every \(seconds(configuration.metricsInterval))" }
            },
        .url("metrics.textfile", .path(.output(suffix: ".prom", why: "node_exporter's textfile collector reads only *.prom files")),
             "the metrics file, written atomically; relative paths are relative to the configuration file") {
            $0.preference(\.metricsTextfile, $1)
        },
        .seconds("metrics.interval", allowsZero: false, "seconds between writes of the metrics file (default 15)") {
            $0.preference(\.metricsInterval, $1)
        },


        .originGrants("permissions", names: PermissionKind.allCases.map(\.rawValue), "origin = permission kinds granted; everything else is denied") {
            configurator, grants in
            grants.reduce(configurator) { $0.grantPermissions(Set($1.names.compactMap(PermissionKind.init(rawValue:))), to: $1.origin) }
        },
        ConfigOption.originGrants("capabilities", names: Capability.allCases.map(\.rawValue),
                                  "origin = native capabilities its pages may use; everything else is refused") { configurator, grants in
            grants.reduce(configurator) { $0.grantCapabilities(Set($1.names.compactMap(Capability.init(rawValue:))), to: $1.origin) }
        }.summarized(as: "capabilities") { configuration, _ in
            let grants = configuration.capabilities.byOrigin.sorted { $0.key.description < $1.key.description }
            return grants.isEmpty ? nil : grants.map { origin, granted in
                "\(origin): \(Capability.allCases.filter(granted.contains).map(\.rawValue).joined(separator: ", "))"
            }.joined(separator: "; ")
        },
        .integer("capabilities.max-windows",
                 .integer(expected: "an integer from 1 to 256", refusal: "be from 1 to 256", where: { (1...256).contains($0) }),
                 "the most windows the window capability keeps open at once (default 8); more are refused") {
            $0.preference(\.maxWindows, $1)
        },
        .bool("capabilities.background-clipboard",
              "let granted pages write the clipboard from a hidden, minimized or unfocused window (default false: only the focused window's)") {
            $0.preference(\.backgroundClipboard, $1)
        },
        .section("events", "the events log (--events FILE)"),
        .integer("events.max-size",
                 .integer(expected: "a number of bytes of at least 4096", refusal: "be at least 4096 (bytes)", where: { $0 >= 4096 }),
                 "bytes the events file may reach before it is renamed FILE.1 (one old file kept) and started afresh (default 10485760)") {
            $0.preference(\.eventsLogMaxSize, $1)
        },
        ConfigOption.string("app-id", flag: "app-id", .applicationID,
                "the app's reverse-DNS id: its bus name, window class and data folder (default: derived from its app folder or start page)") {
            $0.appID($1)
        }.example(#""org.example.Shop""#),
        .section("app", "the app's place on the desktop"),
        ConfigOption.strings("app.url-schemes", .urlSchemes,
                             "URL schemes the app handles: myapp://… opened on the desktop starts it, or reaches the running app as a deep-link event") {
            $0.preference(\.urlSchemes, $1)
        }.example(#"["myapp"]"#),
        .section("tls", "TLS exceptions"),
        .structured("tls.trust", "trust exactly this certificate for this host"),
    ] + printing + remoteView

    // The options ConfigAssembly reads itself: the preset and the start page decide what
    // the others refine; a download directory also changes the chain's end.
    static let preset = ConfigOption.string(
        "preset", flag: "preset", .choice(Preset.allCases.map(\.commandLineName)) { Preset(name: $0) != nil },
        "the preset the file refines: default, product-page, payment, app, demo, kiosk", nil
    ).summarized(as: "preset") { _, preset in preset.commandLineName }
    static let startURL = ConfigOption.url("start-url", .url, "the page opened at start", nil)
        .summarized(as: "start URL") { configuration, _ in configuration.startURL?.absoluteString ?? "(none)" }
    static let appDirectory = ConfigOption.url("app-dir", flag: "app-dir", .path(.folder), "a folder served under app://app/", nil)
        .summarized(as: "app folder") { configuration, _ in
            configuration.appDirectory.map { "\($0.path.path) as \($0.rootURL.absoluteString)" }
        }
    static let downloadDirectory = ConfigOption.url(
        "download-directory", .path(nil), "enables downloads into this folder; absent: downloads are refused"
    ) { $0.downloadDirectory($1) }

    /// The options directly in the table at `parent` (empty: the top level), in order.
    static func options(in parent: String) -> [ConfigOption] { all.filter { $0.parent == parent } }

    /// The option set by `--flag`.
    static func option(flag: String) -> ConfigOption? { all.first { $0.flag == flag } }

    static func option(_ key: String) -> ConfigOption? { all.first { $0.key == key } }

    /// Sets one field of the kiosk options (the preset's, else the defaults).
    private static func kiosk<Value: Sendable>(_ field: WritableKeyPath<KioskOptions, Value> & Sendable) -> ConfigOption.Apply<Value> {
        { configurator, value in
            var options = configurator.kiosk ?? KioskOptions()
            options[keyPath: field] = value
            return configurator.kiosk(options)
        }
    }

    private static func networkSummary(_ network: NetworkSettings) -> String? {
        var parts: [String] = []
        switch network.proxy {
        case .system?: parts.append("the desktop's proxy")
        case .custom(let url)?: parts.append("proxy \(Redaction.url(url.absoluteString))")
        case nil: break
        }
        if !network.caCertificates.isEmpty { parts.append("\(network.caCertificates.count) extra CA file(s)") }
        if !network.clientCertificates.isEmpty { parts.append("client certificates for \(network.clientCertificates.map(\.host).joined(separator: ", "))") }
        if !network.credentials.isEmpty { parts.append("credentials for \(network.credentials.map(\.description).joined(separator: ", "))") }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    private static func seconds(_ duration: Duration) -> String {
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

    /// The value of the option `key` in a built configuration as a script reads it (`check-config
    /// --print kiosk.rotation`); nil when the option has no printable value.
    public static func printedValue(of key: String, in configuration: Configuration) -> String? {
        ConfigOptions.option(key)?.printed?(configuration)
    }

    /// The keys `printedValue(of:in:)` knows.
    public static var printableKeys: [String] { ConfigOptions.all.filter { $0.printed != nil }.map(\.key) }

    /// Why `value`, given to `--flag`, is refused (nil: accepted): the file's rule for the
    /// same option. Flags that no option declares are not checked here.
    public static func commandLineProblem(flag: String, value: String) -> String? {
        ConfigOptions.option(flag: flag)?.type?.commandLineProblem(flag: flag, text: value)
    }
}
