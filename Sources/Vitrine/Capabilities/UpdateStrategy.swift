#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The app's signed updates (`update` capability), app-wide: one feed, one install at a time.
@MainActor
public protocol UpdateService: AnyObject {
    /// Downloads and verifies `[update] feed`: the offer when it is a newer version of this
    /// app, nil when it is not newer; throws why the feed was refused.
    func check() async throws(ScriptMessageError) -> UpdateOffer?
    /// Downloads the offer's file, verifies it, and installs it; throws why not, the running
    /// version untouched (a tarball's new version that did not load its page: rolled back). Progress goes to the granted pages as `update:progress` events.
    func install() async throws(ScriptMessageError)
}

/// `update`: `{"action": "check"}` → `{version, notes}` of a newer signed version, or null;
/// `{"action": "install"}` → true once the verified update is installed (a `.deb` or `.rpm`
/// handed to the system's installer; a tarball's new version started, this one exiting once
/// its page loaded, or rejected with `update: rolled-back: …` when it came back). Every refusal (a bad signature, a wrong key, a
/// downgrade, an insecure URL, an oversize or interrupted download) rejects with its reason.
/// Only the window's top document may ask.
public struct UpdateStrategy: TypedScriptMessageStrategy {
    public static let identifier = "update"
    public static let capability: Capability? = .update

    public enum Request: ActionRequest {
        case check
        case install
        public static let actions = ["check", "install"]
    }

    public nonisolated init() {}

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> JSONValue {
        let updates = try context.service(UpdateService.self, for: .update)
        guard let caller = context.caller, caller.isMainFrame else {
            throw ScriptMessageError("update: only the window's top document may check or install updates, not a frame inside it")
        }
        switch request {
        case .check:
            guard let offer = try await updates.check() else { return .null }
            return Self.announcement(offer)
        case .install:
            try await updates.install()
            return .bool(true)
        }
    }

    /// What the page hears of an offer (`check()`'s answer, the `update:available` event).
    public static func announcement(_ offer: UpdateOffer) -> JSONValue {
        .object(["version": .string(offer.version.description), "notes": .string(offer.notes)])
    }
}

extension UpdateRefusal {
    /// The refusal as the page's rejection: `update: bad-signature: the manifest's …`.
    public var scriptMessageError: ScriptMessageError {
        ScriptMessageError("update: \(code): \(description)")
    }
}
