#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A Swift package `vitrine dev` builds and runs as the app (a `vitrine new` project): its
/// folder has a `Package.swift` and one executable target, `Sources/NAME/main.swift`.
public struct DevProject: Sendable, Equatable {
    /// The package's folder.
    public let folder: URL
    /// The executable product `swift build` makes (the target's name).
    public let product: String
    /// SwiftPM's build folder (`--scratch-path`; default `.build` in the package).
    public let scratchPath: URL

    /// The project in `folder`, or nil when `folder` has no `Package.swift` (not a package:
    /// `vitrine dev` serves it as a plain web folder). Throws when it is a package whose
    /// program cannot be told (none or several `Sources/*/main.swift`, and no `product`).
    public init?(folder: URL, product: String? = nil, scratchPath: URL? = nil) throws(DevProjectError) {
        let folder = folder.standardizedFileURL
        guard FileSystem.isRegularFile(folder.appendingPathComponent("Package.swift").path) else { return nil }
        self.folder = folder
        self.scratchPath = (scratchPath ?? folder.appendingPathComponent(".build")).standardizedFileURL
        if let product {
            self.product = product
            return
        }
        let sources = folder.appendingPathComponent("Sources")
        let targets = ((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []).sorted().filter {
            FileSystem.isRegularFile(sources.appendingPathComponent($0).appendingPathComponent("main.swift").path)
        }
        guard targets.count == 1 else { throw DevProjectError(folder: folder, executables: targets) }
        self.product = targets[0]
    }

    /// The folder of flattened `.pc` files the build reads first (`<scratch>/pkg-config`):
    /// the tool writes it before each build (`FlatPkgConfigFolder(scratchPath:)`, VitrineTooling).
    public var pkgConfigPath: String { scratchPath.appendingPathComponent("pkg-config").path }

    /// `swift build`'s arguments (after `swift`).
    public var buildArguments: [String] {
        ["build", "--package-path", folder.path, "--scratch-path", scratchPath.path, "--product", product,
         "--pkg-config-path", pkgConfigPath]
    }

    /// The program `swift build` makes (`<scratch>/debug/<product>`).
    public var executable: URL { scratchPath.appendingPathComponent("debug").appendingPathComponent(product) }

    /// The web folder reloaded on change: `web/`, else the package's folder.
    public var webFolder: URL {
        let web = folder.appendingPathComponent("web")
        return FileSystem.isDirectory(web.path) ? web : folder
    }

    /// What a change rebuilds: the sources and the manifest.
    public var swiftFolder: URL { folder.appendingPathComponent("Sources") }

    /// Whether a changed file is the program's (a rebuild) rather than noise: Swift and C
    /// sources, the manifest; not editors' scratch files.
    public static func rebuilds(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard !name.hasPrefix("."), !name.hasSuffix("~") else { return false }
        return [".swift", ".c", ".h", ".json"].contains { name.hasSuffix($0) }
    }
}

/// A package whose program `vitrine dev` cannot tell.
public struct DevProjectError: Error, CustomStringConvertible, Equatable {
    public let folder: URL
    public let executables: [String]

    public init(folder: URL, executables: [String]) {
        self.folder = folder
        self.executables = executables
    }

    public var description: String {
        executables.isEmpty
            ? "\(folder.path) is a Swift package without Sources/NAME/main.swift: name its program with --product"
            : "\(folder.path) has several programs (\(executables.joined(separator: ", "))): choose one with --product"
    }
}
