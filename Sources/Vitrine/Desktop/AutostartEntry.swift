#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The app's XDG autostart entry, `$XDG_CONFIG_HOME/autostart/<app id>.desktop`
/// (`~/.config/autostart/` by default): written to start the app at login, removed to stop.
/// Nothing is written anywhere else: a symlinked autostart folder or entry is refused, never
/// followed, so a link planted there cannot make the app write through it.
public struct AutostartEntry: Sendable {
    public let applicationID: String
    /// The user's configuration folder.
    public let configHome: URL

    public init(applicationID: String, configHome: URL = AutostartEntry.configHome) {
        self.applicationID = applicationID
        self.configHome = configHome
    }

    /// `$XDG_CONFIG_HOME` when it is an absolute path, else `~/.config`.
    public static var configHome: URL {
        let environment = ProcessInfo.processInfo.environment
        if let value = environment["XDG_CONFIG_HOME"], value.hasPrefix("/") { return URL(fileURLWithPath: value, isDirectory: true) }
        return URL(fileURLWithPath: environment["HOME"] ?? "/tmp").appendingPathComponent(".config", isDirectory: true)
    }

    public var folder: String { configHome.appendingPathComponent("autostart").path }
    public var path: String { folder + "/" + applicationID + ".desktop" }

    /// Whether the entry is there (a regular file).
    public var isEnabled: Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Writes `entry` (made an autostart entry) as the app's autostart file.
    public func enable(_ entry: DesktopEntry) throws(ScriptMessageError) {
        guard ApplicationID.accepts(applicationID) else { throw ScriptMessageError("autostart: '\(applicationID)' is not an app id") }
        var autostart = entry
        autostart.autostart = true
        let text = try autostart.text()
        // The configuration folder itself may be a link (dotfiles kept elsewhere): only made when missing.
        if !FileSystem.isDirectory(configHome.path), mkdir(configHome.path, 0o700) != 0 {
            throw ScriptMessageError("autostart: cannot make \(configHome.path): \(String(cString: strerror(errno)))")
        }
        try checkNotLinked(folder, creating: true)
        try checkNotLinked(path, creating: false)
        do {
            try FileSystem.replaceAtomically(path, with: Array(text.utf8))
        } catch {
            throw ScriptMessageError("autostart: \(error)")
        }
    }

    /// Removes the app's autostart file (nothing to do when there is none).
    public func disable() throws(ScriptMessageError) {
        try checkNotLinked(folder, creating: false)
        try checkNotLinked(path, creating: false)
        guard unlink(path) == 0 || errno == ENOENT else {
            throw ScriptMessageError("autostart: cannot remove \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Refuses a symlink (or anything but a folder/file of its own) at `path`; with
    /// `creating`, makes a missing folder (mode 0700 for a new configuration folder).
    private func checkNotLinked(_ path: String, creating: Bool) throws(ScriptMessageError) {
        var info = stat()
        if lstat(path, &info) != 0 {
            guard errno == ENOENT else { throw ScriptMessageError("autostart: cannot look at \(path): \(String(cString: strerror(errno)))") }
            if creating, mkdir(path, 0o700) != 0, errno != EEXIST {
                throw ScriptMessageError("autostart: cannot make \(path): \(String(cString: strerror(errno)))")
            }
            return
        }
        let kind = info.st_mode & S_IFMT
        if kind == S_IFLNK { throw ScriptMessageError("autostart: \(path) is a symbolic link; refusing to write through it") }
        if creating && kind != S_IFDIR { throw ScriptMessageError("autostart: \(path) is not a folder") }
        if !creating && path == self.path && kind != S_IFREG { throw ScriptMessageError("autostart: \(path) is not a regular file") }
    }
}
