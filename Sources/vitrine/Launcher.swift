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

/// Runs one container under GTK's main loop and turns its life into an exit status:
/// 0 when the window closes (or after the first load with `--exit-after-load`),
/// 1 when the first load fails or the screenshot cannot be written, 2 on load timeout.
@MainActor
final class Launcher {
    private let configuration: Configuration
    private let eventLog: JSONLinesEventLog?
    private let screenshot: String?
    private let exitAfterLoad: Bool
    private let loadTimeout: Double
    private var status: Int32 = 0
    private var firstLoadSettled = false

    init(configuration: Configuration, eventLog: JSONLinesEventLog?, screenshot: String?, exitAfterLoad: Bool, loadTimeout: Double) {
        self.configuration = configuration
        self.eventLog = eventLog
        self.screenshot = screenshot
        self.exitAfterLoad = exitAfterLoad
        self.loadTimeout = loadTimeout
    }

    func run() -> Int32 {
        GTKRuntime.initialize()
        let container = WebContainer(configuration: configuration)
        if let eventLog { container.addEventSink(eventLog) }
        container.onClose = { GTKRuntime.quit() }
        container.loadObservers.append { [weak self, weak container] event, _ in
            guard let self, let container, !self.firstLoadSettled else { return }
            switch event {
            case "finished": self.firstLoadFinished(container)
            case "failed": self.finish(status: 1, message: "the first load failed")
            default: break
            }
        }
        if screenshot != nil || exitAfterLoad {
            Task { @MainActor [weak self] in
                try? await Task.sleep(for: .seconds(self?.loadTimeout ?? 60))
                guard let self, !self.firstLoadSettled else { return }
                self.finish(status: 2, message: "the first load did not finish within \(self.loadTimeout) s")
            }
        }
        container.start()
        GTKRuntime.run()
        return status
    }

    private func firstLoadFinished(_ container: WebContainer) {
        firstLoadSettled = true
        guard let screenshot else {
            if exitAfterLoad { finish(status: 0, message: nil) }
            return
        }
        Task { @MainActor in
            do {
                try await container.snapshot(to: screenshot)
                printToStandardError("vitrine: screenshot written to \(screenshot)")
                if exitAfterLoad { finish(status: 0, message: nil) }
            } catch {
                finish(status: 1, message: "cannot write the screenshot: \(error)")
            }
        }
    }

    private func finish(status: Int32, message: String?) {
        firstLoadSettled = true
        self.status = status
        if let message { printToStandardError("vitrine: error: \(message)") }
        GTKRuntime.quit()
    }
}

/// Writes a line for the person running the program.
func printToStandardError(_ line: String) {
    fputs(line + "\n", stderr)
}
