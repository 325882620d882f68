import Foundation
import Testing
import Vitrine
import VitrineTesting

/// The built-in strategies' requests (`ActionRequest` enums): decoded once, a payload of
/// another shape refused naming the action, the field and what it must be.
@MainActor
@Suite
struct CapabilityRequestTests {
    static let app = URL(string: "app://app/index.html")!

    /// Every built-in typed strategy, as a page of the app granted everything reaches it.
    private func dispatch(_ name: String, _ body: JSONValue, host: TestHost = TestHost()) async -> Result<JSONValue, ScriptMessageError> {
        let configuration = try! ConfiguratorFactory.make(for: .default).startURL(Self.app).build()
        let strategies = ScriptMessageStrategies(BuiltInCapabilities.strategies(for: configuration) + [PageStrategy()])
        let grants = CapabilityGrants().granting(Set(Capability.allCases), to: Origin(string: "app://app")!)
        return await strategies.dispatch(ScriptMessage(name: name, body: body, pageURL: Self.app),
                                         context: ScriptMessageContext(host: host, capabilities: grants))
    }

    private func refusal(_ name: String, _ json: String) async -> String? {
        guard case .failure(let error) = await dispatch(name, try! JSONValue(parsing: json)) else { return nil }
        return error.message
    }

    /// Each capability with calls is answered by the strategy of its own name; `drop` has none.
    @Test func eachCapabilityIsAnsweredByTheStrategyOfItsName() throws {
        let configuration = try ConfiguratorFactory.make(for: .default).startURL(Self.app).build()
        for capability in Capability.allCases {
            let identifier = capability.strategy(for: configuration)?.identifier
            #expect(identifier == (capability == .drop ? nil : capability.rawValue), "\(capability)")
        }
        // Besides them, only page-error, which no capability gates (the app's own origins only).
        let builtIn = BuiltInCapabilities.strategies(for: configuration).map(\.identifier)
        let answered = Capability.allCases.filter { $0 != .drop }.map(\.rawValue)
        #expect(builtIn.sorted() == (answered + ["page-error"]).sorted())
    }

    @Test func aFieldOfTheWrongTypeIsNamedWithWhatItMustBe() async {
        #expect(await refusal("clipboard", #"{"action": "writeText", "text": 5}"#)
            == #"clipboard: writeText: field "text" must be a string, got an integer"#)
        #expect(await refusal("app", #"{"action": "setAutostart", "on": "yes"}"#)
            == #"app: setAutostart: field "on" must be a boolean, got a string"#)
        #expect(await refusal("dialog", #"{"action": "open", "multiple": 1}"#)
            == #"dialog: open: field "multiple" must be a boolean, got an integer"#)
        #expect(await refusal("menu", #"{"action": "set", "items": {"id": "a"}}"#)
            == #"menu: set: field "items" must be an array, got an object"#)
        #expect(await refusal("page", #"{"action": "setTitle", "title": null}"#)
            == #"page: setTitle: field "title" must be a string, got null"#)
    }

    @Test func aMissingFieldIsNamed() async {
        #expect(await refusal("window", #"{"action": "resize", "width": 640}"#) == #"window: resize: field "height" is missing"#)
        #expect(await refusal("shortcuts", #"{"action": "register", "accelerator": "Ctrl+Alt+K"}"#)
            == #"shortcuts: register: field "id" is missing"#)
        #expect(await refusal("storage", #"{"action": "set", "key": "k"}"#) == #"storage: set: field "value" is missing"#)
        #expect(await refusal("tray", #"{"action": "set"}"#) == #"tray: set: field "icon" is missing"#)
    }

    @Test func anUnknownOrMissingActionListsTheActions() async {
        #expect(await refusal("storage", #"{"action": "explode"}"#)
            == #"storage: field "action" must be one of "get", "set", "remove", "keys", "clear", got "explode""#)
        #expect(await refusal("page", "{}") == #"page: field "action" is missing: one of "close", "reload", "setTitle""#)
        #expect(await refusal("print", #"{"action": 3}"#) == #"print: field "action" must be a string, got an integer"#)
        #expect(await refusal("notification", "[1]") == #"notification: the payload must be an object {"action": …}, got an array"#)
        #expect(await refusal("shell", "null") == #"shell: the payload must be an object {"action": …}, got null"#)
    }

    /// Each strategy lists exactly the actions its enum decodes: every listed one gets past
    /// the action (whatever its fields then say), an unlisted one does not.
    @Test(arguments: [
        ("app", AppStrategy.Request.actions), ("clipboard", ClipboardStrategy.Action.actions),
        ("dialog", DialogStrategy.Request.actions), ("menu", MenuStrategy.Request.actions),
        ("notification", NotificationStrategy.Request.actions), ("print", PrintStrategy.Request.actions),
        ("shell", ShellStrategy.Request.actions), ("shortcuts", ShortcutsStrategy.Request.actions),
        ("storage", StorageStrategy.Request.actions), ("tray", TrayStrategy.Request.actions),
        ("window", WindowStrategy.Request.actions), ("page", PageStrategy.Request.actions),
        ("power", PowerStrategy.Request.actions),
    ])
    func everyListedActionDecodes(name: String, actions: [String]) async {
        #expect(!actions.isEmpty)
        for action in actions {
            let error = await refusal(name, JSONValue.object(["action": .string(action)]).jsonText) ?? ""
            #expect(!error.contains(#"field "action""#), "\(name) \(action): \(error)")
            #expect(!error.contains("Invalid number of keys"), "\(name) \(action): the enum has no such case: \(error)")
        }
        #expect(await refusal(name, #"{"action": "noSuchAction"}"#)?.contains(#"field "action" must be one of"#) == true)
        // …and exactly its enum's cases: vitrine.d.ts has them from the Swift syntax
        // (VitrineTypesTests keeps it fresh), so a case missing from `actions` shows here.
        #expect(Self.declaredActions(of: name) == actions, "vitrine.d.ts's \(name) vs its actions")
    }

    /// The actions vitrine.d.ts declares for strategy `name`, in order.
    private static func declaredActions(of name: String) -> [String] {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources/sdk/vitrine.d.ts")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("    \"\(name)\": { payload: ") }) else { return [] }
        return line.split(separator: "{ action: \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    /// What a hostile page may post: every wrong shape is refused with the field at fault,
    /// before any service is asked.
    @Test(arguments: [
        ("window", #"{"action": "resize", "width": "640", "height": 480}"#, #"window: resize: field "width" must be a number, got a string"#),
        ("window", #"{"action": "open", "url": ["app://app/x"]}"#, #"window: open: field "url" must be a string, got an array"#),
        ("window", #"{"action": "fullscreen", "on": "false"}"#, #"window: fullscreen: field "on" must be a boolean, got a string"#),
        ("dialog", #"{"action": "read", "path": "/etc/passwd", "as": "hex"}"#, #"dialog: read: field "as" is invalid: Cannot initialize ReadForm from invalid String value hex"#),
        ("dialog", #"{"action": "save", "text": {"a": 1}}"#, #"dialog: save: field "text" must be a string, got an object"#),
        ("print", #"{"action": "pdf", "margins": "10"}"#, #"print: pdf: field "margins" must be a number, got a string"#),
        ("shell", #"{"action": "open", "url": null}"#, #"shell: open: field "url" must be a string, got null"#),
        ("notification", #"{"action": "show", "title": "Hi", "id": 7}"#, #"notification: show: field "id" must be a string, got an integer"#),
        ("storage", #"{"action": "get", "key": {"toString": "k"}}"#, #"storage: get: field "key" must be a string, got an object"#),
        ("storage", #"{"action": ["get"]}"#, #"storage: field "action" must be a string, got an array"#),
        ("shortcuts", #"{"action": "unregister", "id": true}"#, #"shortcuts: unregister: field "id" must be a string, got a boolean"#),
        ("menu", #"{"action": "set", "items": [1, 2]}"#, #"menu: an item is an object or "-", not 1"#),
        ("app", #"{"action": "constructor"}"#, #"app: field "action" must be one of "setAutostart", "autostart", got "constructor""#),
    ])
    func malformedRequestsAreRefusedNamingTheField(name: String, json: String, expected: String) async {
        let refused = await refusal(name, json)
        #expect(refused == expected, "got \(refused ?? "no refusal")")
    }

    /// Bytes posted whole reach only a strategy that takes them (the clipboard's image), and
    /// an image over the limit is refused before the clipboard sees it.
    @Test func bytesGoOnlyWhereTheyAreTakenAndNoLargerThanTheLimit() async {
        let clipboard = Clipboard()
        let host = TestHost()
        host.services = [clipboard]
        for name in ["storage", "window", "page"] {
            #expect(await dispatch(name, .bytes([1, 2, 3]), host: host)
                == .failure(ScriptMessageError(#"\#(name): the payload must be an object {"action": …}, got bytes"#)))
        }
        let oversized = [UInt8](repeating: 0x89, count: ClipboardStrategy.imageLimit + 1)
        #expect(await dispatch("clipboard", .bytes(oversized), host: host)
            == .failure(ScriptMessageError("clipboard: writeImage: \(oversized.count) bytes; the limit is \(ClipboardStrategy.imageLimit)")))
        #expect(clipboard.images.isEmpty)
        #expect(host.untouched)
    }

    @Test func aClipboardImageIsItsBytesPostedWhole() async {
        let clipboard = Clipboard()
        let host = TestHost()
        host.services = [clipboard]
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
        #expect(await dispatch("clipboard", .bytes(png), host: host) == .success(true))
        #expect(clipboard.images == [png])
        #expect(await dispatch("clipboard", ["action": "writeImage", "png": "iVBORw=="], host: host)
            == .failure(ScriptMessageError(#"clipboard: field "action" must be one of "readText", "writeText", got "writeImage""#)))
        #expect(clipboard.images.count == 1)
    }

    @Test func aHostWithoutTheServiceSaysItHasNoDesktop() async {
        #expect(await dispatch("clipboard", .bytes([1])) == .failure(ScriptMessageError("clipboard: this container has no desktop to do it")))
        #expect(await dispatch("notification", ["action": "show", "title": "Hi"])
            == .failure(ScriptMessageError("notification: this container has no desktop to do it")))
        let host = TestHost()
        host.services = [Clipboard()] // a clipboard is not a notifier
        #expect(await dispatch("notification", ["action": "show", "title": "Hi"], host: host)
            == .failure(ScriptMessageError("notification: this container has no desktop to do it")))
        #expect(host.service(ClipboardService.self) != nil && host.service(NotificationService.self) == nil)
    }
}

/// A focused window's clipboard that records the images written.
@MainActor
private final class Clipboard: ClipboardService {
    private(set) var images: [[UInt8]] = []
    var isWindowFocusedAndVisible: Bool { true }
    func clipboardText() async -> String? { nil }
    func setClipboardText(_ text: String) {}
    func setClipboardImage(png: [UInt8]) throws { images.append(png) }
}
