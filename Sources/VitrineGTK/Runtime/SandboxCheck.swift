import Vitrine

/// The check of the web processes' sandbox a run makes before its first view: started
/// before GTK (the probe runs meanwhile), judged just before the first container.
@MainActor
public struct SandboxCheck {
    private let probe: SandboxProbe?

    /// Starts the probe for a sandboxed run; an unsandboxed run is warned about at every
    /// start, and goes on.
    public init(_ configuration: Configuration) {
        if configuration.sandboxesWebProcesses {
            probe = SandboxProbe()
        } else {
            probe = nil
            printToStandardError(WebSandbox.unsandboxedWarning)
        }
    }

    /// Why the run cannot start (its sandbox cannot), or nil.
    public func problem() -> String? {
        guard let probe else { return nil }
        defer { StartupTrace.process.mark(.sandboxProbed) }
        return probe.problem()
    }
}
