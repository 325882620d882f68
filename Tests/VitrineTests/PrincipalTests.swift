import Foundation
import Testing
import Vitrine

/// Who is asking: a frame document's principal, the registry of a view's living documents,
/// and the admission decision. Pure Swift: no view needed.
@Suite struct PrincipalTests {
    static func token(_ number: Int) -> FrameToken {
        let hex = String(number, radix: 16)
        return FrameToken(String(repeating: "0", count: FrameToken.hexLength - hex.count) + hex)!
    }

    static let app = Origin(string: "https://app.example")!

    static func document(_ number: Int, _ origin: String = "https://app.example", _ url: String? = nil,
                         main: Bool = false) -> FrameRegistration {
        .document(token: token(number), isMainFrame: main, origin: origin, url: url ?? origin + "/\(number)")
    }

    @Test func aTokenStandsForTheOriginItsFrameRegistered() throws {
        var frames = FrameRegistry(callers: [Self.app], appID: "org.example.App")
        _ = frames.apply(.document(token: Self.token(1), isMainFrame: true, origin: "https://app.example", url: "https://app.example/index.html"))
        let principal = try #require(frames.lookup(Self.token(1)))
        #expect(principal.allowedDocumentURL([Self.app]) == URL(string: "https://app.example/index.html"))
        #expect(principal.allowedDocumentURL([Origin(string: "https://other.example")!]) == nil)
        #expect(principal.appID == "org.example.App" && principal.isMainFrame)
        #expect(frames.lookup(Self.token(2)) == nil, "an unknown token stands for nobody")
    }

    @Test func aTokenIsExactlyThirtyTwoLowercaseHexDigits() throws {
        let hex = "0123456789abcdef0123456789abcdef"
        let token = try #require(FrameToken(hex))
        #expect(token == FrameToken(Substring(hex)), "the same digits, the same token")
        #expect(token != FrameToken("f" + hex.dropFirst()))
        #expect(FrameToken(hex.uppercased()) == nil)
        #expect(FrameToken(hex.dropLast()) == nil)
        #expect(FrameToken(hex + "0") == nil)
        #expect(FrameToken(hex.dropLast() + "g") == nil)
        // From a C string: the digits are read up to the first byte that is not one, so a
        // short string (NUL inside the first 32 bytes) is refused without reading past it.
        #expect(("0123\0" as String).withCString { FrameToken(hexDigits: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self)) } == nil)
        #expect(token.hexDigits == hex, "written back as it was read (a channel's name carries it)")
        #expect(Self.token(1).hexDigits == String(repeating: "0", count: 31) + "1", "leading zeros kept")
        let request = hex + "s{\"a\":1}"
        #expect(request.withCString { FrameToken(hexDigits: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self)) } == token)
    }

    @Test(arguments: [
        ("https://app.example", "about:blank"),
        ("https://app.example", "about:srcdoc"),
        ("null", "data:text/html,hi"),
        ("https://app.example", "blob:https://app.example/0d5c"),
        ("https://app.example", "https://evil.example/page"), // origin and URL disagree
        ("not an origin", "https://app.example/"),
        // A sandboxed frame (sandbox attribute or CSP sandbox) of the app's own URL: opaque.
        ("null", "https://app.example/upload-preview.html"),
        ("null", "https://evil.example/"),
    ])
    func documentsThatAreNotRealPagesOfTheirTrueOriginAreNeverAllowed(origin: String, url: String) {
        var frames = FrameRegistry(callers: [Self.app], appID: "app")
        _ = frames.apply(.document(token: Self.token(1), isMainFrame: false, origin: origin, url: url))
        let allowed: Set<Origin> = [Self.app, Origin(string: "https://evil.example")!]
        let principal = frames.principal(for: Self.token(1))
        #expect(principal != nil, "known, so that its refusal can say who it was")
        #expect(principal?.allowedDocumentURL(allowed) == nil)
        #expect(Admission.decide(principal, strategy: "storage", allowed: allowed, capability: .storage).isFailure)
    }

    @Test func anOpaqueOriginIsRefusedAsOneNotAsTheURLsOrigin() throws {
        let principal = Principal(token: Self.token(1), reportedOrigin: "null", url: "https://app.example/x",
                                  isMainFrame: false, appID: "app")
        #expect(principal.origin == nil && principal.documentURL == nil)
        let refusal = Admission.decide(principal, strategy: "notes", allowed: [Self.app], capability: nil)
        let message = try #require(refusal.failureMessage)
        #expect(message.contains("opaque origin"), "\(message)")
        let capability = try #require(Admission.decide(principal, strategy: "storage", allowed: [Self.app], capability: .storage).failureMessage)
        #expect(capability.contains("[capabilities]") && capability.contains("opaque"), "\(capability)")
    }

    @Test func anAllowedDocumentIsAdmittedWithItsOwnURL() {
        var frames = FrameRegistry(callers: [Self.app], appID: "app")
        _ = frames.apply(Self.document(7, main: true))
        let decision = Admission.decide(frames.principal(for: Self.token(7)), strategy: "notes", allowed: [Self.app], capability: nil)
        #expect((try? decision.get()) == URL(string: "https://app.example/7"))
        #expect(Admission.decide(nil, strategy: "notes", allowed: [Self.app], capability: nil).failureMessage?
            .contains("not known to the bridge") == true)
    }

    @Test func aTokenDiesWithItsDocument() {
        var frames = FrameRegistry(callers: [Self.app], appID: "app")
        _ = frames.apply(Self.document(1, main: true))
        _ = frames.apply(Self.document(2))
        // The subframe navigates away (its registrar says so): its token dies, the top's lives.
        #expect(frames.apply(.gone(Self.token(2))) == [Self.token(2)], "reported, so that its channels close")
        #expect(frames.lookup(Self.token(2)) == nil)
        #expect(frames.lookup(Self.token(1)) != nil)
        #expect(frames.apply(.gone(Self.token(2))).isEmpty, "gone once")
        // A foreign document that registers next gets a token of its own; the dead one stays dead.
        _ = frames.apply(Self.document(3, "https://evil.example"))
        #expect(frames.lookup(Self.token(2)) == nil)
    }

    @Test func whenTheMainFrameCommitsAnotherPageEveryTokenOfTheOldPageDies() {
        var frames = FrameRegistry(callers: [Self.app], appID: "app")
        _ = frames.apply(Self.document(1, main: true))
        _ = frames.apply(Self.document(2))
        _ = frames.apply(Self.document(3, "https://ads.example"))
        let died = frames.mainFrameCommitted()
        #expect(Set(died) == [Self.token(1), Self.token(2), Self.token(3)])
        #expect(frames.count == 0)
        for number in 1...3 { #expect(frames.lookup(Self.token(number)) == nil) }
        // A new top document replaces the old one even without a commit between them.
        _ = frames.apply(Self.document(4, main: true))
        #expect(frames.apply(Self.document(5, main: true)) == [Self.token(4)])
        #expect(frames.lookup(Self.token(4)) == nil && frames.lookup(Self.token(5)) != nil)
    }

    @Test func pastItsCapacityTheSubframeUnusedLongestIsForgotten() {
        var frames = FrameRegistry(callers: [Self.app], appID: "app")
        for number in 0..<FrameRegistry.capacity { _ = frames.apply(Self.document(number)) }
        let used = frames.principal(for: Self.token(0)) // token 0 was just used: token 1 is now the oldest
        #expect(used != nil)
        #expect(frames.apply(Self.document(100_000)) == [Self.token(1)], "reported, so that the frame's channels close")
        #expect(frames.count == FrameRegistry.capacity)
        #expect(frames.lookup(Self.token(1)) == nil)
        #expect(frames.lookup(Self.token(0)) != nil)
        #expect(frames.lookup(Self.token(100_000)) != nil)
    }

    @Test func noFloodOfFramesOfAnyOriginPushesTheMainFrameOut() {
        var frames = FrameRegistry(callers: [Self.app], appID: "app")
        _ = frames.apply(Self.document(1, main: true))
        // Frames of the app's own origin (a foreign frame can open those) and third-party ones.
        for number in 2..<(2 + 3 * FrameRegistry.capacity) {
            #expect(!frames.apply(Self.document(number)).contains(Self.token(1)))
            _ = frames.apply(Self.document(100_000 + number, "https://ads.example"))
        }
        #expect(frames.lookup(Self.token(1))?.allowedDocumentURL([Self.app]) == URL(string: "https://app.example/1"))
        #expect(frames.count == 1 + 2 * FrameRegistry.capacity, "one main frame, two bounded pools")
        let newest = frames.principal(for: Self.token(100_001 + 3 * FrameRegistry.capacity))
        #expect(newest?.reportedOrigin == "https://ads.example", "still known, so its rejection names its origin")
    }

    @Test(arguments: [
        "", "0123", "0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef\nmain\nhttps://a",
        "0123456789abcdef0123456789abcdef\nsomething\nhttps://a\nhttps://a/", "0123456789abcdef0123456789abcdef\ngone\nx",
        "0123456789ABCDEF0123456789abcdef\ngone",
    ])
    func malformedRegistrationsAreIgnored(text: String) {
        #expect(FrameRegistration(text) == nil)
    }

    @Test func registrationsReadAsTheRegistrarWritesThem() {
        let hex = "0123456789abcdef0123456789abcdef"
        #expect(FrameRegistration(hex + "\ngone") == .gone(FrameToken(hex)!))
        #expect(FrameRegistration(hex + "\nframe\nnull\nhttps://a.example/x\ny") ==
            .document(token: FrameToken(hex)!, isMainFrame: false, origin: "null", url: "https://a.example/x\ny"))
        #expect(FrameRegistration(hex + "\nmain\napp://app\napp://app/") ==
            .document(token: FrameToken(hex)!, isMainFrame: true, origin: "app://app", url: "app://app/"))
    }
}

extension FrameRegistry {
    /// A lookup `#expect` can make (it cannot mutate): on a copy, so it marks no use.
    func lookup(_ token: FrameToken) -> Principal? {
        var copy = self
        return copy.principal(for: token)
    }
}

extension Result where Failure == ScriptMessageError {
    var isFailure: Bool { if case .failure = self { true } else { false } }
    var failureMessage: String? { if case .failure(let error) = self { error.message } else { nil } }
}
