#if canImport(Glibc)
import Glibc
#endif
// Tools/flat-pkg-config compiles these files together with the core's file helpers, in
// one module of their own: no Vitrine to import there.
#if canImport(Vitrine)
import Vitrine
#endif

/// The folder of flattened `.pc` files (`FlatPkgConfig`) a build passes to SwiftPM with
/// `swift build --pkg-config-path FOLDER`, written again before every build so it follows
/// the system's libraries (a few pkg-config calls).
///
/// Used by `vitrine pkg-config-path`, `vitrine dev` and `vitrine bundle`, and, through
/// Tools/flat-pkg-config (built from these sources), by Vitrine's own Makefile, which has
/// no `vitrine` yet. Only this folder is written: it must be the user's own folder, not a
/// symlink; each file is replaced atomically, so a symlink planted at its name is replaced,
/// never followed.
public struct FlatPkgConfigFolder: Sendable, Equatable {
    /// pkg-config run with these arguments: its standard output, or nil when it failed (the
    /// package unknown) or could not be run.
    public typealias PkgConfig = ([String]) -> String?

    /// What became of one library.
    public enum Outcome: Sendable, Equatable {
        /// Written flattened.
        case written(FlatPkgConfig)
        /// pkg-config does not know it: no file, so SwiftPM looks further and, finding none
        /// either, gives its usual error (with the package to install).
        case unknown(String)
        /// Its flags could not be written back (a `#` in a path…): no file, so SwiftPM reads
        /// the system's own (and warns about the flags it drops).
        case unflattenable(String, FlatPkgConfigError)
    }

    /// The folder (absolute, or relative to the working folder).
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The folder's own name inside a SwiftPM build folder (`--scratch-path`).
    public static let nameInScratchFolder = "pkg-config"

    /// The folder inside a build folder: `<scratch>/pkg-config`.
    public init(scratchPath: String) {
        self.init(path: scratchPath.hasSuffix("/") ? scratchPath + Self.nameInScratchFolder : scratchPath + "/" + Self.nameInScratchFolder)
    }

    /// Writes `NAME.pc` for each of `names` that pkg-config knows, and removes the file of
    /// any it does not know (or whose flags cannot be written) so that SwiftPM's own
    /// lookup decides. Throws when the folder is not the user's own.
    @discardableResult
    public func refresh(names: [String] = FlatPkgConfig.vitrineLibraries,
                        pkgConfig: PkgConfig = FlatPkgConfigFolder.runPkgConfig) throws(FlatPkgConfigError) -> [Outcome] {
        try makeOwnFolder()
        var outcomes: [Outcome] = []
        for name in names {
            let file = path + "/" + name + ".pc"
            guard FlatPkgConfig.isPackageName(name),
                  let version = pkgConfig(["--modversion", name]),
                  let cflags = pkgConfig(["--cflags", name]),
                  let libs = pkgConfig(["--libs", name]) else {
                if FlatPkgConfig.isPackageName(name) { unlink(file) }
                outcomes.append(.unknown(name))
                continue
            }
            let flat: FlatPkgConfig
            do {
                flat = try FlatPkgConfig(name: name, version: version, cflagsOutput: cflags, libsOutput: libs)
            } catch {
                unlink(file)
                outcomes.append(.unflattenable(name, error))
                continue
            }
            do {
                try FileSystem.replaceAtomically(file, with: Array(flat.text.utf8))
            } catch {
                throw FlatPkgConfigError(error.description)
            }
            outcomes.append(.written(flat))
        }
        return outcomes
    }

    /// Creates the folder (and missing parents) and checks it is a real folder of this user's.
    private func makeOwnFolder() throws(FlatPkgConfigError) {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o755) != 0 && errno != EEXIST {
                throw FlatPkgConfigError("cannot create '\(partial)': \(String(cString: strerror(errno)))")
            }
        }
        guard isOwnFolder else {
            throw FlatPkgConfigError("'\(path)' is not a folder of this user's (a symlink, a file or another user's folder): nothing written there")
        }
    }

    /// Whether `path` itself (not followed) is a folder this user owns.
    private var isOwnFolder: Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR && info.st_uid == getuid()
    }

    /// Runs `pkg-config ARGUMENTS` (its errors discarded: SwiftPM reports a missing library
    /// in its own words).
    public static func runPkgConfig(_ arguments: [String]) -> String? {
        let quoted = arguments.map { "'" + $0.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'" }
        guard let pipe = popen((["pkg-config"] + quoted).joined(separator: " ") + " 2>/dev/null", "r") else { return nil }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, pipe)
            if count <= 0 { break }
            output += buffer[0..<count]
        }
        guard pclose(pipe) == 0 else { return nil }
        return String(decoding: output, as: UTF8.self)
    }
}
