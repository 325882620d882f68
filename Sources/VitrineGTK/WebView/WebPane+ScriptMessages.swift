import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Script messages from the bridge → origin check → the strategies.
extension WebPane {
    /// Answers one message exactly once: unwrap the bridge's envelope, check the caller's
    /// origin, dispatch, reply, log the outcome.
    func receiveMessage(name: String, value: UnsafeMutablePointer<JSCValue>, reply: OpaquePointer) {
        let pending = PendingScriptReply(reply: reply, messageValue: value)
        guard let container else { return } // `pending` rejects as it is released
        let envelope = MessageEnvelope(value)
        let origin = envelope?.origin
        func reject(_ message: String) {
            pending.answer(.failure(ScriptMessageError(message)))
            container.record(.message(name: name, outcome: "rejected", error: message, origin: origin))
        }
        guard let envelope else {
            reject("\(name): malformed message envelope")
            return
        }
        let allowed = container.configuration.allowedOrigins(forStrategy: name)
        guard envelope.isFromAllowedOrigin(allowed) else {
            let url = envelope.url.count > 120 ? envelope.url.prefix(120) + "…" : envelope.url
            reject("origin '\(envelope.origin)' (\(url)) is not allowed to call '\(name)'")
            return
        }
        let body: JSONValue
        do {
            body = try JSONValue(parsing: envelope.bodyJSON)
        } catch {
            reject("\(name): message body is not JSON")
            return
        }
        let message = ScriptMessage(name: name, body: body, pageURL: URL(string: envelope.url))
        let context = ScriptMessageContext(host: container)
        let strategies = container.strategies
        Task { @MainActor [weak container] in
            let result = await strategies.dispatch(message, context: context)
            pending.answer(result)
            switch result {
            case .success: container?.record(.message(name: name, outcome: "resolved", error: nil, origin: origin))
            case .failure(let error): container?.record(.message(name: name, outcome: "rejected", error: error.message, origin: origin))
            }
        }
    }
}

/// What the isolated-world bridge posts: the caller's origin and URL as that world saw
/// them, and the body as JSON text.
struct MessageEnvelope {
    let origin: String
    let url: String
    let isTopFrame: Bool
    let bodyJSON: String

    init?(_ value: UnsafeMutablePointer<JSCValue>) {
        guard jsc_value_is_object(value) != 0,
              let origin = Self.string(value, "origin"), let url = Self.string(value, "url"),
              let body = Self.string(value, "body")
        else { return nil }
        self.origin = origin
        self.url = url
        self.bodyJSON = body
        let top = jsc_value_object_get_property(value, "topFrame")
        isTopFrame = top.map { jsc_value_to_boolean($0) != 0 } ?? false
        if let top { g_object_unref(gptr(top)) }
    }

    /// A document with a real URL of an allowed origin. `about:blank`, `about:srcdoc`,
    /// `data:` and `blob:` documents are refused even when they inherit an allowed origin.
    func isFromAllowedOrigin(_ allowed: Set<Origin>) -> Bool {
        guard let documentURL = URL(string: url), let scheme = documentURL.scheme?.lowercased(),
              !["about", "data", "blob", "javascript"].contains(scheme),
              let callerOrigin = Origin(string: origin), let documentOrigin = Origin(documentURL),
              callerOrigin == documentOrigin
        else { return false }
        return allowed.contains(callerOrigin)
    }

    private static func string(_ object: UnsafeMutablePointer<JSCValue>, _ property: String) -> String? {
        guard let member = jsc_value_object_get_property(object, property) else { return nil }
        defer { g_object_unref(gptr(member)) }
        guard jsc_value_is_string(member) != 0 else { return nil }
        return takeString(jsc_value_to_string(member))
    }
}
