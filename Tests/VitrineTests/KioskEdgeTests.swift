import Foundation
import Testing
import Vitrine
import VitrineConfigFile
import VitrineTesting

/// The kiosk's edges decided in the core: origins the URL standard's way in the allowlist,
/// the top-level documents and gesture-less windows a kiosk refuses before its chain, and
/// what the capabilities refuse (a kiosk leaving fullscreen, a background clipboard read or write,
/// a save name that leaves its folder, a `mailto:` that attaches files).
@Suite("Kiosk edges: origins, top-level documents, popups, capabilities")
@MainActor
struct KioskEdgeTests {
    nonisolated private static let app = Origin(string: "http://127.0.0.1:8000")!
    nonisolated private static let foreign = Origin(string: "http://localhost:8000")!

    private func url(_ string: String) -> URL { URL(string: string)! }

    private func kiosk(_ refine: (Configurator) -> Configurator = { $0 }) throws -> Configuration {
        try refine(ConfiguratorFactory.make(for: .kiosk).startURL(url("http://127.0.0.1:8000/start.html"))).build()
    }

    // MARK: Origins

    @Test func aBlobURLHasItsCreatorsOriginAndNestedOrOpaqueOnesNone() {
        #expect(Origin(url("blob:http://127.0.0.1:8000/5d1c-uuid")) == Self.app)
        #expect(Origin(url("blob:https://Example.org/x")) == Origin(string: "https://example.org"))
        #expect(Origin(url("blob:app://demo/uuid")) == Origin(string: "app://demo"))
        for opaque in ["blob:null/uuid", "blob:blob:http://127.0.0.1:8000/uuid", "blob:data:text/html,x", "blob:about:blank"] {
            #expect(Origin(url(opaque)) == nil, "\(opaque)")
        }
    }

    @Test func aboutBlankAndSrcdocInheritTheirParentsOriginOtherAboutPagesNone() {
        for inheriting in ["about:blank", "about:srcdoc", "about:blank#top", "ABOUT:BLANK?x"] {
            #expect(Origin(document: url(inheriting), inheriting: Self.app) == Self.app, "\(inheriting)")
            #expect(Origin(document: url(inheriting), inheriting: nil) == nil, "\(inheriting) without a parent is opaque")
        }
        for opaque in ["about:config", "about:blankx", "data:text/html,x", "javascript:1"] {
            #expect(Origin(document: url(opaque), inheriting: Self.app) == nil, "\(opaque)")
        }
        #expect(Origin(document: url("http://127.0.0.1:8000/x"), inheriting: Self.foreign) == Self.app)
    }

    @Test func aNavigationKnowsItsTopLevelOnlyWhereWebKitSaysSo() {
        let response = NavigationResponse(mimeType: "text/html", statusCode: 200, canShowMIMEType: true, isMainFrame: true)
        #expect(NavigationAction(url: url("about:blank"), target: .newWindow).isTopLevel == true)
        #expect(NavigationAction(url: url("blob:http://127.0.0.1:8000/u"), phase: .response(response)).isTopLevel == true)
        #expect(NavigationAction(url: url("about:srcdoc")).isTopLevel == false)
        #expect(NavigationAction(url: url("about:blank")).isTopLevel == nil)
        // A top-level about:blank inherits nothing, a frame's inherits its page's.
        #expect(NavigationAction(url: url("about:blank"), target: .newWindow, parentOrigin: Self.app).documentOrigin == nil)
        #expect(NavigationAction(url: url("about:srcdoc"), parentOrigin: Self.app).documentOrigin == Self.app)
    }

    /// A frame's document, the origin of the page it is in, and whether an allowlist of
    /// the app's origin lets it load.
    struct FrameCase: Sendable, CustomStringConvertible {
        let page: String
        let parent: Origin?
        let passes: Bool
        var description: String { "\(page) in a page of \(parent?.description ?? "no origin")" }
    }

    @Test(arguments: [
        FrameCase(page: "about:srcdoc", parent: app, passes: true), FrameCase(page: "about:blank", parent: app, passes: true),
        FrameCase(page: "blob:http://127.0.0.1:8000/u", parent: nil, passes: true),
        FrameCase(page: "about:srcdoc", parent: foreign, passes: false), FrameCase(page: "about:blank", parent: nil, passes: false),
        FrameCase(page: "blob:http://localhost:8000/u", parent: app, passes: false),
        FrameCase(page: "blob:null/u", parent: app, passes: false), FrameCase(page: "data:text/html,x", parent: app, passes: false),
        FrameCase(page: "javascript:1", parent: app, passes: false),
    ])
    func theAllowlistJudgesTheDocumentsOrigin(_ frame: FrameCase) async {
        let context = NavigationContext(host: TestHost(), appOrigins: [Self.app])
        let action = NavigationAction(url: url(frame.page), parentOrigin: frame.parent)
        let result = await OriginAllowlistHandler().handle(action, context: context)
        #expect(result == (frame.passes ? .pass : .decide(.cancel)), "\(frame)")
    }

    // MARK: The kiosk's own rules

    @Test(arguments: ["about:blank", "data:text/html,x", "blob:http://127.0.0.1:8000/u", "javascript:1"])
    func aKioskRefusesTopLevelDocumentsWithoutAnOriginOfTheirOwn(page: String) async throws {
        // Even a kiosk whose chain lets everything through.
        let configuration = try kiosk { $0.navigationHandlers([DefaultAllowHandler()]) }
        let context = NavigationContext(host: TestHost(), appOrigins: configuration.appOrigins)
        let refused = NavigationDecision(policy: .cancel, handler: "kiosk-top-level")
        let shown = NavigationResponse(mimeType: "text/html", statusCode: 200, canShowMIMEType: true, isMainFrame: true)
        #expect(await configuration.decide(NavigationAction(url: url(page), phase: .response(shown)), context: context) == refused)
        #expect(await configuration.decide(NavigationAction(url: url(page), target: .newWindow, isUserGesture: true),
                                           context: context) == refused)
        #expect(configuration.refusal(ofLoad: url(page))?.policy == .cancel)
        #expect(configuration.refusesTopLevelDocument(at: url(page)))
        // A frame's document is the chain's to judge; so is a response WebKit cannot show
        // (a download, not a page).
        let framed = NavigationResponse(mimeType: "text/html", statusCode: 200, canShowMIMEType: true, isMainFrame: false)
        #expect(configuration.kioskRefusal(of: NavigationAction(url: url(page), phase: .response(framed))) == nil)
        let download = NavigationResponse(mimeType: "text/csv", statusCode: 200, canShowMIMEType: false, isMainFrame: true)
        #expect(configuration.kioskRefusal(of: NavigationAction(url: url(page), phase: .response(download))) == nil)
        // An app is no kiosk.
        let app = try ConfiguratorFactory.make(for: .default).startURL(url("http://127.0.0.1:8000/")).build()
        #expect(app.kioskRefusal(of: NavigationAction(url: url(page), phase: .response(shown))) == nil)
        #expect(!app.refusesTopLevelDocument(at: url(page)))
    }

    @Test func aKioskRefusesAWindowOpenWithoutAUserGesture() async throws {
        let configuration = try kiosk()
        let context = NavigationContext(host: TestHost(), appOrigins: configuration.appOrigins)
        let own = url("http://127.0.0.1:8000/other.html")
        #expect(await configuration.decide(NavigationAction(url: own, target: .newWindow), context: context)
                == NavigationDecision(policy: .cancel, handler: "popup-blocker"))
        #expect(await configuration.decide(NavigationAction(url: own, target: .newWindow, isUserGesture: true),
                                           context: context).policy == .allow)
        #expect(await configuration.decide(NavigationAction(url: own), context: context).policy == .allow,
                "a script's own navigation is no popup")
        let app = try ConfiguratorFactory.make(for: .default).build()
        #expect(app.kioskRefusal(of: NavigationAction(url: own, target: .newWindow)) == nil)
    }

    @Test func aKioskFrameMayHoldSrcdocAndBlankOfItsPageAndItsOwnBlobs() async throws {
        let configuration = try kiosk()
        let context = NavigationContext(host: TestHost(), appOrigins: configuration.appOrigins)
        for frame in ["about:srcdoc", "about:blank", "blob:http://127.0.0.1:8000/u"] {
            #expect(await configuration.decide(NavigationAction(url: url(frame), parentOrigin: Self.app), context: context).policy == .allow)
            #expect(await configuration.decide(NavigationAction(url: url(frame), parentOrigin: Self.foreign), context: context).policy
                    == (frame.hasPrefix("blob:") ? .allow : .cancel), "\(frame) in a foreign page")
        }
    }

    @Test func aKiosksOtherWindowsAreKiosksAndAnAppsAreNot() throws {
        let request = WindowRequest(url: url("http://127.0.0.1:8000/second.html"))
        let opened = try kiosk().forWindow(request)
        #expect(opened.kiosk == KioskOptions())
        #expect(opened.isLockedDown)
        #expect(opened.answer(toScriptDialog: .confirm) == .confirmed(false))
        #expect(!opened.opensNativeDialogs)
        #expect(opened.fullscreen, "a kiosk's window is fullscreen as the kiosk is")
        let app = try ConfiguratorFactory.make(for: .default).startURL(url("http://127.0.0.1:8000/")).fullscreen().build()
        let appWindow = try app.forWindow(request)
        #expect(appWindow.kiosk == nil)
        #expect(!appWindow.fullscreen)
    }

    // MARK: Capabilities

    @Test func aKiosksWindowStaysFullscreenAndShown() async throws {
        for (kiosk, body, expected) in [
            (true, #"{"action": "fullscreen", "on": false}"#, Result<JSONValue, ScriptMessageError>.failure(ScriptMessageError("window: fullscreen: a kiosk's window stays fullscreen"))),
            (true, #"{"action": "minimize"}"#, .failure(ScriptMessageError("window: minimize: a kiosk's window stays shown"))),
            (true, #"{"action": "fullscreen"}"#, .success(true)),
            (false, #"{"action": "fullscreen", "on": false}"#, .success(true)),
            (false, #"{"action": "minimize"}"#, .success(true)),
        ] {
            let desktop = FakeDesktop(kiosk: kiosk)
            #expect(await dispatch("window", body, desktop) == expected, "kiosk \(kiosk): \(body)")
            #expect(desktop.performed.count == (expected == .success(true) ? 1 : 0), "refused before any window call")
        }
    }

    @Test func aClipboardReadNeedsAShownFocusedWindow() async throws {
        let read = #"{"action": "readText"}"#
        #expect(await dispatch("clipboard", read, FakeDesktop(focused: true)) == .success("copied"))
        #expect(await dispatch("clipboard", read, FakeDesktop(focused: false)) == .failure(ScriptMessageError(
            "clipboard: readText: the window must be shown and focused (a hidden or background window's page cannot read the clipboard)")))
    }

    @Test func aClipboardWriteNeedsAShownFocusedWindowUnlessBackgroundWritesAreAllowed() async throws {
        // An image is its bytes posted whole (the bridge's bytes port).
        let writes: [JSONValue] = [["action": "writeText", "text": "x"], .bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])]
        for (body, action) in zip(writes, ["writeText", "writeImage"]) {
            let background = FakeDesktop(focused: false)
            #expect(await dispatch("clipboard", body, background) == .failure(ScriptMessageError(
                "clipboard: \(action): the window must be shown and focused (a hidden or background window's page cannot "
                    + "overwrite the clipboard; [capabilities] background-clipboard = true allows it)")))
            #expect(background.written == 0, "refused before the desktop's clipboard is touched")
            let focused = FakeDesktop(focused: true)
            #expect(await dispatch("clipboard", body, focused) == .success(true))
            #expect(focused.written == 1)
            let allowed = FakeDesktop(focused: false)
            #expect(await dispatch("clipboard", body, allowed, backgroundClipboard: true) == .success(true))
            #expect(allowed.written == 1)
        }
        // Reads stay refused whatever the option says.
        #expect(await dispatch("clipboard", #"{"action": "readText"}"#, FakeDesktop(focused: false), backgroundClipboard: true)
            == .failure(ScriptMessageError(
                "clipboard: readText: the window must be shown and focused (a hidden or background window's page cannot read the clipboard)")))
        // The option reaches the built-in strategy from a file.
        let file = try ConfigFile(text: "[capabilities]\nbackground-clipboard = true\n", path: "app.toml").configuration()
        let plain = try ConfigFile(text: "", path: "app.toml").configuration()
        #expect(file.backgroundClipboard && !plain.backgroundClipboard)
        let builtIn = BuiltInCapabilities.strategies(for: file).compactMap { $0 as? ClipboardStrategy }
        #expect(builtIn.map(\.writesInBackground) == [true])
    }

    @Test(arguments: ["../x", "a/b", "/etc/passwd", "a\\b", ".bashrc", "..", ".", "a\u{0}b", String(repeating: "n", count: 256)])
    func aSaveNameThatLeavesItsFolderOrHidesIsRefused(name: String) async throws {
        let desktop = FakeDesktop()
        let body: JSONValue = ["action": "save", "name": .string(name)]
        let result = await dispatch("dialog", body.jsonText, desktop)
        guard case .failure(let error) = result else { Issue.record("\(name) accepted"); return }
        #expect(error.description.hasPrefix("dialog: save: name must be a plain file name"), "\(error)")
        #expect(desktop.dialogs.isEmpty, "no dialog opened")
    }

    @Test func aPlainSaveNameIsSuggested() async throws {
        let desktop = FakeDesktop()
        _ = await dispatch("dialog", #"{"action": "save", "name": "report 2024.csv"}"#, desktop)
        _ = await dispatch("dialog", #"{"action": "save"}"#, desktop)
        #expect(desktop.dialogs.map(\.suggestedName) == ["report 2024.csv", nil])
        #expect(await dispatch("dialog", #"{"action": "save", "name": 3}"#, desktop) == .failure(ScriptMessageError(#"dialog: save: field "name" must be a string, got an integer"#)))
    }

    @Test(arguments: [
        ("mailto:a@b.test?subject=Hi&attach=/etc/passwd&body=x", "mailto:a@b.test?subject=Hi&body=x"),
        ("mailto:a@b.test?ATTACHMENT=file:///home/u/.ssh/id_rsa", "mailto:a@b.test"),
        ("mailto:a@b.test?at%74ach=/etc/passwd&cc=c@d.test", "mailto:a@b.test?cc=c@d.test"),
        ("mailto:a@b.test?x-attach=/x&attachments=/y&subject=attach%20me", "mailto:a@b.test?subject=attach%20me"),
        ("mailto:a@b.test?%20attach=/x", "mailto:a@b.test"),
        ("mailto:a@b.test", "mailto:a@b.test"),
        ("https://example.org/?attach=/etc/passwd", "https://example.org/?attach=/etc/passwd"),
    ])
    func aMailtoURLLosesItsFileParametersBeforeTheDesktopSeesIt(given: String, handed: String) {
        #expect(DesktopURL.forDesktop(url(given)).absoluteString == handed)
    }

    private func dispatch(_ name: String, _ body: String, _ desktop: FakeDesktop,
                          backgroundClipboard: Bool = false) async -> Result<JSONValue, ScriptMessageError> {
        await dispatch(name, ScriptMessage(name: name, bodyJSON: body).body, desktop, backgroundClipboard: backgroundClipboard)
    }

    private func dispatch(_ name: String, _ body: JSONValue, _ desktop: FakeDesktop,
                          backgroundClipboard: Bool = false) async -> Result<JSONValue, ScriptMessageError> {
        let page = url("http://127.0.0.1:8000/start.html")
        let grants = CapabilityGrants().granting(Set(Capability.allCases), to: Self.app)
        let strategies = ScriptMessageStrategies([WindowStrategy(), ClipboardStrategy(writesInBackground: backgroundClipboard), DialogStrategy()])
        return await strategies.dispatch(ScriptMessage(name: name, body: body, pageURL: page),
                                         context: ScriptMessageContext(host: DesktopTestHost(desktop), capabilities: grants))
    }
}

@MainActor
private final class FakeDesktop: WindowService, ClipboardService, NotificationService, FileDialogService {
    let isKioskWindow: Bool
    let isWindowFocusedAndVisible: Bool
    private(set) var performed: [WindowCommand] = []
    private(set) var dialogs: [FileDialogRequest] = []
    /// Clipboard writes that reached the desktop.
    private(set) var written = 0

    init(kiosk: Bool = false, focused: Bool = true) {
        isKioskWindow = kiosk
        isWindowFocusedAndVisible = focused
    }

    func clipboardText() async -> String? { "copied" }
    func setClipboardText(_ text: String) { written += 1 }
    func setClipboardImage(png: [UInt8]) throws { written += 1 }
    func perform(_ command: WindowCommand) throws -> JSONValue {
        performed.append(command)
        return true
    }
    func notify(_ notification: DesktopNotification) throws {}
    func chooseFiles(_ request: FileDialogRequest) async throws -> [String]? {
        dialogs.append(request)
        return nil
    }
    func showMessage(title: String, message: String) async {}
}
