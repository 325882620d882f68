import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// `--automation`: the app as a WebDriver session's browser (see `AutomationHost`).
extension VitrineApplication {
    /// Names the app to the driver and answers the session's view requests with its own
    /// windows. The session ends by closing them (the program ends with its last window),
    /// or the driver ends the program.
    func startAutomation() {
        automationHost = AutomationHost(context: ProcessWebContext.current, name: configuration.automationBrowserName,
                                        version: VitrineVersion.string) { [weak self] in self?.viewForAutomation() }
        printToStandardError("\(Self.programName): waiting for a WebDriver session (\(configuration.automationBrowserName) \(VitrineVersion.string))")
        if let warning = RenderingChoice.automationWarning(environment: ProcessInfo.processInfo.environment) {
            printToStandardError("\(Self.programName): warning: \(warning)")
        }
    }

    /// The first window's view for the session's first request; a new window of the app
    /// (the same configuration, so the same rules) for each later one.
    private func viewForAutomation() -> UnsafeMutablePointer<WebKitWebView>? {
        guard let container, !container.isTornDown else { return nil }
        if !gaveFirstViewToAutomation {
            gaveFirstViewToAutomation = true
            return container.stage.activePane.view.pointer
        }
        let window = WebContainer(configuration: configuration, joining: container.windows)
        window.sinks = container.sinks
        window.start()
        return window.stage.activePane.view.pointer
    }
}
