import Foundation
import Testing
import Vitrine
@testable import VitrineGTK

/// The bridge's token → frame table: what a token stands for, what it never stands for, and
/// its bound. Pure Swift: no view needed.
@Suite struct FrameRegistryTests {
    static func token(_ number: Int) -> FrameToken {
        let hex = String(number, radix: 16)
        return FrameToken(String(repeating: "0", count: FrameToken.hexLength - hex.count) + hex)!
    }

    static let app = Origin(string: "https://app.example")!

    @Test func aTokenStandsForTheOriginItsFrameRegistered() throws {
        var frames = FrameRegistry(callers: [Self.app])
        frames.register(token: Self.token(1), origin: "https://app.example", url: "https://app.example/index.html")
        let found = frames.frame(for: Self.token(1))
        let frame = try #require(found)
        #expect(frame.allowedDocumentURL([Origin(string: "https://app.example")!]) == URL(string: "https://app.example/index.html"))
        #expect(frame.allowedDocumentURL([Origin(string: "https://other.example")!]) == nil)
        #expect(frames.frame(for: Self.token(2)) == nil, "an unknown token stands for nobody")
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
    ])
    func documentsThatAreNotRealPagesOfTheirOriginAreNeverAllowed(origin: String, url: String) {
        var frames = FrameRegistry(callers: [Self.app])
        frames.register(token: Self.token(1), origin: origin, url: url)
        let allowed: Set<Origin> = [Origin(string: "https://app.example")!, Origin(string: "https://evil.example")!]
        #expect(frames.frame(for: Self.token(1))?.allowedDocumentURL(allowed) == nil)
    }

    @Test func pastItsCapacityTheFrameUnusedLongestIsForgotten() {
        var frames = FrameRegistry(callers: [Self.app])
        for number in 0..<FrameRegistry.capacity {
            frames.register(token: Self.token(number), origin: "https://app.example", url: "https://app.example/\(number)")
        }
        #expect(frames.frame(for: Self.token(0)) != nil) // token 0 was just used: token 1 is now the oldest
        let registration = frames.register(token: Self.token(100_000), origin: "https://app.example", url: "https://app.example/new")
        #expect(registration.isCaller)
        #expect(registration.forgottenCaller == Self.token(1), "reported, so that the frame's channels close")
        #expect(frames.count == FrameRegistry.capacity)
        #expect(frames.frame(for: Self.token(1)) == nil)
        #expect(frames.frame(for: Self.token(0)) != nil)
        #expect(frames.frame(for: Self.token(100_000)) != nil)
    }

    @Test func aFloodOfThirdPartyFramesNeverPushesTheAppsFramesOut() {
        var frames = FrameRegistry(callers: [Self.app])
        frames.register(token: Self.token(1), origin: "https://app.example", url: "https://app.example/")
        for number in 2..<(2 + 3 * FrameRegistry.capacity) {
            let registration = frames.register(token: Self.token(number), origin: "https://ads.example", url: "https://ads.example/\(number)")
            #expect(!registration.isCaller && registration.forgottenCaller == nil)
        }
        #expect(frames.frame(for: Self.token(1))?.allowedDocumentURL([Self.app]) == URL(string: "https://app.example/"))
        #expect(frames.count == 1 + FrameRegistry.capacity, "third-party frames have a pool of their own")
        let newest = frames.frame(for: Self.token(1 + 3 * FrameRegistry.capacity))
        #expect(newest?.origin == "https://ads.example", "still known, so its rejection names its origin")
    }
}
