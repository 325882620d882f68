import Foundation

/// Keeps the apps' own data (storage capability, remembered window state) of a test run in
/// a folder of that run, never the user's.
public enum AppDataIsolation {
    /// Sets `XDG_DATA_HOME` to a folder of this process, once, before any container or
    /// program starts: containers read it, and programs the tests start inherit it.
    public static func keepAppDataInThisRun() {
        guard getenv("VITRINE_TESTS_DATA_SET") == nil else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-tests-data-\(getpid())").path
        setenv("XDG_DATA_HOME", folder, 1)
        setenv("VITRINE_TESTS_DATA_SET", "1", 1)
    }
}
