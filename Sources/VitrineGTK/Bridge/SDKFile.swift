#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vitrine

/// One of the bridge's JavaScript files in `Resources/sdk/` (see `ScriptBridge`), injected
/// at document start, read at run time through `ResourceLocator`.
///
/// Why files: JavaScript tools can lint and test them (`make test-js`). The constants the
/// JavaScript shares with Swift are in none of them: `script(_:)` puts the files inside one
/// block that opens with `const VITRINE_PROTOCOL = <protocol.json>;`, the text the core's
/// `BridgeProtocol` was generated from at build time, so the two sides cannot disagree.
/// (A block-scoped `const` in its own script: page scripts never see it.) The JS tests
/// build the same block from the same file (Tests/sdk/support/fake-webkit.js).
///
/// Fails closed: a file that cannot be read is logged once, and the page gets a script
/// that only reports the error to its console. Without the registrar no frame has a
/// token, so native code refuses every request; without the SDK the page has no `vitrine`.
enum SDKFile: String, CaseIterable {
    /// The page's SDK, main world.
    case pageSDK = "vitrine.js"
    /// The frame registrar, isolated world.
    case frameRegistrar = "frame-registrar.js"
    /// The on-screen keyboard's page side, isolated world, top frame (`OnScreenKeyboard`).
    case keyboard = "keyboard.js"
    /// The capabilities' namespaces, main world, first.
    case capabilities = "capabilities.js"
    /// The payloads' codec, main world, between the capabilities and the page's SDK.
    case payload = "payload.js"
    /// A playlist's media item, isolated world, top frame (`MediaItemPlayer`).
    case mediaItem = "media-item.js"
    /// The page's uncaught errors and unhandled rejections reported, main world, after the SDK (`ReportsFeature`).
    case pageErrors = "page-errors.js"

    /// Why a file cannot serve.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case unreadable(path: String)

        var description: String {
            switch self {
            case .unreadable(let path):
                return "vitrine: the JavaScript bridge file \(path) cannot be read; the bridge is off"
                    + " (set VITRINE_RESOURCES to a folder with sdk/, or reinstall)"
            }
        }
    }

    /// The file's text from `resources`, or why it cannot serve.
    func load(from resources: ResourceLocator) -> Result<String, Failure> {
        let path = resources.sdkDirectory.appendingPathComponent(rawValue).path
        guard FileSystem.isRegularFile(path),
              let text = try? String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        else { return .failure(.unreadable(path: path)) }
        return .success(text)
    }

    /// The script to inject: `files` in this order after the protocol's constants, in one
    /// block (see above).
    static func script(_ files: [SDKFile], from resources: ResourceLocator = ResourceLocator()) -> String {
        "{\nconst VITRINE_PROTOCOL = " + BridgeProtocol.json + ";\n"
            + files.map { $0.text(from: resources) }.joined(separator: "\n") + "\n}\n"
    }

    /// The file's text, or when it cannot serve (logged), a script that only reports why in
    /// the page's console.
    func text(from resources: ResourceLocator = ResourceLocator()) -> String {
        switch load(from: resources) {
        case .success(let text):
            return text
        case .failure(let failure):
            Logger(label: "vitrine.bridge").error("\(failure.description)")
            return "console.error(\(JSONValue.string(failure.description).jsonText));"
        }
    }
}
