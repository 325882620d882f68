import CWebKitGTK
import Vitrine
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The process-wide GTK state: one `gtk_init`, the main-queue bridge, the main loop.
///
/// GTK is single-threaded: everything here runs on the main thread.
@MainActor
public enum GTKRuntime {
    private static var isInitialized = false
    /// The process's application id (WM_CLASS, Wayland app id), fixed by the first
    /// `initialize`: the app's (`VitrineApplication`), else the stock one.
    public private(set) static var applicationID = ApplicationID.stock
    /// The application whose `g_application_run` runs the loop, if one does (`quit` ends it).
    static var runningApplication: UnsafeMutablePointer<GApplication>?
    /// What WebKit reads when it starts the first web process, unset at the first load
    /// request (`RenderingChoice.firstWebProcessEnvironment`).
    private static var untilFirstLoad: [String] = []

    /// Whether a display can be opened (GTK needs one for windows).
    public nonisolated static var hasDisplay: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil
    }

    /// Initialises GTK once, with `applicationID` as the process's window class, and joins
    /// the main actor to GLib's loop; first sets what GTK and WebKit read from the environment
    /// for `configuration` (its renderer choice and `dmabuf-renderer`), the process's first.
    /// Later calls change nothing.
    public static func initialize(applicationID: String = ApplicationID.stock, for configuration: Configuration? = nil) {
        guard !isInitialized else { return }
        isInitialized = true
        self.applicationID = applicationID
        let (firstContextOnly, firstLoadOnly) = configuration.map { setWebKitEnvironment(for: $0) } ?? ([], [])
        untilFirstLoad = firstLoadOnly
        // The application id is Wayland's app id and both halves of X11's WM_CLASS, so docks
        // match the window with <id>.desktop (which names the icon) and group each app
        // apart. (No default window icon: loading it pulls in the icon theme and librsvg,
        // 6 MB for a kiosk that shows no title bar.)
        g_set_prgname(applicationID)
        // GDK's own `--class` option, the one way to set the class of every window, the
        // hidden client leader's included (gtk_init otherwise capitalises the name:
        // Org.vitrine.Vitrine, and `gdk_set_program_class` comes too late for the leader).
        let program: String = CommandLine.arguments.first ?? applicationID
        let words: [String] = [program, "--class", applicationID]
        let arguments = words.map { strdup($0) }
        defer { arguments.forEach { free($0) } }
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = .allocate(capacity: arguments.count + 1)
        let buffer = argv
        defer { buffer?.deallocate() }
        for (index, argument) in arguments.enumerated() { argv?[index] = argument }
        argv?[arguments.count] = nil
        var argc = Int32(arguments.count)
        gtk_init(&argc, &argv)
        StartupTrace.process.mark(.gtkInitialized)
        MainLoopBridge.install()
        // WebKit disposes its default context in an atexit handler, and disposing it off
        // the main thread aborts. Programs with an async entry point (Swift Testing's
        // runner among them) call exit() from a worker thread, so the context is kept
        // for the life of the process instead.
        g_object_ref(gptr(webkit_web_context_get_default()))
        // GTK and WebKit have read them (WebKit keeps what its first context found); the
        // programs this one starts, its web processes included, make their own choice. (GDK unsets
        // DESKTOP_STARTUP_ID the same way, with threads already running.)
        for name in firstContextOnly { unsetenv(name) }
    }

    /// Runs GTK's main loop until `quit()`. Call from the main thread outside any
    /// main-queue job (a command-line program's top level), so the bridge can drain the
    /// main queue: async handlers and `@MainActor` tasks run while the loop runs.
    public static func run() {
        initialize()
        whileQuittingOnSignals { gtk_main() }
    }

    /// Runs `loop` with SIGTERM and SIGINT ending it through `quit()`.
    static func whileQuittingOnSignals(_ loop: () -> Void) {
        // SIGTERM (systemd, the benchmarks) and SIGINT end the loop like closing the window
        // does: WebKit stops its processes and the caller flushes its logs.
        let quitOnSignal: GSourceFunc = { _ in
            MainActor.assumeIsolated { GTKRuntime.quit() }
            return gboolean(1) // G_SOURCE_CONTINUE: a second signal finds the loop ending
        }
        // A parent may have started the program with these signals blocked (a mask is
        // inherited: a libdispatch worker thread, say, blocks them); handled, they must arrive.
        var handled = sigset_t()
        sigemptyset(&handled)
        sigaddset(&handled, SIGTERM)
        sigaddset(&handled, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        let terminate = g_unix_signal_add(SIGTERM, quitOnSignal, nil)
        let interrupt = g_unix_signal_add(SIGINT, quitOnSignal, nil)
        loop()
        g_source_remove(terminate)
        g_source_remove(interrupt)
    }

    /// Sets what WebKit reads from the environment once per process (`webKitEnvironment`):
    /// effective only before the process's first web view, so the first container's
    /// choice holds.
    static func setWebKitEnvironment(_ environment: [String: String]) {
        for (name, value) in environment { setenv(name, value, 1) }
    }

    /// Sets what GTK and WebKit read from the environment for `configuration`: for the
    /// process's life (`Configuration.webKitEnvironment`), until the first web context
    /// (`RenderingChoice.firstContextEnvironment`) and until the first load
    /// (`RenderingChoice.firstWebProcessEnvironment`); returns the names of the last two.
    /// Before GTK starts: no other thread reads the environment yet.
    private static func setWebKitEnvironment(for configuration: Configuration) -> (firstContext: [String], firstLoad: [String]) {
        setWebKitEnvironment(configuration.webKitEnvironment)
        let choice = ProcessRendering.choice(for: configuration)
        let environment = ProcessInfo.processInfo.environment.merging(configuration.webKitEnvironment) { $1 }
        let firstContext = choice.firstContextEnvironment(given: environment)
        let firstLoad = choice.firstWebProcessEnvironment(given: environment)
        for (name, value) in firstContext.merging(firstLoad, uniquingKeysWith: { $1 }) { setenv(name, value, 1) }
        return (Array(firstContext.keys), Array(firstLoad.keys))
    }

    /// A view asked for a load: WebKit has started its first web process by now (the first
    /// load starts it, if nothing did before), so what it read then leaves the environment
    /// of the programs this one starts.
    static func loadRequested() {
        guard !untilFirstLoad.isEmpty else { return }
        for name in untilFirstLoad { unsetenv(name) }
        untilFirstLoad = []
    }

    /// Ends the running loop: GTK's, or the application's.
    public static func quit() {
        if gtk_main_level() > 0 { gtk_main_quit() }
        if let runningApplication { g_application_quit(runningApplication) }
    }

    /// Runs `work` once, the next time GLib's main loop is about to wait: after everything
    /// it dispatches in the current turn, however busy it is. Costs the loop no extra turn
    /// and no wake-up. A `JSONLinesEventLog.FlushScheduler`.
    public static func beforeNextWait(_ work: @escaping @MainActor () -> Void) {
        BeforeWaitSource.shared.add(work)
    }
}
