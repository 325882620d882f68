import Foundation
import PackagePlugin

/// `swift package generate-vitrine-types [--output FILE]`: runs `vitrine-types` on the
/// package's Swift source targets and writes the page's declarations (default:
/// web/strategies.d.ts, the file `vitrine new` made).
@main
struct GenerateVitrineTypes: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let output = extractor.extractOption(named: "output").last ?? "web/strategies.d.ts"
        let root = context.package.directoryURL
        let sources = context.package.targets.compactMap { $0 as? SwiftSourceModuleTarget }
            .filter { $0.kind != .test }
            .map { $0.directoryURL.path }
        let tool = try context.tool(named: "vitrine-types")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["--root", root.path, "--output", root.appending(path: output).path] + sources
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Diagnostics.error("vitrine-types exited with status \(process.terminationStatus)")
            return
        }
    }
}
