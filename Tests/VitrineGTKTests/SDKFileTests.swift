import Foundation
import Testing
import Vitrine
@testable import VitrineGTK

/// The bridge's JavaScript files (Resources/sdk/): the shipped ones load and hold Swift's
/// constants; a missing or mismatched one is refused, logged, and leaves a script that only
/// reports why. Pure Swift: no view needed. The JavaScript itself is tested by `make test-js`.
@Suite struct SDKFileTests {
    /// The source tree's Resources/, whatever the build folder.
    static let sourceResources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources")

    static func locator(_ directory: URL) -> ResourceLocator {
        ResourceLocator(environment: ["VITRINE_RESOURCES": directory.path],
                        executable: URL(fileURLWithPath: "/nonexistent/bin/vitrine"))
    }

    static func temporaryResources(_ files: [SDKFile: String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-sdk-\(UUID().uuidString)")
        let sdk = directory.appendingPathComponent("sdk")
        try FileManager.default.createDirectory(at: sdk, withIntermediateDirectories: true)
        for (file, text) in files {
            try text.write(to: sdk.appendingPathComponent(file.rawValue), atomically: true, encoding: .utf8)
        }
        return directory
    }

    @Test(arguments: SDKFile.allCases)
    func theShippedFileLoadsWithSwiftsConstants(_ file: SDKFile) throws {
        let text = try #require(try? file.load(from: Self.locator(Self.sourceResources)).get())
        for line in file.requiredLines {
            #expect(text.contains("\n  " + line + "\n"), "\(file.rawValue) declares `\(line)`")
        }
        #expect(file.script(from: Self.locator(Self.sourceResources)) == text, "injected as it is")
    }

    @Test func theConstantsAreSwifts() {
        #expect(SDKFile.pageSDK.requiredLines == [
            "var SHORT_STRING = \(ScriptBridge.shortString);",
            "var CHANNEL_AFTER = \(BridgeChannel.openAfter);",
            "var CHANNEL_POSTS = \(BridgeChannel.unansweredPosts);",
            "var BATCH_LIMIT = \(BridgeChannel.batchLimit);",
            "var JSON_PORT = '.j';",
            "var BYTES_PORT = '.x';",
        ])
        #expect(SDKFile.payload.requiredLines.first == #"var HOIST_MARK = '\uffff';"#)
        #expect(SDKFile.frameRegistrar.requiredLines.first == "var FRAME_HANDLER = 'vitrine-frame';")
    }

    @Test func theBridgeInjectsTheShippedFiles() throws {
        // The process's own lookup: from the build folder, the source tree.
        let page = try String(contentsOf: Self.sourceResources.appendingPathComponent("sdk/vitrine.js"), encoding: .utf8)
        let capabilities = try String(contentsOf: Self.sourceResources.appendingPathComponent("sdk/capabilities.js"), encoding: .utf8)
        let payload = try String(contentsOf: Self.sourceResources.appendingPathComponent("sdk/payload.js"), encoding: .utf8)
        let registrar = try String(
            contentsOf: Self.sourceResources.appendingPathComponent("sdk/frame-registrar.js"), encoding: .utf8)
        #expect(ScriptBridge.pageSDK == capabilities + "\n" + payload + "\n" + page,
                "the capabilities' file, the payloads' codec, then the SDK, in one script")
        #expect(ScriptBridge.frameRegistrar == registrar)
    }

    @Test(arguments: SDKFile.allCases)
    func aMissingFileIsRefusedWithItsPathAndTheBridgeIsOff(_ file: SDKFile) throws {
        let directory = try Self.temporaryResources([:])
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("sdk").appendingPathComponent(file.rawValue).path
        let result = file.load(from: Self.locator(directory))
        #expect(throws: SDKFile.Failure.unreadable(path: path)) { try result.get() }
        let script = file.script(from: Self.locator(directory))
        #expect(script.hasPrefix("console.error(\"vitrine: the JavaScript bridge file "))
        #expect(script.contains(path) && script.contains("the bridge is off"))
        #expect(!script.contains("postMessage"))
    }

    @Test func aFileWhoseConstantsDifferIsRefused() throws {
        let shipped = try String(contentsOf: Self.sourceResources.appendingPathComponent("sdk/vitrine.js"), encoding: .utf8)
        let changed = shipped.replacingOccurrences(of: "var CHANNEL_AFTER = 16;", with: "var CHANNEL_AFTER = 8;")
        #expect(changed != shipped)
        let directory = try Self.temporaryResources([.pageSDK: changed, .frameRegistrar: "// empty\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let sdk = directory.appendingPathComponent("sdk")
        #expect(throws: SDKFile.Failure.mismatch(
            path: sdk.appendingPathComponent("vitrine.js").path, expected: "var CHANNEL_AFTER = 16;")) {
            try SDKFile.pageSDK.load(from: Self.locator(directory)).get()
        }
        #expect(throws: SDKFile.Failure.mismatch(
            path: sdk.appendingPathComponent("frame-registrar.js").path,
            expected: "var FRAME_HANDLER = 'vitrine-frame';")) {
            try SDKFile.frameRegistrar.load(from: Self.locator(directory)).get()
        }
    }

    @Test func aNativeEventCallsTheRegistrarsFunction() {
        #expect(ScriptBridge.eventDispatch(name: "cart", payloadJSON: #"{"note":"a\nb"}"#)
            == #"typeof vitrineEvent === 'function' && vitrineEvent("cart", "{\"note\":\"a\\nb\"}");"#)
    }
}
