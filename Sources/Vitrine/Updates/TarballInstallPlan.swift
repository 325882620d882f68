/// Where a relocatable tarball's update goes, next to the running version: the app runs
/// from `<parent>/<package>-<version>/`, the new version is unpacked beside it as
/// `<parent>/<package>-<new>/`, and the link `<parent>/<package>` (which the desktop entry
/// and launchers run through) is swapped to it atomically (a link at a temporary name,
/// then rename(2)). The previous folder stays, for a rollback.
public struct TarballInstallPlan: Sendable, Equatable {
    public let parent: String
    public let package: String
    public let product: String
    public let runningFolder: String
    public let newFolder: String
    /// `<parent>/<package>`: the stable path to the current version.
    public let link: String
    /// The link made beside `link`, then renamed over it.
    public let linkTemporary: String
    /// The download, beside its target (same file system: nothing crosses a mount).
    public let download: String
    /// Where the archive is unpacked before its folder is moved into place.
    public let staging: String
    /// The file the new process writes once its page loaded (`UpdateHandoff.beaconVariable`).
    public let beacon: String
    /// The new version's program, through the link.
    public let newProgram: String
    /// The archive's one folder, and the program inside it that must be there.
    public let archiveFolder: String
    public var archiveProgram: String { archiveFolder + "/" + product }

    /// The plan for the program at `programPath` (`/opt/apps/shop-1.0.0/shop`), or nil when it
    /// does not run from `<package>-<running>/` (not a relocatable tarball's layout).
    public init?(programPath: String, package: String, running: UpdateVersion, offered: UpdateVersion) {
        let parts = programPath.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3, UpdatePackageName.accepts(package) else { return nil }
        let folderName = String(parts[parts.count - 2])
        guard folderName == "\(package)-\(running)" else { return nil }
        product = String(parts[parts.count - 1])
        parent = parts.dropLast(2).joined(separator: "/")
        self.package = package
        runningFolder = parent + "/" + folderName
        archiveFolder = "\(package)-\(offered)"
        newFolder = parent + "/" + archiveFolder
        link = parent + "/" + package
        linkTemporary = parent + "/.\(package).link-\(offered)"
        download = parent + "/.\(package)-\(offered).tar.gz.part"
        staging = parent + "/.\(package)-\(offered).unpacking"
        beacon = parent + "/.\(package)-\(offered).started"
        newProgram = link + "/" + product
    }

    /// The archive's entries to unpack, or why the tarball is refused: everything inside its
    /// one `<package>-<new>/` folder, only files and folders (the signage bundles' rules: no
    /// links, nothing outside, bounded), the program among them.
    public func acceptedEntries(_ entries: [BundleArchiveEntry], rules: BundleArchiveRules = .standard) -> Result<[BundleArchiveEntry], TarballRefusal> {
        for entry in entries {
            var path = Substring(entry.path)
            while path.hasPrefix("./") { path = path.dropFirst(2) }
            while path.hasSuffix("/") { path = path.dropLast() }
            guard path == archiveFolder || path.hasPrefix(archiveFolder + "/") else {
                return .failure(TarballRefusal(description: "the tarball holds more than its \(archiveFolder) folder"))
            }
        }
        return rules.plan(entries, entry: archiveProgram).mapError { TarballRefusal(description: "the tarball is refused: \($0)") }
    }

    /// The folders among `entries` (names in `parent`) that a successful update removes:
    /// versions older than the one it replaced, never the replaced one (kept for a rollback)
    /// nor the new one.
    public func obsoleteFolders(among entries: [String], replaced: UpdateVersion) -> [String] {
        entries.compactMap { name in
            guard name.hasPrefix(package + "-"), let version = UpdateVersion(String(name.dropFirst(package.count + 1))),
                  version < replaced else { return nil }
            return parent + "/" + name
        }
    }
}

/// Why a verified tarball is not unpacked.
public struct TarballRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// How the old process hands over to the new one: it starts the new version and stays up
/// until the new one says its page loaded (it writes the beacon file named by
/// `beaconVariable`); if the new one exits first, or misses the time limit, the old one
/// stops it and swaps the link back.
public enum UpdateHandoff {
    /// The environment variable naming the beacon file, set only for the new process.
    public static let beaconVariable = "VITRINE_UPDATE_BEACON"
    /// How long the new version has to load its page.
    public static let defaultLimit: Duration = .seconds(30)

    public enum Outcome: Sendable, Equatable {
        /// The new version loaded its page: the old one exits.
        case handedOver
        /// The old version comes back, for this reason (said to the page and the events log).
        case rolledBack(reason: String)
    }

    /// The outcome once something happened (nil: keep waiting). The beacon wins over an exit
    /// seen in the same turn: the page did load.
    public static func outcome(beaconWritten: Bool, exitStatus: Int32?, limitPassed: Bool, limit: Duration) -> Outcome? {
        if beaconWritten { return .handedOver }
        if let exitStatus { return .rolledBack(reason: "the new version exited (status \(exitStatus)) before its page loaded") }
        if limitPassed { return .rolledBack(reason: "the new version did not load its page within \(limit.components.seconds) s") }
        return nil
    }
}
