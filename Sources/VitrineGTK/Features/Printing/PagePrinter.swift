import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// The `print` capability's work for one view: GTK's print dialog for its page, or the page
/// as PDF without a dialog (GTK's file backend writes it into a private temporary folder;
/// the bytes are read and the folder removed).
///
/// Each job holds its operation (`g_object_ref`) and its `failed`/`finished` handlers
/// until WebKit says it finished; its caller is answered exactly once — then, or with a
/// failure when the window closes first (`tearDown`).
@MainActor
final class PagePrinter {
    fileprivate final class Job {
        let operation: UnsafeMutablePointer<WebKitPrintOperation>
        let folder: String
        var error: String?
        var answer: CheckedContinuation<[UInt8], any Error>?
        init(operation: UnsafeMutablePointer<WebKitPrintOperation>, folder: String, answer: CheckedContinuation<[UInt8], any Error>) {
            self.operation = operation
            self.folder = folder
            self.answer = answer
        }
    }

    private var jobs: [Job] = []
    private let signals = SignalConnections()

    /// The page of `view` as PDF laid out by `settings` (its destination is replaced).
    func pdf(of view: UnsafeMutablePointer<WebKitWebView>, settings: PrintSettings) async throws -> [UInt8] {
        guard jobs.count < 2 else { throw ScriptMessageError("print: pdf: two jobs of this window are running; wait for one") }
        guard let folder = g_dir_make_tmp("vitrine-print-XXXXXX", nil).flatMap(takeString) else {
            throw ScriptMessageError("print: pdf: no temporary folder to print into")
        }
        var fileSettings = settings
        fileSettings.destination = .file(URL(fileURLWithPath: folder + "/page.pdf"))
        let operation = webkit_print_operation_new(view)!
        let printSettings = gtk_print_settings_new()!
        let pageSetup = gtk_page_setup_new()!
        SilentPrinter.apply(fileSettings, to: printSettings, pageSetup)
        webkit_print_operation_set_print_settings(operation, printSettings)
        webkit_print_operation_set_page_setup(operation, pageSetup)
        g_object_unref(gptr(printSettings))
        g_object_unref(gptr(pageSetup))
        return try await withCheckedThrowingContinuation { continuation in
            let job = Job(operation: operation, folder: folder, answer: continuation)
            jobs.append(job)
            // The handlers hold the operation (SignalConnections refs it) until `finished`.
            let context = SignalContext(owner: self, item: job)
            signals.connect(gptr(operation), "failed", context: context, handler: gCallback(onPDFFailed))
            signals.connect(gptr(operation), "finished", context: context, handler: gCallback(onPDFFinished))
            g_object_unref(gptr(operation))
            webkit_print_operation_print(operation)
        }
    }

    fileprivate func failed(_ job: Job, _ message: String) { job.error = message }

    fileprivate func finished(_ job: Job) {
        let path = job.folder + "/page.pdf"
        let result: Result<[UInt8], any Error>
        if let error = job.error {
            result = .failure(ScriptMessageError("print: pdf: \(error)"))
        } else if let bytes = Self.read(path) {
            result = .success(bytes)
        } else {
            result = .failure(ScriptMessageError("print: pdf: the page could not be printed (no PDF, or over \(PrintCommand.sizeLimit) bytes)"))
        }
        end(job, result)
    }

    private func end(_ job: Job, _ result: Result<[UInt8], any Error>) {
        jobs.removeAll { $0 === job }
        signals.disconnect(from: gptr(job.operation))
        unlink(job.folder + "/page.pdf")
        rmdir(job.folder)
        job.answer?.resume(with: result)
        job.answer = nil
    }

    /// The file's bytes, when it is a regular file within the limit.
    private static func read(_ path: String) -> [UInt8]? {
        (try? FileSystem.readRegularFile(path, limit: PrintCommand.sizeLimit))?.bytes
    }

    /// GTK's print dialog for `view`'s page over `window`: whether the user printed. Run
    /// from its own main-loop turn: the dialog runs a loop of its own until it closes.
    func dialog(for view: UnsafeMutablePointer<WebKitWebView>, over window: UnsafeMutablePointer<GtkWindow>) async -> Bool {
        let operation = GObjectReference<WebKitPrintOperation>(adopting: webkit_print_operation_new(view)!)
        let parent = GObjectReference<GtkWindow>(retaining: window)
        return await withCheckedContinuation { continuation in
            MainLoopHop.post {
                let response = webkit_print_operation_run_dialog(operation.pointer, parent.pointer)
                continuation.resume(returning: response == WEBKIT_PRINT_OPERATION_RESPONSE_PRINT)
            }
        }
    }

    /// The window closed: every running job answers that it failed.
    func tearDown() {
        for job in jobs { end(job, .failure(ScriptMessageError("print: pdf: the window closed before the page was printed"))) }
        signals.disconnectAll()
    }
}

/// `failed`: `void (*)(WebKitPrintOperation*, GError*, gpointer)`; `finished` follows.
private let onPDFFailed: @convention(c) (OpaquePointer?, UnsafeMutablePointer<GError>?, gpointer?) -> Void = { _, error, data in
    let message = error.flatMap { string($0.pointee.message) } ?? "printing failed"
    onMainLoop(data) { data in
        guard let printer = SignalContext.owner(data, as: PagePrinter.self), let job = SignalContext.item(data, as: PagePrinter.Job.self) else { return }
        printer.failed(job, message)
    }
}

/// `finished`: `void (*)(WebKitPrintOperation*, gpointer)`.
private let onPDFFinished: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
    onMainLoop(data) { data in
        guard let printer = SignalContext.owner(data, as: PagePrinter.self), let job = SignalContext.item(data, as: PagePrinter.Job.self) else { return }
        printer.finished(job)
    }
}
