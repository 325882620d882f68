import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Script messages from the page's SDK → the frame's token → origin check → the strategies.
extension WebPane {
    /// A frame's isolated world registers its token with the origin and URL it sees
    /// (`token \n origin \n url`). Answered at once; a malformed registration is ignored.
    func registerFrame(_ value: UnsafeMutablePointer<JSCValue>, reply: OpaquePointer) {
        if let undefined = jsc_value_new_undefined(jsc_value_get_context(value)) {
            webkit_script_message_reply_return_value(reply, undefined)
            g_object_unref(gptr(undefined))
        }
        guard jsc_value_is_string(value) != 0, let text = takeString(jsc_value_to_string(value)) else { return }
        let fields = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].utf8.count == FrameRegistry.tokenLength else { return }
        frames.register(token: String(fields[0]), origin: String(fields[1]), url: String(fields[2]))
    }

    /// Answers one message exactly once: find the frame by its token, check its origin,
    /// dispatch, reply, log the outcome.
    func receiveMessage(name: String, value: UnsafeMutablePointer<JSCValue>, reply: OpaquePointer) {
        let pending = PendingScriptReply(reply: reply, messageValue: value)
        guard let container else { return } // `pending` rejects as it is released
        let request = BridgeRequest(value)
        let frame = request.flatMap { frames.frame(for: $0.token) }
        let origin = frame?.origin
        func reject(_ message: String) {
            pending.answer(.failure(ScriptMessageError(message)))
            container.record(.message(name: name, outcome: "rejected", error: message, origin: origin))
        }
        guard let request else {
            reject("\(name): malformed message (post through vitrine.invoke or window.webkit.messageHandlers)")
            return
        }
        guard let frame else {
            reject("\(name): the calling frame is not known to the bridge")
            return
        }
        guard let pageURL = frame.allowedDocumentURL(container.configuration.allowedOrigins(forStrategy: name)) else {
            let url = frame.url.count > 120 ? frame.url.prefix(120) + "…" : frame.url
            reject("origin '\(frame.origin)' (\(url)) is not allowed to call '\(name)'")
            return
        }
        pending.setBody(request.body)
        var message = ScriptMessage(name: name, pageURL: pageURL, makeBodyJSON: request.makeBodyJSON())
        let context = ScriptMessageContext(host: container)
        let strategies = container.strategies
        func finish(_ result: Result<ScriptReply, ScriptMessageError>, container: WebContainer?) {
            message.settleBody()
            pending.answer(result)
            switch result {
            case .success: container?.record(.message(name: name, outcome: "resolved", error: nil, origin: origin))
            case .failure(let error): container?.record(.message(name: name, outcome: "rejected", error: error.message, origin: origin))
            }
        }
        // A strategy that knows its answer at once (`ping`) answers within this signal
        // emission without a task.
        if let result = strategies.immediateReply(message, context: context) {
            finish(result, container: container)
            return
        }
        // Otherwise a task that runs at once on this thread up to the strategy's first
        // suspension: a strategy that answers without waiting still answers here, with no
        // extra main-loop turn.
        Task.immediate { @MainActor [weak container] in
            finish(await strategies.dispatchReply(message, context: context), container: container)
        }
    }
}

/// What the SDK posts (see `ScriptBridge`): `token + "s" + text`, `token + "j" + JSON`, or
/// `[token, text]`.
struct BridgeRequest {
    let token: String
    let body: Body

    enum Body {
        /// A string payload, as text.
        case text(String)
        /// Any other payload, as JSON text.
        case json(String)
        /// A long string payload, still the page's own value.
        case value(JSValueReference)
    }

    init?(_ value: UnsafeMutablePointer<JSCValue>) {
        let tokenLength = FrameRegistry.tokenLength
        if jsc_value_is_string(value) != 0 {
            guard let text = takeString(jsc_value_to_string(value)), text.utf8.count > tokenLength else { return nil }
            let utf8 = text.utf8
            let kindIndex = utf8.index(utf8.startIndex, offsetBy: tokenLength)
            let rest = String(Substring(utf8[utf8.index(after: kindIndex)...]))
            token = String(Substring(utf8[..<kindIndex]))
            switch utf8[kindIndex] {
            case UInt8(ascii: "s"): body = .text(rest)
            case UInt8(ascii: "j"): body = .json(rest)
            default: return nil
            }
        } else if jsc_value_is_array(value) != 0 {
            guard let first = jsc_value_object_get_property_at_index(value, 0).map(JSValueReference.init(adopting:)),
                  jsc_value_is_string(first.pointer) != 0, let token = takeString(jsc_value_to_string(first.pointer)),
                  token.utf8.count == tokenLength,
                  let second = jsc_value_object_get_property_at_index(value, 1).map(JSValueReference.init(adopting:)),
                  jsc_value_is_string(second.pointer) != 0
            else { return nil }
            self.token = token
            body = .value(second)
        } else {
            return nil
        }
    }

    /// Makes the body's JSON text when a strategy first reads it (on the main thread:
    /// strategies run on the main actor, and the bridge settles the body there).
    func makeBodyJSON() -> @Sendable () -> String {
        switch body {
        case .text(let text): return { JSONValue.string(text).jsonText }
        case .json(let json): return { json }
        case .value(let value): return { takeString(jsc_value_to_json(value.pointer, 0)) ?? "null" }
        }
    }
}

/// A reference to a JSCValue, released when the last holder goes. Used on the main thread
/// only (script messages arrive and are answered there).
final class JSValueReference: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<JSCValue>

    init(adopting pointer: UnsafeMutablePointer<JSCValue>) {
        self.pointer = pointer
    }

    deinit {
        g_object_unref(gptr(pointer))
    }
}

/// The frames whose isolated world registered a token: who each token stands for.
///
/// Two bounded pools, each forgetting the frame that called least recently first (its calls
/// then reject until its document is loaded again): frames of origins some strategy accepts
/// (`callers`), and all others, kept only so that their rejections can name their origin.
/// A third-party frame that opens frame after frame fills only the second pool: it can
/// never push the app's own frames out.
struct FrameRegistry {
    /// 16 random bytes in hex.
    static let tokenLength = 32
    /// Frames per pool.
    static let capacity = 256

    struct Frame {
        /// `location.origin` and `location.href` as the frame's isolated world saw them.
        let origin: String
        let url: String
        /// The document's URL when it is a real URL of its own origin; nil for `about:`,
        /// `data:`, `blob:` and `javascript:` documents, which never pass the check even
        /// when they inherit an allowed origin.
        let documentURL: URL?
        let documentOrigin: Origin?

        /// The document's URL if its origin is one of `allowed`, else nil.
        func allowedDocumentURL(_ allowed: Set<Origin>) -> URL? {
            guard let documentURL, let documentOrigin, allowed.contains(documentOrigin) else { return nil }
            return documentURL
        }
    }

    /// Least recently used first out, `capacity` at most.
    private struct Pool {
        var frames: [String: (frame: Frame, lastUse: UInt64)] = [:]

        mutating func insert(_ frame: Frame, token: String, at time: UInt64) {
            if frames.count >= FrameRegistry.capacity, frames[token] == nil,
               let oldest = frames.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                frames[oldest] = nil
            }
            frames[token] = (frame, time)
        }
    }

    /// The origins that may call at least one strategy.
    let callers: Set<Origin>
    private var trusted = Pool()
    private var others = Pool()
    private var clock: UInt64 = 0

    init(callers: Set<Origin>) {
        self.callers = callers
    }

    var count: Int { trusted.frames.count + others.frames.count }

    mutating func register(token: String, origin: String, url: String) {
        var documentURL: URL?
        var documentOrigin: Origin?
        if let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
           !["about", "data", "blob", "javascript"].contains(scheme),
           let callerOrigin = Origin(string: origin), Origin(parsed) == callerOrigin {
            documentURL = parsed
            documentOrigin = callerOrigin
        }
        let frame = Frame(origin: origin, url: url, documentURL: documentURL, documentOrigin: documentOrigin)
        clock += 1
        if let documentOrigin, callers.contains(documentOrigin) {
            trusted.insert(frame, token: token, at: clock)
        } else {
            others.insert(frame, token: token, at: clock)
        }
    }

    mutating func frame(for token: String) -> Frame? {
        clock += 1
        if let entry = trusted.frames[token] {
            trusted.frames[token]?.lastUse = clock
            return entry.frame
        }
        if let entry = others.frames[token] {
            others.frames[token]?.lastUse = clock
            return entry.frame
        }
        return nil
    }

    mutating func removeAll() {
        trusted = Pool()
        others = Pool()
    }
}
