#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The web processes' sandbox (WebKit's bubblewrap launcher): whether it can start on this
/// machine, decided before the first view, and what the person running the program is told.
///
/// WebKitGTK aborts the whole program (or leaves a blank window) when `bwrap` or
/// `xdg-dbus-proxy` cannot start, long after the window is up. A probe run first — the
/// same helper, the same kinds of namespaces — turns that into one clear error at start.
public enum WebSandbox {
    /// The programs WebKit's sandbox runs (fixed paths compiled into WebKitGTK).
    public static let bubblewrap = "/usr/bin/bwrap"
    public static let dbusProxy = "/usr/bin/xdg-dbus-proxy"

    /// The probe: `bwrap` making the namespaces WebKit's web processes get (user when
    /// unprivileged, mount, pid, network, IPC, UTS) and running the D-Bus proxy inside them.
    public static let probeArguments = [
        bubblewrap, "--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev",
        "--", dbusProxy, "--help",
    ]

    /// How the opt-out reads in a configuration file and on the command line.
    public static let optOut = "`sandbox = false` under [security] in the configuration file (or --no-sandbox)"

    /// The warning printed at every start of an unsandboxed run.
    public static let unsandboxedWarning =
        "vitrine: warning: the web-process sandbox is off ([security] sandbox = false): a page that takes over its web process can read every file this user can"

    /// Why the sandbox cannot start, from the probe's outcome (nil: it can). `launchError`
    /// is set when the probe could not be started at all; otherwise `status` and `output`
    /// are its exit status and what it printed.
    public static func problem(launchError: String?, status: Int32, output: String) -> String? {
        let fix = "; fix that, or run without the sandbox: \(optOut)"
        if launchError != nil, !FileManager.default.isExecutableFile(atPath: bubblewrap) {
            return "the web-process sandbox cannot start: \(bubblewrap) is missing (install the bubblewrap package)" + fix
        }
        if !FileManager.default.isExecutableFile(atPath: dbusProxy) {
            return "the web-process sandbox cannot start: \(dbusProxy) is missing (install the xdg-dbus-proxy package)" + fix
        }
        if let launchError { return "the web-process sandbox cannot start: \(bubblewrap) cannot be run (\(launchError))" + fix }
        guard status != 0 else { return nil }
        let said = output.split(separator: "\n").map { String($0.drop { $0 == " " }) }
            .first { $0.hasPrefix("bwrap:") } ?? "exit status \(status)"
        return "the web-process sandbox cannot start: \(said)"
            + " (bubblewrap needs user namespaces, or namespaces this process may create)" + fix
    }
}
