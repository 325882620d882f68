import Vitrine
import VitrineGTK

/// Before the first view: why a sandboxed run cannot start (its sandbox cannot), or nil.
/// An unsandboxed run is warned about at every start, and goes on.
@MainActor
func sandboxStartProblem(_ configuration: Configuration) -> String? {
    guard configuration.sandboxesWebProcesses else {
        printToStandardError(WebSandbox.unsandboxedWarning)
        return nil
    }
    return SandboxProbe.problem()
}
