import Foundation
import Testing
import Vitrine
import VitrineTesting

/// Global shortcuts decided without a display: the keys a page may ask for, the app's book
/// of who holds which, and the `shortcuts` capability's refusals.
@Suite("Global shortcuts: accelerators, the book, the capability")
@MainActor
struct ShortcutTests {
    @Test func acceleratorsAreReadAsGTKWritesThem() throws {
        let cases: [(String, String, String)] = [
            ("Ctrl+Alt+K", "<Control><Alt>k", "Ctrl+Alt+K"),
            ("alt + shift + f5", "<Alt><Shift>F5", "Alt+Shift+F5"),
            ("Super+Space", "<Super>space", "Super+space"),
            ("Control+Alt++", "<Control><Alt>plus", "Ctrl+Alt+plus"),
            ("Shift+Meta+7", "<Shift><Super>7", "Shift+Super+7"),
            ("Alt+Ctrl+PageUp", "<Control><Alt>Page_Up", "Ctrl+Alt+Page_Up"),
        ]
        for (text, gtk, written) in cases {
            let accelerator = try Accelerator(text)
            #expect(accelerator.gtkAccelerator == gtk, "\(text)")
            #expect(accelerator.description == written, "\(text)")
        }
        #expect(try Accelerator("ctrl+alt+k") == Accelerator("Alt+Ctrl+K"))
    }

    @Test func keysTheUserTypesAndGarbageAreRefused() {
        let refused = ["K", "Shift+K", "Shift+F5", "Ctrl+Ctrl+K", "Hyper+K", "Ctrl+", "", "Ctrl+Alt+F0", "Ctrl+Alt+F25", "Ctrl+Alt+F05",
                       "Ctrl+Alt+é", "Ctrl+Alt+KK", "Ctrl+Alt+<script>", "Ctrl+Alt+K+", String(repeating: "Ctrl+", count: 20) + "K"]
        for text in refused {
            #expect(throws: ScriptMessageError.self, "\(text) accepted") { try Accelerator(text) }
        }
        do {
            _ = try Accelerator("Shift+K")
        } catch {
            #expect(error.description.contains("needs Ctrl, Alt or Super"))
        }
    }

    @Test func theBookKeepsEachKeyToOneWindowAndLetsAWindowsKeysGoTogether() throws {
        var book = ShortcutBook()
        let search = try Accelerator("Ctrl+Alt+K"), other = try Accelerator("Ctrl+Alt+J")
        #expect(try book.register(search, id: "search", owner: 1) == nil)
        // Another window, or another id of the same window, cannot take the same keys.
        #expect(throws: ScriptMessageError("shortcuts: Ctrl+Alt+K is registered by another window of the app")) {
            try book.register(search, id: "search", owner: 2)
        }
        #expect(throws: ScriptMessageError("shortcuts: Ctrl+Alt+K is registered already (as 'search')")) {
            try book.register(search, id: "find", owner: 1)
        }
        // The same id again moves to the new keys: the old ones are to be let go.
        #expect(try book.register(other, id: "search", owner: 1) == search)
        #expect(book.entry(for: search) == nil && book.entry(for: other)?.id == "search")
        #expect(try book.register(search, id: "search2", owner: 2) == nil)
        #expect(book.unregister(id: "search", owner: 2) == nil, "not window 2's")
        #expect(Set(book.release(owner: 1)) == [other])
        #expect(book.entries.map(\.owner) == [2])
        for id in ["", String(repeating: "x", count: 65), "a\nb"] {
            #expect(throws: ScriptMessageError.self) { try book.register(other, id: id, owner: 1) }
        }
    }

    @Test func aRefusedRegistrationIsUndoneAndARefusedMoveKeepsTheOldKeys() throws {
        var book = ShortcutBook()
        let search = try Accelerator("Ctrl+Alt+K"), other = try Accelerator("Ctrl+Alt+J"), third = try Accelerator("Ctrl+Alt+H")
        // A new id the desktop refused goes.
        _ = try book.register(search, id: "search", owner: 1)
        book.undoRegistration(of: search, id: "search", owner: 1, previous: nil)
        #expect(book.entries.isEmpty)
        // A move to other keys the desktop refused: the id keeps the keys it held (still bound).
        _ = try book.register(search, id: "search", owner: 1)
        let previous = book.accelerator(id: "search", owner: 1)
        #expect(try book.register(other, id: "search", owner: 1) == search)
        book.undoRegistration(of: other, id: "search", owner: 1, previous: previous)
        #expect(book.entries.map { "\($0.accelerator) \($0.id) \($0.owner)" } == ["Ctrl+Alt+K search 1"])
        // The same keys registered again and refused: they stay.
        book.undoRegistration(of: search, id: "search", owner: 1, previous: search)
        #expect(book.entry(for: search)?.id == "search")
        // The page changed the id meanwhile: its newer choice stands.
        _ = try book.register(third, id: "search", owner: 1)
        book.undoRegistration(of: other, id: "search", owner: 1, previous: search)
        #expect(book.accelerator(id: "search", owner: 1) == third)
        // The old keys taken by another id meanwhile: the refused id goes, nobody's keys are doubled.
        _ = try book.register(search, id: "find", owner: 2)
        book.undoRegistration(of: third, id: "search", owner: 1, previous: search)
        #expect(book.entries.map { "\($0.accelerator) \($0.id) \($0.owner)" } == ["Ctrl+Alt+K find 2"])
    }

    @Test func aFloodStopsAtTheCapacity() throws {
        var book = ShortcutBook()
        for index in 0..<ShortcutBook.capacity {
            _ = try book.register(Accelerator("Ctrl+Alt+F\(index + 1)"), id: "k\(index)", owner: index % 3)
        }
        #expect(throws: ScriptMessageError("shortcuts: the app holds 16 shortcuts, the most it may; unregister one first")) {
            try book.register(Accelerator("Ctrl+Alt+K"), id: "one-more", owner: 0)
        }
        // Moving one of them is no new shortcut.
        #expect(try book.register(Accelerator("Ctrl+Alt+K"), id: "k0", owner: 0) == Accelerator("Ctrl+Alt+F1"))
        #expect(book.entries.count == ShortcutBook.capacity)
    }

    private func dispatch(_ body: String, page: URL? = URL(string: "app://app/index.html"), kiosk: Bool = false,
                          grant: Bool = true) async -> (Result<JSONValue, ScriptMessageError>, RecordingDesktop) {
        let desktop = RecordingDesktop(kiosk: kiosk)
        let grants = grant ? CapabilityGrants().granting([.shortcuts], to: Origin(string: "app://app")!) : CapabilityGrants()
        let result = await ScriptMessageStrategies([ShortcutsStrategy()]).dispatch(
            ScriptMessage(name: "shortcuts", bodyJSON: body, pageURL: page),
            context: ScriptMessageContext(host: DesktopTestHost(desktop), capabilities: grants))
        return (result, desktop)
    }

    @Test func theCapabilityRegistersForGrantedPagesOfAnAppOnly() async throws {
        let register = #"{"action": "register", "accelerator": "ctrl+alt+k", "id": "search"}"#
        let (granted, desktop) = await dispatch(register)
        #expect(granted == .success("Ctrl+Alt+K"))
        #expect(desktop.registered == ["search Ctrl+Alt+K"])
        let (foreign, untouched) = await dispatch(register, page: URL(string: "https://evil.example/")!)
        #expect(foreign == .failure(CapabilityGrants.refusal(.shortcuts, origin: "https://evil.example")))
        #expect((await dispatch(register, page: nil)).0 == .failure(CapabilityGrants.refusal(.shortcuts, origin: "this page")))
        #expect((await dispatch(register, grant: false)).0 == .failure(CapabilityGrants.refusal(.shortcuts, origin: "app://app")))
        #expect((await dispatch(register, kiosk: true)).0 == .failure(ScriptMessageError("shortcuts: a kiosk's keyboard is its page's alone")))
        #expect(untouched.registered.isEmpty)
        for garbage in [#"{"action": "register", "id": "x"}"#, #"{"action": "register", "accelerator": "K", "id": "x"}"#,
                        #"{"action": "register", "accelerator": 75, "id": "x"}"#, #"{"action": "grab"}"#, "null",
                        #"{"action": "register", "accelerator": "Ctrl+Alt+K"}"#] {
            let (result, desktop) = await dispatch(garbage)
            guard case .failure = result else { Issue.record("accepted \(garbage)"); continue }
            #expect(desktop.registered.isEmpty)
        }
        #expect((await dispatch(#"{"action": "unregister", "id": "search"}"#)).0 == .success(false))
    }

    @Test func aDesktopThatCannotGrabSaysSo() async {
        let result = await ScriptMessageStrategies([ShortcutsStrategy()]).dispatch(
            ScriptMessage(name: "shortcuts", bodyJSON: #"{"action": "register", "accelerator": "Ctrl+Alt+K", "id": "x"}"#,
                          pageURL: URL(string: "app://app/")),
            context: ScriptMessageContext(host: DesktopTestHost(BasicDesktop()),
                                          capabilities: CapabilityGrants().granting([.shortcuts], to: Origin(string: "app://app")!)))
        #expect(result == .failure(ScriptMessageError("shortcuts: this desktop cannot grab keys")))
    }
}
