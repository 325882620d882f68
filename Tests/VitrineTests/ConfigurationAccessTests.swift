import Foundation
import Testing

/// "A Configuration cannot be made except by the Configurator": checked by the compiler itself,
/// by type-checking small client files against the built `Vitrine` module.
@Suite("Configuration is only made by the Configurator")
struct ConfigurationAccessTests {
    @Test func onlyTheConfiguratorCanMakeAConfiguration() throws {
        let modules = try #require(Self.vitrineModuleDirectory(), "Vitrine.swiftmodule not found near the test binary or under .build*")
        let swiftc = try #require(Self.swiftc(), "swiftc not found on PATH or at /opt/swift/usr/bin/swiftc")
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let positive = directory.appendingPathComponent("positive.swift")
        try """
            import Vitrine
            let configuration = try Configurator().title("ok").build()
            print(configuration.title)
            """.write(to: positive, atomically: true, encoding: .utf8)
        let accepted = try Self.typecheck(positive, swiftc: swiftc, modules: modules, in: directory)
        #expect(accepted.status == 0, "the positive control must typecheck:\n\(accepted.output)")

        let negative = directory.appendingPathComponent("negative.swift")
        try """
            import Foundation
            import Vitrine
            let configuration = Configuration(
                startURL: nil, title: "forged", navigationChain: NavigationChain(), strategies: ScriptMessageStrategies(),
                userScripts: [], disablesZoom: false, titleFollowsPage: false, windowSize: WindowSize(width: 1, height: 1),
                fullscreen: false, userAgent: nil, developerTools: false, allowedOrigins: [], appDirectory: nil,
                tabs: [], strategyOrigins: [:], kiosk: nil, permissions: [], tlsExceptions: [], downloadDirectory: nil,
                showsErrorPages: true, recoversFromCrashes: true)
            print(configuration.title)
            """.write(to: negative, atomically: true, encoding: .utf8)
        let rejected = try Self.typecheck(negative, swiftc: swiftc, modules: modules, in: directory)
        #expect(rejected.status != 0, "forging a Configuration must not compile:\n\(rejected.output)")
        let diagnostic = rejected.output.lowercased()
        #expect(diagnostic.contains("negative.swift"), "the error is in the client file:\n\(rejected.output)")
        #expect(diagnostic.contains("error:"), "a compile error, not a warning:\n\(rejected.output)")
        #expect(["inaccessible", "internal", "protection"].contains { diagnostic.contains($0) },
                "the diagnostic names the access level:\n\(rejected.output)")
    }

    // MARK: Helpers

    static func typecheck(_ file: URL, swiftc: URL, modules: URL, in directory: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = swiftc
        process.arguments = [
            "-typecheck", "-I", modules.path,
            "-module-cache-path", directory.appendingPathComponent("module-cache").path,
            file.path,
        ]
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func swiftc() -> URL? {
        let fileManager = FileManager.default
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("swiftc") }
            + [URL(fileURLWithPath: "/opt/swift/usr/bin/swiftc")]
        return candidates.first { fileManager.isExecutableFile(atPath: $0.path) }
    }

    /// The folder holding `Vitrine.swiftmodule`: first next to the running test binary (the
    /// build that made these tests), else the newest under the package's `.build*` folders.
    static func vitrineModuleDirectory() -> URL? {
        let fileManager = FileManager.default
        func hasModule(_ directory: URL) -> Bool {
            fileManager.fileExists(atPath: directory.appendingPathComponent("Vitrine.swiftmodule").path)
        }

        var starts: [URL] = []
        if let first = CommandLine.arguments.first, !first.isEmpty {
            starts.append(URL(fileURLWithPath: first).resolvingSymlinksInPath())
        }
        starts.append(Bundle.main.bundleURL.resolvingSymlinksInPath())
        if let executable = Bundle.main.executableURL { starts.append(executable.resolvingSymlinksInPath()) }
        for start in starts {
            var directory = start
            for _ in 0..<4 {
                directory = directory.deletingLastPathComponent()
                for candidate in [directory.appendingPathComponent("Modules"), directory] where hasModule(candidate) {
                    return candidate
                }
            }
        }

        guard let root = packageRoot(),
              let entries = try? fileManager.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)
        else { return nil }
        var found: [(directory: URL, modified: Date)] = []
        for scratch in entries where scratch.lastPathComponent.hasPrefix(".build") {
            guard let triples = try? fileManager.contentsOfDirectory(at: scratch, includingPropertiesForKeys: nil) else { continue }
            for triple in triples {
                let modules = triple.appendingPathComponent("debug/Modules")
                let module = modules.appendingPathComponent("Vitrine.swiftmodule")
                if let attributes = try? fileManager.attributesOfItem(atPath: module.path),
                   let modified = attributes[.modificationDate] as? Date {
                    found.append((modules, modified))
                }
            }
        }
        return found.max { $0.modified < $1.modified }?.directory
    }
}
