#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The container's simple settings: each one value with a default, nothing derived from
/// it at build time but what `Configurator.build()` says. A new one is a field here (and
/// its declaration in `ConfigOptions` to reach files and flags); the Configurator sets it
/// with `preference(_:_:)` and a `Configuration` reads it as its own property.
public struct Preferences: Sendable, Equatable {
    /// The window title, until (or unless) the page's title replaces it.
    public var title = "Vitrine"
    /// No pinch or keyboard zoom (a viewport user script, attached at build).
    public var disablesZoom = false
    public var titleFollowsPage = false
    public var windowSize = WindowSize(width: 1024, height: 768)
    public var fullscreen = false
    public var userAgent: String?
    public var developerTools = false
    /// Where downloads go; nil: downloads are refused.
    public var downloadDirectory: URL?
    /// Show Vitrine's own error page (with automatic retry) when a load fails.
    public var showsErrorPages = true
    /// Bring the page back when its web process dies or hangs.
    public var recoversFromCrashes = true
    /// Whether WebKit composites with the GPU (`[rendering] hardware-acceleration`); nil:
    /// `never` on a software GL renderer, WebKit's own choice otherwise (`RenderingChoice`).
    public var hardwareAcceleration: HardwareAcceleration?
    /// Keep cookies, storage and caches across restarts; nil: yes for apps, no for kiosks.
    public var persistentStorage: Bool?
    /// Where kept website data goes; nil: WebKit's own folders for this program.
    public var dataDirectory: URL?
    /// WebKit's DMA-BUF renderer (false: shared memory instead, for GPU stacks that show
    /// blank windows with it). Process-wide: the first container's choice holds.
    public var dmabufRenderer = true
    /// Whether media may start by itself (`[media] autoplay`); nil: `allow` for signage,
    /// WebKit's `muted` otherwise (see `Configuration.autoplayPolicy`).
    public var autoplay: AutoplayPolicy?
    /// The colour scheme pages see (`[window] color-scheme`): the desktop's, or fixed.
    public var colorScheme = ColorSchemeChoice.system
    /// Web processes run under bubblewrap (their own mount, pid and network namespaces, a
    /// seccomp filter, no view of `$HOME`). Process-wide: the first container's choice holds.
    public var sandboxesWebProcesses = true
    /// Whether a WebDriver session drives this run (`forAutomation()`; never from a file).
    public var drivenByAutomation = false
    /// Whether `--automation` may hand the app to a WebDriver session (`[security]
    /// allow-automation`); the kiosk preset refuses it.
    public var allowsAutomation = true
    /// Signage: pages in turn, reloads, the screen's hours (`[schedule]`); empty: none.
    public var schedule = Schedule()
    /// One fullscreen window per listed monitor (`[[displays]]`); empty: one window.
    public var displays: [DisplaySetting] = []
    /// The window split into rectangles, each with its own page or playlist (`[[zones]]`);
    /// empty: one page fills the window.
    public var zones: [Zone] = []
    /// Backend processes started before the first window and ended with the app
    /// (`[[sidecars]]`); empty: none.
    public var sidecars: [SidecarDeclaration] = []
    /// The on-screen keyboard's layout (one of `KeyboardLayout.shippedNames`); the keyboard
    /// itself is a kiosk option (`KioskOptions.onScreenKeyboard`).
    public var keyboardLayout = "us"
    /// Where the program writes its Prometheus metrics (node_exporter's textfile
    /// collector reads `*.prom` files); nil: no metrics file.
    public var metricsTextfile: URL?
    /// How often the metrics file is written.
    public var metricsInterval: Duration = .seconds(15)
    /// Where `cmd/support` PUTs its bundle (`[remote] support-upload`); nil: published on
    /// the broker's `support` topic.
    public var supportUpload: SecretURL?
    /// Keep crash and error reports in the app's data folder (`[reports] enabled`).
    public var keepsReports = true
    /// Where reports not sent yet are POSTed at start (`[reports] upload`); nil: kept only.
    public var reportsUpload: SecretURL?
    /// The app's id, under which its storage and window state are kept; nil: one made
    /// from the start page's origin (see `Configuration.applicationID`).
    public var applicationID: String?
    /// Whether `build()` derived `applicationID` (the configuration named none): a pushed
    /// configuration that names no id keeps the running app's.
    public internal(set) var applicationIDIsDerived = false
    /// Keep the first window's size, position (X11) and maximized state per application id
    /// and restore them at start (`[window] remember`; the `app` and `demo` presets' default).
    public var remembersWindowState = false
    /// The desktop's title bar and borders around the window (`[window] decorations`);
    /// false: a frameless window, moved by the page's drag regions and resized at its edges.
    public var decorated = true
    /// Closing the last window while a tray icon shows hides it (`[window] close-to-tray`).
    public var closesToTray = false
    /// Remote control through an MQTT broker (`[remote.mqtt]`); nil: none.
    public var mqtt: MQTTSettings?
    /// Silent printing (`[printing]`); nil: print requests follow the native-dialog policy
    /// (refused under kiosk lockdown).
    public var printing: PrintSettings?
    /// A live remote view over VNC (`[remote.vnc]`); nil: none.
    public var remoteView: RemoteViewSettings?
    /// Signed updates (`[update]`).
    public var update = UpdateSettings()

    /// The most windows of the app the `window` capability keeps open at once
    /// (`[capabilities] max-windows`); more are refused.
    public var maxWindows = 8
    /// Whether the `clipboard` capability writes from a hidden, minimized or unfocused
    /// window (`[capabilities] background-clipboard`); reads never do.
    public var backgroundClipboard = false
    /// The size at which an events file is renamed `FILE.1` and started afresh
    /// (`[events] max-size`).
    public var eventsLogMaxSize = 10 << 20
    /// Whether the events log gets the start-up's phases (`[events] startup-trace`).
    public var tracesStartup = false
    /// The URL schemes the app handles (`[app] url-schemes`): `myapp://…` opened on the
    /// desktop starts the app or reaches the running one as a `deep-link` event.
    public var urlSchemes: [String] = []
    /// The command that starts this app again (its program and arguments, such as
    /// `--config FILE`), for its autostart entry; nil: the running program, alone.
    public var launchCommand: [String]?

    public init() {}
}

