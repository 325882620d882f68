import Vitrine
import VitrineGTK

/// The check of the web processes' sandbox a run makes before its first view: started
/// before GTK (the probe runs meanwhile), judged just before the first container.
@MainActor
struct SandboxCheck {
    private let probe: SandboxProbe?

    /// Starts the probe for a sandboxed run; an unsandboxed run is warned about at every
    /// start, and goes on.
    init(_ configuration: Configuration) {
        if configuration.sandboxesWebProcesses {
            probe = SandboxProbe()
        } else {
            probe = nil
            printToStandardError(WebSandbox.unsandboxedWarning)
        }
    }

    /// Why the run cannot start (its sandbox cannot), or nil.
    func problem() -> String? { probe?.problem() }
}
