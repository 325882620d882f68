import Foundation
import Testing
import Vitrine

/// The `tray` capability decided without a desktop: the icon's validation (files only
/// inside the app's folder, bounded tooltips and menus) and who may set it (granted top
/// documents, never a kiosk).
@Suite("Tray: the icon, its limits and who may set it")
@MainActor
struct TrayTests {
    private static let page = URL(string: "app://app/index.html")!

    private func refusal(_ json: String) -> String? {
        do { _ = try TrayIcon(json: (try? JSONValue(parsing: json)) ?? .null); return nil } catch { return error.message }
    }

    @Test func anIconIsAFileOfTheAppsFolderOrAThemeName() throws {
        let file = try TrayIcon(json: try JSONValue(parsing: #"{"icon": "icons/tray.png", "tooltip": "Mail", "items": [{"id": "open", "label": "Open"}]}"#))
        #expect(file.image == .file("icons/tray.png"))
        #expect(file.tooltip == "Mail")
        #expect(file.menu.commands.count == 1)
        #expect(try TrayIcon(json: try JSONValue(parsing: #"{"icon": "mail-unread"}"#)).image == .themed("mail-unread"))
        #expect(try TrayIcon(json: try JSONValue(parsing: #"{"icon": "logo.SVG"}"#)).image == .file("logo.SVG"))
        #expect(TrayEvent.activated(id: "open").payload.jsonText == #"{"id":"open"}"#)
        #expect(TrayEvent.activated(id: "open").name == "tray:activated" && TrayEvent.click.name == "tray:click")
    }

    /// A host's click on a check item flips it, in submenus too; unknown ids, submenus'
    /// labels and disabled items choose nothing and change nothing.
    @Test func aChoiceFlipsACheckItemAndNothingElse() throws {
        var tray = try TrayIcon(json: try JSONValue(parsing: #"""
            {"icon": "mail", "items": [{"id": "open", "label": "Open"}, "-", {"id": "mute", "label": "Mute", "checked": false},
              {"id": "off", "label": "Off", "enabled": false, "checked": true},
              {"label": "More", "items": [{"id": "wrap", "label": "Wrap", "checked": true}]}]}
            """#))
        let before = tray
        for refused in ["nope", "off", "More", "-", ""] {
            #expect(tray.choose(refused) == nil, "\(refused)")
        }
        #expect(tray == before)
        #expect(tray.choose("open") == .activated(id: "open"))
        #expect(tray == before, "a plain command changes nothing")
        #expect(tray.choose("mute") == .activated(id: "mute", checked: true))
        #expect(tray.choose("wrap") == .activated(id: "wrap", checked: false))
        #expect(tray.menu.commands.compactMap { item -> String? in
            guard case .command(let id, _, _, _, let checked?) = item else { return nil }
            return "\(id)=\(checked)"
        } == ["mute=true", "off=true", "wrap=false"])
        #expect(tray.choose("mute") == .activated(id: "mute", checked: false))
        #expect(TrayEvent.activated(id: "mute", checked: true).payload.jsonText == #"{"id":"mute","checked":true}"#)
    }

    @Test(arguments: [
        ("{}", "tray: icon must be a string (a file of the app's folder or an icon-theme name)"),
        (#"{"icon": 5}"#, "tray: icon must be a string (a file of the app's folder or an icon-theme name)"),
        (#"{"icon": "../up.png"}"#, #"tray: icon "../up.png" must be a path inside the app's folder, relative and without "..""#),
        (#"{"icon": "icons/../../up.png"}"#, #"tray: icon "icons/../../up.png" must be a path inside the app's folder, relative and without "..""#),
        (#"{"icon": "/etc/passwd.png"}"#, #"tray: icon "/etc/passwd.png" must be a path inside the app's folder, relative and without "..""#),
        (#"{"icon": "a//b.png"}"#, #"tray: icon "a//b.png" must be a path inside the app's folder, relative and without "..""#),
        (#"{"icon": ""}"#, "tray: an icon-theme name is 1 to 100 of A-Z a-z 0-9 - _ ."),
        (#"{"icon": "mail unread"}"#, "tray: an icon-theme name is 1 to 100 of A-Z a-z 0-9 - _ ."),
        (#"{"icon": "mail", "tooltip": 3}"#, "tray: tooltip must be a string"),
        (#"{"icon": "mail", "tooltip": "a\u0007"}"#, "tray: a tooltip is at most 200 characters without control characters"),
        (#"{"icon": "mail", "items": {}}"#, "menu: items must be an array"),
        (#"{"icon": "mail", "items": [{"id": "a"}]}"#, "menu: an item needs label, a string"),
        (#"{"icon": "mail", "items": [7]}"#, "menu: an item is an object or \"-\", not 7"),
    ])
    func aMalformedTrayIsRefusedWithItsReason(json: String, reason: String) {
        #expect(refusal(json) == reason)
    }

    @Test func aTrayBeyondItsLimitsIsRefused() {
        #expect(refusal(#"{"icon": "mail", "tooltip": "\#(String(repeating: "x", count: 201))"}"#)
            == "tray: a tooltip is at most 200 characters without control characters")
        #expect(refusal(#"{"icon": "mail", "tooltip": "\#(String(repeating: "x", count: 200))"}"#) == nil)
        #expect(refusal(#"{"icon": "\#(String(repeating: "m", count: 101))"}"#) == "tray: an icon-theme name is 1 to 100 of A-Z a-z 0-9 - _ .")
        #expect(refusal(#"{"icon": "\#(String(repeating: "d/", count: 300))x.png"}"#)?.hasPrefix("tray: icon") == true)
        let flood = (0...AppMenu.Limits.items).map { #"{"id": "i\#($0)", "label": "I"}"# }.joined(separator: ",")
        #expect(refusal(#"{"icon": "mail", "items": [\#(flood)]}"#) == "menu: at most 200 items")
    }

    @Test func anIconFileIsReadOnlyFromInsideTheAppsFolder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-tray-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("web")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("icons"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data([1, 2, 3]).write(to: folder.appendingPathComponent("icons/tray.png"))
        try Data([9]).write(to: root.appendingPathComponent("secret.png"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("out.png").path, withDestinationPath: "../secret.png")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("abs.png").path,
                                                   withDestinationPath: root.appendingPathComponent("secret.png").path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("in.png").path, withDestinationPath: "icons/tray.png")
        try Data(repeating: 0, count: TrayIcon.Limits.iconBytes + 1).write(to: folder.appendingPathComponent("big.png"))

        func bytes(_ path: String) -> Result<[UInt8]?, ScriptMessageError> {
            Result { () throws(ScriptMessageError) in try TrayIcon(image: .file(path)).iconFileBytes(in: folder) }
        }
        #expect(bytes("icons/tray.png") == .success([1, 2, 3]))
        #expect(bytes("in.png") == .success([1, 2, 3]))
        #expect(bytes("out.png") == .failure(ScriptMessageError(#"tray: icon "out.png" leads outside the app's folder"#)))
        #expect(bytes("abs.png") == .failure(ScriptMessageError(#"tray: icon "abs.png" leads outside the app's folder"#)))
        #expect(bytes("missing.png") == .failure(ScriptMessageError(#"tray: icon "missing.png" is not a file of the app's folder"#)))
        #expect(bytes("icons") == .failure(ScriptMessageError(#"tray: icon "icons" is not a file of the app's folder"#)))
        #expect(bytes("big.png") == .failure(ScriptMessageError(#"tray: icon "big.png" is over 1 MiB"#)))
        #expect(bytes("%2e%2e/secret.png") == .failure(ScriptMessageError(#"tray: icon "%2e%2e/secret.png" is not a file of the app's folder"#)))
        #expect(throws: ScriptMessageError("tray: an icon file needs the app's folder (app-dir); use an icon-theme name")) {
            try TrayIcon(image: .file("icons/tray.png")).iconFileBytes(in: nil)
        }
        #expect(try TrayIcon(image: .themed("mail")).iconFileBytes(in: folder) == nil)
    }

    // MARK: The strategy

    private static func principal(mainFrame: Bool) -> Principal {
        Principal(token: FrameToken(String(repeating: "cd", count: 16))!, reportedOrigin: "app://app", url: page.absoluteString,
                  isMainFrame: mainFrame, appID: "org.example.App")
    }

    private func dispatch(_ body: String, desktop: RecordingDesktop?, caller: Principal? = principal(mainFrame: true),
                          pageURL: URL = page) async -> Result<JSONValue, ScriptMessageError> {
        await ScriptMessageStrategies([TrayStrategy()]).dispatch(
            ScriptMessage(name: "tray", bodyJSON: body, pageURL: pageURL),
            context: ScriptMessageContext(host: DesktopTestHost(desktop), capabilities: CapabilityGrants().granting([.tray], to: Origin(string: "app://app")!),
                                          caller: caller))
    }

    private static let set = #"{"action": "set", "icon": "mail-unread", "tooltip": "Mail", "items": [{"id": "open", "label": "Open"}]}"#

    @Test func aGrantedTopDocumentSetsAndClearsTheTray() async {
        let desktop = RecordingDesktop()
        #expect(await dispatch(Self.set, desktop: desktop) == .success(true))
        #expect(await dispatch(#"{"action": "clear"}"#, desktop: desktop) == .success(true))
        #expect(desktop.trayCalls.map(\.owner) == [Self.principal(mainFrame: true).token, Self.principal(mainFrame: true).token])
        #expect(desktop.trayCalls.map(\.tray?.tooltip) == ["Mail", nil])
    }

    @Test func theTrayIsRefusedToOthers() async {
        let desktop = RecordingDesktop()
        #expect(await dispatch(Self.set, desktop: desktop, pageURL: URL(string: "https://x.example/")!) == .failure(ScriptMessageError(
            #"capability "tray" is not granted to https://x.example — add it to [capabilities] in the config"#)))
        let notTop = ScriptMessageError("tray: only the window's top document may set the tray icon, not a frame inside it")
        #expect(await dispatch(Self.set, desktop: desktop, caller: Self.principal(mainFrame: false)) == .failure(notTop))
        #expect(await dispatch(Self.set, desktop: desktop, caller: nil) == .failure(notTop))
        #expect(await dispatch(Self.set, desktop: RecordingDesktop(kiosk: true)) == .failure(ScriptMessageError("tray: a kiosk has no tray icon")))
        #expect(await dispatch(Self.set, desktop: nil) == .failure(ScriptMessageError("tray: this container has no desktop to do it")))
        #expect(await dispatch(#"{"action": "set", "icon": "../x.png"}"#, desktop: desktop)
            == .failure(ScriptMessageError(#"tray: icon "../x.png" must be a path inside the app's folder, relative and without "..""#)))
        #expect(await dispatch(#"{"action": "show"}"#, desktop: desktop)
            == .failure(ScriptMessageError(#"tray: field "action" must be one of "set", "clear", got "show""#)))
        #expect(await dispatch(#"{"action": "set", "icon": 7}"#, desktop: desktop)
            == .failure(ScriptMessageError(#"tray: set: field "icon" must be a string, got an integer"#)))
        #expect(await dispatch(#"{"action": "set", "icon": "a.png", "items": "x"}"#, desktop: desktop)
            == .failure(ScriptMessageError(#"tray: set: field "items" must be an array, got a string"#)))
        #expect(desktop.trayCalls.isEmpty)
    }
}
