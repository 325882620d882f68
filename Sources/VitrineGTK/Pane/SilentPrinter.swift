import CWebKitGTK
import Vitrine

/// `[printing]`: a page's print request printed at once with the configured settings, no
/// dialog (`PrintJobs` decides; this turns its decision into a `WebKitPrintOperation`).
///
/// One job at a time: the operation is held (`g_object_ref`) with its `failed` and
/// `finished` handlers until WebKit says it finished; the job's event is recorded exactly
/// once (`PrintJobs.finish` ignores a second end). With the printer gone first, the
/// handlers find no owner and only release the operation.
@MainActor
final class SilentPrinter {
    private weak var pane: WebPane?
    private var jobs: PrintJobs
    /// The running job's operation, its handlers, and the error `failed` reported.
    private var running: (job: Int, operation: UnsafeMutablePointer<WebKitPrintOperation>, error: String?)?
    private let signals = SignalConnections()

    init(pane: WebPane) {
        self.pane = pane
        jobs = PrintJobs(settings: pane.configuration.printing)
    }

    /// Whether `[printing]` took the request (printing it, or refusing it with an event);
    /// false: printing is not configured and the native-dialog policy decides.
    func handle(_ operation: UnsafeMutablePointer<WebKitPrintOperation>) -> Bool {
        switch jobs.request(at: Self.now) {
        case .notConfigured:
            return false
        case .refused(let event):
            pane?.record(event)
            return true
        case let .print(job, settings):
            start(job, operation, settings)
            return true
        }
    }

    private func start(_ job: Int, _ operation: UnsafeMutablePointer<WebKitPrintOperation>, _ settings: PrintSettings) {
        let printSettings = gtk_print_settings_new()!
        let pageSetup = gtk_page_setup_new()!
        Self.apply(settings, to: printSettings, pageSetup)
        webkit_print_operation_set_print_settings(operation, printSettings)
        webkit_print_operation_set_page_setup(operation, pageSetup)
        g_object_unref(gptr(printSettings))
        g_object_unref(gptr(pageSetup))
        running = (job, operation, nil)
        // Both handlers hold the operation (SignalConnections refs it) until `finished`.
        let context = SignalContext(owner: self)
        signals.connect(gptr(operation), "failed", context: context, handler: gCallback(onPrintFailed))
        signals.connect(gptr(operation), "finished", context: context, handler: gCallback(onPrintFinished))
        webkit_print_operation_print(operation)
    }

    fileprivate func failed(_ message: String) {
        running?.error = message
    }

    fileprivate func finished() {
        guard let running else { return }
        self.running = nil
        signals.disconnect(from: gptr(running.operation))
        if let event = jobs.finish(running.job, error: running.error, at: Self.now) { pane?.record(event) }
    }

    /// Lets the running job go (WebKit may still print it) and reports it unfinished.
    func tearDown() {
        if let running {
            self.running = nil
            if let event = jobs.finish(running.job, error: "the window closed before the job finished", at: Self.now) { pane?.record(event) }
        }
        signals.disconnectAll()
    }

    /// GLib's monotonic clock.
    private static var now: Duration { .microseconds(g_get_monotonic_time()) }

    static func apply(_ settings: PrintSettings, to printSettings: OpaquePointer,
                              _ pageSetup: OpaquePointer) {
        switch settings.destination {
        case .systemDefault:
            break  // no printer named: WebKit takes CUPS's default
        case .printer(let queue):
            gtk_print_settings_set_printer(printSettings, queue)
        case .file(let uri):
            // GTK's file backend names its one printer with its own translated text.
            gtk_print_settings_set_printer(printSettings, g_dgettext("gtk30", "Print to File"))
            gtk_print_settings_set(printSettings, "output-uri", uri.absoluteString)
            gtk_print_settings_set(printSettings, "output-file-format", "pdf")
        }
        gtk_print_settings_set_n_copies(printSettings, gint(settings.copies))
        let orientation = settings.orientation == .landscape ? GTK_PAGE_ORIENTATION_LANDSCAPE : GTK_PAGE_ORIENTATION_PORTRAIT
        gtk_print_settings_set_orientation(printSettings, orientation)
        gtk_page_setup_set_orientation(pageSetup, orientation)
        if let paper = settings.paperSize {
            let size: OpaquePointer? = switch paper {
            case .named(let name): gtk_paper_size_new(name)
            case let .custom(width, height): gtk_paper_size_new_custom("custom", "custom", width, height, GTK_UNIT_MM)
            }
            if let size {
                gtk_page_setup_set_paper_size(pageSetup, size)
                gtk_print_settings_set_paper_size(printSettings, size)
                gtk_paper_size_free(size)
            }
        }
        if let margins = settings.margins {
            gtk_page_setup_set_top_margin(pageSetup, margins, GTK_UNIT_MM)
            gtk_page_setup_set_bottom_margin(pageSetup, margins, GTK_UNIT_MM)
            gtk_page_setup_set_left_margin(pageSetup, margins, GTK_UNIT_MM)
            gtk_page_setup_set_right_margin(pageSetup, margins, GTK_UNIT_MM)
        }
    }
}

/// `failed`: `void (*)(WebKitPrintOperation*, GError*, gpointer)`; `finished` follows.
private let onPrintFailed: @convention(c) (OpaquePointer?, UnsafeMutablePointer<GError>?, gpointer?) -> Void = { _, error, data in
    let message = error.flatMap { string($0.pointee.message) } ?? "printing failed"
    onMainLoop(data) { data in SignalContext.owner(data, as: SilentPrinter.self)?.failed(message) }
}

/// `finished`: `void (*)(WebKitPrintOperation*, gpointer)`.
private let onPrintFinished: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
    onMainLoop(data) { data in SignalContext.owner(data, as: SilentPrinter.self)?.finished() }
}
