#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vitrine

/// One of the bridge's JavaScript files in `Resources/sdk/` (see `ScriptBridge`), injected
/// as it is at document start, read at run time through `ResourceLocator`.
///
/// Why files: JavaScript tools can lint and test them (`make test-js`). Why no template
/// step: the file a test loads is byte for byte the one WebKit runs. The few constants the
/// JavaScript shares with Swift are plain declarations in the file instead, and
/// `requiredLines` names each exactly as Swift expects it: a file whose constants differ
/// from this build's is refused like a missing one.
///
/// Fails closed: a file that cannot be read or does not match is logged once, and the
/// page gets a script that only reports the error to its console. Without the registrar
/// no frame has a token, so native code refuses every request; without the SDK the page
/// has no `vitrine`.
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

    /// Why a file cannot serve.
    enum Failure: Error, Equatable, CustomStringConvertible {
        case unreadable(path: String)
        case mismatch(path: String, expected: String)

        var description: String {
            switch self {
            case .unreadable(let path):
                return "vitrine: the JavaScript bridge file \(path) cannot be read; the bridge is off"
                    + " (set VITRINE_RESOURCES to a folder with sdk/, or reinstall)"
            case .mismatch(let path, let expected):
                return "vitrine: the JavaScript bridge file \(path) does not match this program"
                    + " (no line reads `\(expected)`); the bridge is off"
            }
        }
    }

    /// Lines the file must hold verbatim (leading spaces aside): what it shares with Swift.
    var requiredLines: [String] {
        switch self {
        case .pageSDK:
            return [
                "var SHORT_STRING = \(ScriptBridge.shortString);",
                "var CHANNEL_AFTER = \(BridgeChannel.openAfter);",
                "var CHANNEL_POSTS = \(BridgeChannel.unansweredPosts);",
                "var BATCH_LIMIT = \(BridgeChannel.batchLimit);",
                "var JSON_PORT = '\(BridgeChannel.Port.json.rawValue)';",
                "var BYTES_PORT = '\(BridgeChannel.Port.bytes.rawValue)';",
            ]
        case .payload:
            return [
                "var HOIST_MARK = '\\u\(String(HoistedJSONText.mark.value, radix: 16))';",
                "Object.defineProperty(window, 'vitrinePayload', { value: payload, configurable: true });",
            ]
        case .capabilities:
            return ["Object.defineProperty(window, 'vitrineCapabilities', { value: capabilities, configurable: true });"]
        case .frameRegistrar:
            return [
                "var FRAME_HANDLER = '\(ScriptBridge.frameHandlerName)';",
                "window.\(ScriptBridge.eventFunction) = function (name, payloadJSON) {",
            ]
        case .keyboard:
            return [
                "var HANDLER = '\(OnScreenKeyboardState.handlerName)';",
                "window.\(OnScreenKeyboardState.pressFunction) = function (action, text) {",
            ]
        }
    }

    /// The file's text from `resources`, or why it cannot serve.
    func load(from resources: ResourceLocator) -> Result<String, Failure> {
        let path = resources.sdkDirectory.appendingPathComponent(rawValue).path
        guard FileSystem.isRegularFile(path),
              let text = try? String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
        else { return .failure(.unreadable(path: path)) }
        let lines = Set(text.split(separator: "\n").map { line in
            String(line.drop(while: { $0 == " " || $0 == "\t" }))
        })
        if let missing = requiredLines.first(where: { !lines.contains($0) }) {
            return .failure(.mismatch(path: path, expected: missing))
        }
        return .success(text)
    }

    /// The script to inject: the file, or when it cannot serve (logged), a script that
    /// only reports why in the page's console.
    func script(from resources: ResourceLocator = ResourceLocator()) -> String {
        switch load(from: resources) {
        case .success(let text):
            return text
        case .failure(let failure):
            Logger(label: "vitrine.bridge").error("\(failure.description)")
            return "console.error(\(JSONValue.string(failure.description).jsonText));"
        }
    }
}
