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
        guard let pageURL = envelope.allowedDocumentURL(container.configuration.allowedOrigins(forStrategy: name)) else {
            let url = envelope.url.count > 120 ? envelope.url.prefix(120) + "…" : envelope.url
            reject("origin '\(envelope.origin)' (\(url)) is not allowed to call '\(name)'")
            return
        }
        let message = ScriptMessage(name: name, bodyJSON: envelope.bodyJSON, pageURL: pageURL)
        let context = ScriptMessageContext(host: container)
        let strategies = container.strategies
        // Runs at once on this thread up to the strategy's first suspension: a strategy that
        // answers without waiting answers within this signal emission, with no extra
        // main-loop turn.
        Task.immediate { @MainActor [weak container] in
            let result = await strategies.dispatchJSON(message, context: context)
            pending.answer(result)
            switch result {
            case .success: container?.record(.message(name: name, outcome: "resolved", error: nil, origin: origin))
            case .failure(let error): container?.record(.message(name: name, outcome: "rejected", error: error.message, origin: origin))
            }
        }
    }
}

/// What the isolated-world bridge posts, `origin \n url \n JSON body`: the
/// caller's origin and URL as that world saw them, and the body as JSON text.
struct MessageEnvelope {
    let origin: String
    let url: String
    let bodyJSON: String

    init?(_ value: UnsafeMutablePointer<JSCValue>) {
        guard jsc_value_is_string(value) != 0, let text = takeString(jsc_value_to_string(value)) else { return nil }
        let fields = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3 else { return nil }
        origin = String(fields[0])
        url = String(fields[1])
        bodyJSON = String(fields[2])
    }

    /// The document's URL if it is a real URL of an allowed origin; nil otherwise.
    /// `about:blank`, `about:srcdoc`, `data:` and `blob:` documents are refused even when
    /// they inherit an allowed origin.
    func allowedDocumentURL(_ allowed: Set<Origin>) -> URL? {
        guard let documentURL = URL(string: url), let scheme = documentURL.scheme?.lowercased(),
              !["about", "data", "blob", "javascript"].contains(scheme),
              let callerOrigin = Origin(string: origin), let documentOrigin = Origin(documentURL),
              callerOrigin == documentOrigin, allowed.contains(callerOrigin)
        else { return nil }
        return documentURL
    }
}
