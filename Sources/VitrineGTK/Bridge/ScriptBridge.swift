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
/// sandboxed frame) and `location.href` as that world sees them, which no page script can
/// forge. It hands the token to the same frame's SDK through DOM events on the frame's own
/// document, before any page script runs. Each request carries the token; native code
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
/// Channels: once a frame has made `BridgeChannel.openAfter` accepted calls to a strategy,
/// native code registers handlers `NAME#TOKEN` (and its `.j` and `.x` ports) that only that
/// frame knows, and the SDK, which counts its calls too, finds them and posts there: a
/// string payload as it is, JSON text bare on `.j` (a small object's long strings beside
/// its text, `HoistedJSONText`), base64 bare on `.x`: no token to read, and a reply in the
/// same form. On a channel to a strategy that answered
/// those calls at once (its name ends in `+`), the SDK keeps at most
/// `BridgeChannel.unansweredPosts` posts unanswered; short calls made meanwhile wait and go
/// together, `{b: [call, …]}`, when one is answered, and `BridgeBatchReply` answers each
/// in its place.
///
/// Until then, requests go to the strategy's shared WebKit
/// handler, as in WKWebView, in the form that costs WebKit least to copy across processes:
/// `token + "s" + text` for a string of up to `shortString` characters, `{t: token, v: text}`
/// for a longer string (echoed back without any conversion), and `token + "j" + JSON` for
/// anything else, checked by `JSON.stringify` in the page (so a value JSON cannot carry
/// rejects there, with a TypeError); bytes (a `Uint8Array`, an `ArrayBuffer`) as
/// `{t: token, x: base64}`. A reply is a string payload's own string, `{j: JSON text}` or
/// `{x: base64}` (`BridgeReply`), which the SDK turns back into the value: JSON text keeps
/// object members in order, which WebKit's own object replies do not. A native event is
/// `name \n JSON payload`, dispatched into the page by the isolated world.
enum ScriptBridge {
    /// The isolated world holding the frame registrar.
    static let worldName = "vitrine"
    /// The registrar's handler, in the isolated world only (`FrameRegistration`).
    static let frameHandlerName = "vitrine-frame"
    /// Strings up to this length travel inside the request string; longer ones as their own value.
    static let shortString = 1024

    /// The function the registrar defines in the isolated world for native events.
    static let eventFunction = "vitrineEvent"

    /// Main world: `window.vitrine` and the WKWebView-style `window.webkit.messageHandlers`
    /// (Resources/sdk/vitrine.js), read once per process (see `SDKFile`).
    /// The capabilities' namespaces (Resources/sdk/capabilities.js) and the payloads' codec
    /// (payload.js) come first, in the same script: vitrine.js takes them before any page
    /// script runs.
    static let pageSDK = [SDKFile.capabilities, .payload, .pageSDK].map { $0.script() }.joined(separator: "\n")

    /// Isolated world: registers this frame's token with its true origin and URL, hands
    /// the token to the frame's SDK, and delivers native events to it
    /// (Resources/sdk/frame-registrar.js), read once per process (see `SDKFile`).
    static let frameRegistrar = SDKFile.frameRegistrar.script()

    /// Isolated world: delivers a native event to the page's `vitrine.on` listeners.
    static func eventDispatch(name: String, payloadJSON: String) -> String {
        // Absent only if the registrar did not run in this document (then no SDK listens).
        let arguments = JSONValue.string(name).jsonText + ", " + JSONValue.string(payloadJSON).jsonText
        return "typeof \(eventFunction) === 'function' && \(eventFunction)(\(arguments));"
    }
}
