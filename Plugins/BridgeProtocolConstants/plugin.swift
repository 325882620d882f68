import Foundation
import PackagePlugin

/// Generates `BridgeProtocol.swift` for the core from `Resources/sdk/protocol.json`, the
/// one source of the constants the bridge's Swift and its JavaScript share (see
/// docs/bridge-protocol.md). The JavaScript gets the same file's text as a prelude.
@main
struct BridgeProtocolConstants: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let input = context.package.directoryURL.appending(path: "Resources/sdk/protocol.json")
        let output = context.pluginWorkDirectoryURL.appending(path: "BridgeProtocol.swift")
        return [
            .buildCommand(
                displayName: "Generating the bridge's protocol constants from Resources/sdk/protocol.json",
                executable: try context.tool(named: "vitrine-protocol-constants").url,
                arguments: [input.path, output.path],
                inputFiles: [input],
                outputFiles: [output])
        ]
    }
}
