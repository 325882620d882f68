import Foundation
import Testing
import Vitrine

/// The `menu` capability decided without a desktop: the menu model's validation and
/// limits, accelerators, and who may set menus (granted top documents, never a kiosk).
@Suite("Menus: the model, its limits and who may set it")
@MainActor
struct MenuTests {
    private static let page = URL(string: "app://app/index.html")!

    private func menu(_ json: String) throws(ScriptMessageError) -> AppMenu {
        try AppMenu(json: (try? JSONValue(parsing: json)) ?? .null)
    }

    private func refusal(_ json: String) -> String? {
        do { _ = try menu(json); return nil } catch { return error.message }
    }

    @Test func aMenuBarWithSubmenusSeparatorsChecksAndAcceleratorsIsRead() throws {
        let parsed = try menu("""
            [{"label": "File", "items": [{"id": "open", "label": "Open…", "accelerator": "Ctrl+O"}, "-",
              {"id": "quit", "label": "Quit", "enabled": false}]},
             {"label": "View", "items": [{"id": "wrap", "label": "Wrap", "checked": true, "accelerator": "ctrl + shift + F5"},
              {"type": "separator"}, {"label": "Zoom", "items": [{"id": "zoom.in", "label": "In", "accelerator": "Ctrl+Plus"}]}]}]
            """)
        #expect(parsed.items == [
            .submenu(label: "File", items: [.command(id: "open", label: "Open…", accelerator: "<Control>o", enabled: true, checked: nil),
                                            .separator,
                                            .command(id: "quit", label: "Quit", accelerator: nil, enabled: false, checked: nil)]),
            .submenu(label: "View", items: [.command(id: "wrap", label: "Wrap", accelerator: "<Control><Shift>F5", enabled: true, checked: true),
                                            .separator,
                                            .submenu(label: "Zoom", items: [.command(id: "zoom.in", label: "In", accelerator: "<Control>plus",
                                                                                     enabled: true, checked: nil)])]),
        ])
        #expect(parsed.commands.count == 4)
        #expect(MenuActivation(id: "wrap", placement: .menuBar, checked: false).payload.jsonText == #"{"id":"wrap","menu":"bar","checked":false}"#)
        #expect(MenuActivation(id: "copy", placement: .context).payload.jsonText == #"{"id":"copy","menu":"context"}"#)
    }

    @Test(arguments: [
        ("{}", "menu: items must be an array"),
        (#"[{"id": "a"}]"#, "menu: an item needs label, a string"),
        (#"[{"label": "A"}]"#, "menu: A: a command item needs id, a string"),
        (#"[{"label": "A", "items": 3}]"#, "menu: A: items must be an array"),
        (#"[7]"#, "menu: an item is an object or \"-\", not 7"),
        (#"[{"id": "a", "label": "A", "enabled": "yes"}]"#, "menu: a: enabled must be true or false"),
        (#"[{"id": "a", "label": "A"}, {"id": "a", "label": "B"}]"#, #"menu: id "a" is used twice"#),
        (#"[{"label": "A", "items": [{"id": "a", "label": "x"}]}, {"id": "a", "label": "B"}]"#, #"menu: id "a" is used twice"#),
        (#"[{"id": "a b", "label": "A"}]"#, #"menu: an id is 1 to 64 of A-Z a-z 0-9 - _ . :, not "a b""#),
        (#"[{"id": "", "label": "A"}]"#, #"menu: an id is 1 to 64 of A-Z a-z 0-9 - _ . :, not """#),
        (#"[{"id": "a", "label": ""}]"#, "menu: a label is 1 to 100 characters without control characters"),
        (#"[{"id": "a", "label": "A\u0007"}]"#, "menu: a label is 1 to 100 characters without control characters"),
        (#"[{"id": "a", "label": "A", "accelerator": "Ctrl+Ctrl+K"}]"#, #"menu: accelerator "Ctrl+Ctrl+K" is not a key combination like "Ctrl+Shift+K" or "F5""#),
        (#"[{"id": "a", "label": "A", "accelerator": "Hyper+K"}]"#, #"menu: accelerator "Hyper+K" is not a key combination like "Ctrl+Shift+K" or "F5""#),
        (#"[{"id": "a", "label": "A", "accelerator": "Ctrl+"}]"#, #"menu: accelerator "Ctrl+" is not a key combination like "Ctrl+Shift+K" or "F5""#),
        (#"[{"id": "a", "label": "A", "accelerator": "F25"}]"#, #"menu: accelerator "F25" is not a key combination like "Ctrl+Shift+K" or "F5""#),
        (#"[{"id": "a", "label": "A", "accelerator": "<Control>k"}]"#, #"menu: accelerator "<Control>k" is not a key combination like "Ctrl+Shift+K" or "F5""#),
        (#"[{"id": "a", "label": "A", "accelerator": 5}]"#, "menu: a: accelerator must be a string"),
    ])
    func aMalformedMenuIsRefusedWithItsReason(json: String, reason: String) {
        #expect(refusal(json) == reason)
    }

    @Test func aMenuBeyondItsLimitsIsRefused() {
        let longLabel = String(repeating: "x", count: AppMenu.Limits.labelLength + 1)
        #expect(refusal(#"[{"id": "a", "label": "\#(longLabel)"}]"#) == "menu: a label is 1 to 100 characters without control characters")
        #expect(refusal(#"[{"id": "\#(String(repeating: "i", count: 65))", "label": "A"}]"#)?.hasPrefix("menu: an id is 1 to 64") == true)
        // 201 items, flat or spread over submenus.
        let flat = (0...AppMenu.Limits.items).map { #"{"id": "i\#($0)", "label": "I"}"# }.joined(separator: ",")
        #expect(refusal("[\(flat)]") == "menu: at most 200 items")
        let spread = (0..<3).map { submenu in
            #"{"label": "S", "items": [\#((0..<67).map { #"{"id": "s\#(submenu)-\#($0)", "label": "I"}"# }.joined(separator: ","))]}"#
        }.joined(separator: ",")
        #expect(refusal("[\(spread)]") == "menu: at most 200 items in all")
        // Submenus four deep are fine; five are not.
        func nested(_ depth: Int) -> String {
            depth == 1 ? #"[{"id": "leaf", "label": "Leaf"}]"# : #"[{"label": "L", "items": \#(nested(depth - 1))}]"#
        }
        #expect(refusal(nested(4)) == nil)
        #expect(refusal(nested(5)) == "menu: submenus nest at most 4 deep")
        // 500 deep: refused too (the JSON reader's own depth limit already stops it).
        #expect(refusal(nested(500)) != nil)
        #expect(throws: ScriptMessageError.self) { try AppMenu(items: [.submenu(label: "1", items: [.submenu(label: "2", items: [
            .submenu(label: "3", items: [.submenu(label: "4", items: [.submenu(label: "5", items: [])])])])])]) }
    }

    // MARK: The strategy

    private static func principal(mainFrame: Bool) -> Principal {
        Principal(token: FrameToken(String(repeating: "ab", count: 16))!, reportedOrigin: "app://app", url: page.absoluteString,
                  isMainFrame: mainFrame, appID: "org.example.App")
    }

    private func dispatch(_ body: String, desktop: RecordingDesktop?, caller: Principal? = principal(mainFrame: true),
                          grants: CapabilityGrants = CapabilityGrants().granting([.menu], to: Origin(string: "app://app")!),
                          pageURL: URL = page) async -> Result<JSONValue, ScriptMessageError> {
        let host = DesktopTestHost(desktop)
        return await ScriptMessageStrategies([MenuStrategy()]).dispatch(
            ScriptMessage(name: "menu", bodyJSON: body, pageURL: pageURL),
            context: ScriptMessageContext(host: host, capabilities: grants, caller: caller))
    }

    private static let set = #"{"action": "set", "items": [{"label": "File", "items": [{"id": "open", "label": "Open"}]}]}"#

    @Test func aGrantedTopDocumentSetsItsMenusAndClearsBoth() async throws {
        let desktop = RecordingDesktop()
        #expect(await dispatch(Self.set, desktop: desktop) == .success(true))
        #expect(await dispatch(#"{"action": "setContext", "items": ["-", {"id": "copy", "label": "Copy"}]}"#, desktop: desktop) == .success(true))
        #expect(await dispatch(#"{"action": "clear"}"#, desktop: desktop) == .success(true))
        let token = Self.principal(mainFrame: true).token
        #expect(desktop.menuCalls.map(\.placement) == [.menuBar, .context, .menuBar, .context])
        #expect(desktop.menuCalls.map(\.owner) == [token, token, token, token])
        #expect(desktop.menuCalls.map { $0.menu?.commands.count } == [1, 1, nil, nil])
    }

    @Test func menusAreRefusedToOthers() async throws {
        let desktop = RecordingDesktop()
        // An origin not granted `menu`.
        #expect(await dispatch(Self.set, desktop: desktop, pageURL: URL(string: "https://x.example/")!) == .failure(ScriptMessageError(
            #"capability "menu" is not granted to https://x.example — add it to [capabilities] in the config"#)))
        // A frame inside the page, even of a granted origin, and a caller the bridge does not know.
        let notTop = ScriptMessageError("menu: only the window's top document may set its menus, not a frame inside it")
        #expect(await dispatch(Self.set, desktop: desktop, caller: Self.principal(mainFrame: false)) == .failure(notTop))
        #expect(await dispatch(Self.set, desktop: desktop, caller: nil) == .failure(notTop))
        // A kiosk never shows menus; a host without a desktop has none.
        #expect(await dispatch(Self.set, desktop: RecordingDesktop(kiosk: true)) == .failure(ScriptMessageError("menu: a kiosk never shows menus")))
        #expect(await dispatch(Self.set, desktop: nil) == .failure(ScriptMessageError("menu: this container has no desktop to do it")))
        // Garbage: refused before the desktop sees anything.
        #expect(await dispatch(#"{"action": "set"}"#, desktop: desktop) == .failure(ScriptMessageError(#"menu: set: field "items" is missing"#)))
        #expect(await dispatch(#"{"action": "setContext", "items": null}"#, desktop: desktop)
            == .failure(ScriptMessageError(#"menu: setContext: field "items" must be an array, got null"#)))
        #expect(await dispatch(#"{"action": "pop"}"#, desktop: desktop)
            == .failure(ScriptMessageError(#"menu: field "action" must be one of "set", "setContext", "clear", got "pop""#)))
        #expect(desktop.menuCalls.isEmpty)
    }
}
