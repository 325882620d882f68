#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `[update]`: where the app looks for its signed updates and whose signature it trusts.
public struct UpdateSettings: Sendable, Equatable {
    /// The `update.json` `vitrine bundle --sign-key` wrote, where it is published.
    public var feed: URL?
    /// The key its manifest must be signed with (the `.pub` of `--new-key`).
    public var publicKey: UpdatePublicKey?
    /// How often the feed is checked in the background; zero: only when the page asks.
    public var checkEvery: Duration = .seconds(6 * 3600)
    /// The release channel the app follows (`vitrine bundle --channel`).
    public var channel = "stable"
    /// The program (and its first arguments) a `.deb` or `.rpm` update is handed to, the
    /// verified file appended; nil: `pkexec apt-get install -y` or `pkexec dnf install -y`.
    public var installCommand: [String]?
    /// The running app's version; nil: the `version` file `vitrine bundle` puts beside the
    /// program. An embedder that ships otherwise sets its own.
    public var runningVersion: String?
    /// How long a tarball update's new version has to load its page before the previous
    /// one comes back.
    public var handoffLimit: Duration = UpdateHandoff.defaultLimit
    /// How this app was installed; nil: told from the program's folder (`installedFormat`).
    public var format: UpdateFormat?

    public init() {}

    /// The file beside the program that says its version.
    public static let versionFileName = "version"

    /// The version this program runs as: `runningVersion`, else the first line of
    /// `version` in `programFolder`.
    public func running(programFolder: String) -> UpdateVersion? {
        if let runningVersion { return UpdateVersion(runningVersion) }
        return FileSystem.contents(of: programFolder + "/" + Self.versionFileName, limit: 256)
            .flatMap { UpdateVersion($0.trimmingWhitespace) }
    }

    /// How a program in `programFolder` was installed: a system package's folder
    /// (`/usr/lib/PACKAGE`) is a .deb on Debian and its kin, else an .rpm; anywhere else the
    /// relocatable tarball.
    public func installedFormat(programFolder: String, debianSystem: Bool) -> UpdateFormat {
        if let format { return format }
        guard programFolder.hasPrefix("/usr/lib/") else { return .tarball }
        return debianSystem ? .deb : .rpm
    }

    /// The installer's argument vector for `file` (never run through a shell).
    public func installArguments(for format: UpdateFormat, file: String) -> [String]? {
        if let installCommand, !installCommand.isEmpty { return installCommand + [file] }
        switch format {
        case .deb: return ["pkexec", "apt-get", "install", "-y", file]
        case .rpm: return ["pkexec", "dnf", "install", "-y", file]
        case .tarball: return nil
        }
    }

    /// Why these settings cannot check for updates (nil: they can), with the key it is about.
    public var problem: (message: String, key: String)? {
        if feed != nil, publicKey == nil { return ("update.feed needs update.public-key: without it no update could be verified", "update.public-key") }
        if feed == nil, publicKey != nil { return ("update.public-key needs update.feed: the update.json to check", "update.feed") }
        if !Self.acceptsChannel(channel) { return ("update channel '\(channel)' must be 1 to 32 letters, digits or '-'", "update.channel") }
        return nil
    }

    public static func acceptsChannel(_ channel: String) -> Bool {
        !channel.isEmpty && channel.utf8.count <= 32
            && channel.utf8.allSatisfy { (97...122).contains($0 | 0x20) || (48...57).contains($0) || $0 == 45 }
    }
}
