#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Finds Vitrine's Resources folder (demo app, error pages, JS SDK) at run time.
///
/// SwiftPM only bundles resources inside a target's folder, so the top-level Resources/
/// is looked up in this order: `$VITRINE_RESOURCES`; `vitrine-resources/` beside the
/// program (an app made by `vitrine bundle`, wherever it is installed or unpacked); the
/// installed data directory (`<prefix>/share/vitrine`, next to `<prefix>/bin/vitrine`); and, for a program still in
/// its SwiftPM build folder (`.build…/`), the source tree it was built from — never for an
/// installed program, which must not silently serve files from wherever it was built.
/// The first folder that exists wins.
public struct ResourceLocator: Sendable {
    public let directory: URL

    /// The folder beside a packaged app's program that holds Vitrine's resources.
    public static let besideProgramFolder = "vitrine-resources"

    public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                executable: URL = ResourceLocator.runningExecutable,
                sourceFile: String = ResourceLocator.coreSourceFile) {
        let candidates = Self.candidates(environment: environment, executable: executable, sourceFile: sourceFile)
        directory = candidates.first { Self.isDirectory($0) } ?? candidates[0]
    }

    /// Every place looked at, in order.
    public static func candidates(environment: [String: String], executable: URL, sourceFile: String) -> [URL] {
        var list: [URL] = []
        if let override = environment["VITRINE_RESOURCES"], !override.isEmpty {
            list.append(URL(fileURLWithPath: override))
        }
        // <folder>/<App> → <folder>/vitrine-resources (an app's relocatable package)
        list.append(executable.deletingLastPathComponent().appendingPathComponent(Self.besideProgramFolder))
        // <prefix>/bin/vitrine → <prefix>/share/vitrine
        let prefix = executable.deletingLastPathComponent().deletingLastPathComponent()
        list.append(prefix.appendingPathComponent("share/vitrine"))
        if executable.pathComponents.contains(where: { $0.hasPrefix(".build") }) {
            list.append(sourceTreeResources(sourceFile))
        }
        return list
    }

    /// This process's program, symbolic links resolved: `/proc/self/exe`, which holds
    /// wherever the program was started from (`argv[0]` is only `vitrine` when found
    /// on the PATH); `argv[0]` where there is no `/proc`.
    public static var runningExecutable: URL {
        let proc = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return proc.path == "/proc/self/exe" ? URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath() : proc
    }

    public var demoDirectory: URL { directory.appendingPathComponent("demo") }
    /// The page SDK's JavaScript files, injected into every page, and their types.
    public var sdkDirectory: URL { directory.appendingPathComponent("sdk") }
    /// The on-screen keyboard's layouts (`NAME.json`, see `KeyboardLayout`).
    public var keyboardDirectory: URL { directory.appendingPathComponent("keyboard") }

    /// This file's path, fixed here: a `#filePath` default argument would be the caller's file,
    /// so the source-tree fallback would depend on where `ResourceLocator()` is written.
    @usableFromInline static let coreSourceFile: String = #filePath

    private static func sourceTreeResources(_ sourceFile: String) -> URL {
        // Sources/Vitrine/Support/ResourceLocator.swift → <package>/Resources
        URL(fileURLWithPath: sourceFile)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources")
    }

    private static func isDirectory(_ url: URL) -> Bool {
        FileSystem.isDirectory(url.path)
    }
}
