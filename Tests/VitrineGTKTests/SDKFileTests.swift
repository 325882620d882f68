import Foundation
import Testing
import Vitrine
@testable import VitrineGTK

/// The bridge's JavaScript files (Resources/sdk/): the shipped ones load and are injected
/// after this build's protocol constants; a missing one is refused, logged, and leaves a
/// script that only reports why. Pure Swift: no view needed. The JavaScript itself is tested by `make test-js`.
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

    /// What opens every injected script: protocol.json's text, compiled into this build.
    static let prelude = "{\nconst VITRINE_PROTOCOL = " + BridgeProtocol.json + ";\n"

    @Test(arguments: SDKFile.allCases)
    func theShippedFileIsInjectedAfterTheProtocolsConstants(_ file: SDKFile) throws {
        let text = try #require(try? file.load(from: Self.locator(Self.sourceResources)).get())
        #expect(file.text(from: Self.locator(Self.sourceResources)) == text, "the file as it is")
        #expect(SDKFile.script([file], from: Self.locator(Self.sourceResources)) == Self.prelude + text + "\n}\n")
    }

    @Test func theScriptsConstantsAreTheBuildsOwn() throws {
        // The prelude is valid JSON (JSON is JavaScript) and holds the values Swift uses.
        let object = try JSONValue(parsing: BridgeProtocol.json)
        #expect(object["channelAfter"] == .number(Double(ChannelPolicy.openAfter)))
        #expect(object["frameHandler"] == .string(ScriptBridge.frameHandlerName))
        #expect(object["eventFunction"] == .string(ScriptBridge.eventFunction))
        #expect(object["jsonPort"] == .string(BridgePort.json.suffix))
    }

    @Test func theBridgeInjectsTheShippedFiles() throws {
        // The process's own lookup: from the build folder, the source tree.
        let page = try String(contentsOf: Self.sourceResources.appendingPathComponent("sdk/vitrine.js"), encoding: .utf8)
        let capabilities = try String(contentsOf: Self.sourceResources.appendingPathComponent("sdk/capabilities.js"), encoding: .utf8)
        let payload = try String(contentsOf: Self.sourceResources.appendingPathComponent("sdk/payload.js"), encoding: .utf8)
        let registrar = try String(
            contentsOf: Self.sourceResources.appendingPathComponent("sdk/frame-registrar.js"), encoding: .utf8)
        #expect(ScriptBridge.pageSDK == Self.prelude + capabilities + "\n" + payload + "\n" + page + "\n}\n",
                "the capabilities' file, the payloads' codec, then the SDK, in one script")
        #expect(ScriptBridge.frameRegistrar == Self.prelude + registrar + "\n}\n")
    }

    @Test(arguments: SDKFile.allCases)
    func aMissingFileIsRefusedWithItsPathAndTheBridgeIsOff(_ file: SDKFile) throws {
        let directory = try Self.temporaryResources([:])
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("sdk").appendingPathComponent(file.rawValue).path
        let result = file.load(from: Self.locator(directory))
        #expect(throws: SDKFile.Failure.unreadable(path: path)) { try result.get() }
        let script = file.text(from: Self.locator(directory))
        #expect(script.hasPrefix("console.error(\"vitrine: the JavaScript bridge file "))
        #expect(script.contains(path) && script.contains("the bridge is off"))
        #expect(!script.contains("postMessage"))
    }

    @Test func aNativeEventCallsTheRegistrarsFunction() {
        #expect(ScriptBridge.eventDispatch(name: "cart", payloadJSON: #"{"note":"a\nb"}"#)
            == #"typeof vitrineEvent === 'function' && vitrineEvent("cart", "{\"note\":\"a\\nb\"}");"#)
    }
}
