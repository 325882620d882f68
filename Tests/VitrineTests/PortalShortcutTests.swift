import Foundation
import Testing
import Vitrine

/// Global shortcuts as the desktop portal's GlobalShortcuts binds them (Wayland): the
/// triggers it is offered, the ids it names them by, and what its answers mean to a page.
@Suite("Global shortcuts through the desktop portal")
struct PortalShortcutTests {
    @Test func triggersAreWrittenAsTheXDGShortcutsSpecificationSpellsThem() throws {
        let cases: [(String, String)] = [
            ("Ctrl+Alt+K", "CTRL+ALT+k"), ("alt + shift + f5", "ALT+SHIFT+F5"), ("Super+Space", "LOGO+space"),
            ("Control+Alt++", "CTRL+ALT+plus"), ("Alt+Ctrl+PageUp", "CTRL+ALT+Page_Up"), ("Meta+Enter", "LOGO+Return"),
        ]
        for (text, trigger) in cases {
            #expect(try Accelerator(text).portalTrigger == trigger, "\(text)")
        }
    }

    @Test func eachShortcutIsNamedByItsKeysSoTwoWindowsMayShareAPageID() throws {
        var book = ShortcutBook()
        _ = try book.register(Accelerator("Ctrl+Alt+K"), id: "search", owner: 1)
        _ = try book.register(Accelerator("Ctrl+Alt+J"), id: "search", owner: 2)
        #expect(book.portalShortcuts == [
            .init(id: "Ctrl+Alt+K", description: "search", preferredTrigger: "CTRL+ALT+k"),
            .init(id: "Ctrl+Alt+J", description: "search", preferredTrigger: "CTRL+ALT+j"),
        ])
        #expect(book.entry(portalID: "Ctrl+Alt+J")?.owner == 2)
        #expect(book.entry(portalID: "search") == nil)
        _ = book.release(owner: 2)
        #expect(book.entry(portalID: "Ctrl+Alt+J") == nil, "a window's shortcuts go with it")
        #expect(book.portalShortcuts.map(\.id) == ["Ctrl+Alt+K"])
    }

    @Test func thePortalsAnswerBindsOrRefusesWithTheReason() throws {
        let keys = try Accelerator("Ctrl+Alt+K")
        #expect(ShortcutBook.portalRefusal(of: keys, response: 0, bound: ["Ctrl+Alt+J", "Ctrl+Alt+K"]) == nil)
        let reasons = [(0, [String]()), (1, ["Ctrl+Alt+K"]), (2, []), (7, [])].map {
            ShortcutBook.portalRefusal(of: keys, response: UInt32($0.0), bound: $0.1)?.description ?? ""
        }
        #expect(reasons[0].contains("the user left it out"))
        #expect(reasons[1].contains("the user cancelled"))
        #expect(reasons[2].contains("ended the request") && reasons[3] == reasons[2])
        #expect(reasons.allSatisfy { $0.hasPrefix("shortcuts: Ctrl+Alt+K ") })
    }
}
