import Vitrine

/// The JavaScript side of the native bridge: the page's SDK (main world) and the frame
/// registrar (an isolated script world), injected at document start into every frame.
/// Their source is JavaScript in `Resources/sdk/` (`vitrine.js`, `payload.js`, `frame-registrar.js`),
/// tested with Node (`make test-js`) and read once per process by `SDKFile`.
///
/// Why a registrar: WebKitGTK tells a message handler nothing about the frame that posted,
/// and any frame — a cross-origin iframe included — can reach the handlers of the page's
/// world. So each frame's isolated world (separate JS globals and prototypes that page
/// scripts cannot touch) draws a random token at document start and registers it with
/// native code together with the document's true origin (`self.origin`: `"null"` in a
/// sandboxed frame) and `location.href` as that world sees them then, which no page script
/// can forge. It hands the token to the same frame's SDK through DOM events on the frame's
/// own document, before any page script runs, and posts the registration when the SDK
/// first uses the bridge (a page that never does sends nothing, and this process never
/// starts a JavaScript engine to read a message). Each request carries the token; native code
/// looks up the principal it stands for (`FrameRegistry`) and asks `Admission` whether it
/// may call the strategy before any strategy runs.
///
/// The token lives as long as its document: the registrar says when the document is
/// hidden or unloaded (`pagehide`, in a capturing listener added before any of the
/// page's), and the main frame's commit of another page ends every token of the old one.
/// A page that reads its own frame's token and carries it elsewhere gains nothing once its
/// document has gone. Other frames' tokens live in their own JS realms, out of reach
/// across origins.
///
/// What travels how — the shared handlers' and channels' forms, batches, replies, tokens'
/// lifetime, errors and limits — is written down in docs/bridge-protocol.md; the
/// constants both sides share come from Resources/sdk/protocol.json (`BridgeProtocol`).
enum ScriptBridge {
    /// The isolated world holding the frame registrar.
    static let worldName = BridgeProtocol.worldName
    /// The registrar's handler, in the isolated world only (`FrameRegistration`).
    static let frameHandlerName = BridgeProtocol.frameHandler
    /// The function the registrar defines in the isolated world for native events.
    static let eventFunction = BridgeProtocol.eventFunction

    /// Main world: `window.vitrine` and the WKWebView-style `window.webkit.messageHandlers`
    /// (Resources/sdk/vitrine.js), read once per process (see `SDKFile`).
    /// The capabilities' namespaces (Resources/sdk/capabilities.js) and the payloads' codec
    /// (payload.js) come first, in the same script: vitrine.js takes them before any page
    /// script runs.
    static let pageSDK = SDKFile.script([.capabilities, .payload, .pageSDK])

    /// Isolated world: registers this frame's token with its true origin and URL, hands
    /// the token to the frame's SDK, and delivers native events to it
    /// (Resources/sdk/frame-registrar.js), read once per process (see `SDKFile`).
    static let frameRegistrar = SDKFile.script([.frameRegistrar])

    /// Isolated world: delivers a native event to the page's `vitrine.on` listeners.
    static func eventDispatch(name: String, payloadJSON: String) -> String {
        // Absent only if the registrar did not run in this document (then no SDK listens).
        let arguments = JSONValue.string(name).jsonText + ", " + JSONValue.string(payloadJSON).jsonText
        return "typeof \(eventFunction) === 'function' && \(eventFunction)(\(arguments));"
    }
}
