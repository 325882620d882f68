import Foundation
import PackagePlugin

/// `swift package generate-vitrine-types [--output FILE]`: runs `vitrine-types` on the
/// package's Swift source targets and writes the page's declarations (default:
/// web/strategies.d.ts, the file `vitrine new` made).
///
/// The generator is the package Tools/vitrine-types of the Vitrine checkout this plugin comes
/// from, built here on first use (swift-syntax: a few minutes, once) into the plugin's work
/// folder, so that no `swift build` of Vitrine or of an app builds swift-syntax.
@main
struct GenerateVitrineTypes: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let output = extractor.extractOption(named: "output").last ?? "web/strategies.d.ts"
        let root = context.package.directoryURL
        let sources = context.package.targets.compactMap { $0 as? SwiftSourceModuleTarget }
            .filter { $0.kind != .test }
            .map { $0.directoryURL.path }
        let tool = try buildGenerator(into: context.pluginWorkDirectoryURL.appending(path: "vitrine-types"))
        let status = try run(tool, ["--root", root.path, "--output", root.appending(path: output).path] + sources)
        guard status == 0 else {
            Diagnostics.error("vitrine-types exited with status \(status)")
            return
        }
    }

    /// Tools/vitrine-types next to this file's Plugins/ folder: the checkout's own copy.
    private static let generatorPackage = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Tools/vitrine-types")

    /// Builds the generator (nothing to do when it is up to date) and returns its path.
    private func buildGenerator(into scratch: URL) throws -> URL {
        let package = Self.generatorPackage
        guard FileManager.default.fileExists(atPath: package.appending(path: "Package.swift").path) else {
            throw GeneratorError("no generator package at \(package.path)")
        }
        let build = ["build", "--package-path", package.path, "--scratch-path", scratch.path, "--product", "vitrine-types"]
        if !FileManager.default.fileExists(atPath: scratch.path) {
            Diagnostics.remark("building vitrine-types (swift-syntax) the first time: a few minutes")
        }
        guard try run(URL(fileURLWithPath: "/usr/bin/env"), ["swift"] + build) == 0 else {
            throw GeneratorError("could not build \(package.path) (swift build failed, see above)")
        }
        let binPath = Pipe()
        let showBin = Process()
        showBin.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        showBin.arguments = ["swift"] + build.dropLast(2) + ["--show-bin-path"]
        showBin.standardOutput = binPath
        try showBin.run()
        let folder = String(decoding: binPath.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        showBin.waitUntilExit()
        return URL(fileURLWithPath: folder).appending(path: "vitrine-types")
    }

    private func run(_ executable: URL, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    struct GeneratorError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
