import Foundation
import Testing
import Vitrine

/// The `notification` capability's buttons decided without a desktop: how `actions` is
/// read (bounded, strict, each fault named by its field), who may show buttons (a granted
/// top document), and the book that lets a pressed button reach only the document that
/// showed that notification.
@Suite("Notifications: buttons, their limits and who hears them")
@MainActor
struct NotificationActionTests {
    private static let page = URL(string: "app://app/index.html")!

    private static func principal(mainFrame: Bool) -> Principal {
        Principal(token: FrameToken(String(repeating: "cd", count: 16))!, reportedOrigin: "app://app", url: page.absoluteString,
                  isMainFrame: mainFrame, appID: "org.example.App")
    }

    private func dispatch(_ body: String, notifier: RecordingNotifier?, caller: Principal? = principal(mainFrame: true))
        async -> Result<JSONValue, ScriptMessageError> {
        await ScriptMessageStrategies([NotificationStrategy()]).dispatch(
            ScriptMessage(name: "notification", bodyJSON: body, pageURL: Self.page),
            context: ScriptMessageContext(host: DesktopTestHost(notifier),
                                          capabilities: CapabilityGrants().granting([.notification], to: Origin(string: "app://app")!),
                                          caller: caller))
    }

    private func refusal(_ body: String, caller: Principal? = principal(mainFrame: true)) async -> String? {
        let notifier = RecordingNotifier()
        guard case .failure(let error) = await dispatch(body, notifier: notifier, caller: caller) else { return nil }
        #expect(notifier.shown.isEmpty, "refused before the desktop saw it: \(body)")
        return error.message
    }

    @Test func aTopDocumentShowsButtonsThatBelongToIt() async throws {
        let notifier = RecordingNotifier()
        let body = #"{"action": "show", "title": "Shipped", "id": "order-7", "actions": [{"id": "track", "label": "Track"}, {"id": "order.cancel_2", "label": "Cancel — order 7"}]}"#
        #expect(await dispatch(body, notifier: notifier) == .success(["id": "order-7"]))
        let shown = try #require(notifier.shown.first)
        #expect(shown.actions == [try NotificationAction(id: "track", label: "Track"), try NotificationAction(id: "order.cancel_2", label: "Cancel — order 7")])
        #expect(shown.owner == Self.principal(mainFrame: true).token)
        // Without buttons: no owner, and a frame may show it as before.
        #expect(await dispatch(#"{"action": "show", "title": "Hi", "id": "x", "actions": []}"#, notifier: notifier,
                               caller: Self.principal(mainFrame: false)) == .success(["id": "x"]))
        #expect(notifier.shown.last?.owner == nil && notifier.shown.last?.actions == [])
    }

    @Test(arguments: [
        (#"[{"id": "a", "label": "A"}, {"id": "b", "label": "B"}, {"id": "c", "label": "C"}, {"id": "d", "label": "D"}]"#,
         #"notification: show: field "actions" holds at most 3 actions, got 4"#),
        (#"[{"id": "a b", "label": "A"}]"#, #"notification: show: field "actions[0].id" is invalid: it is 1 to 32 of A-Z a-z 0-9 . _ -"#),
        (#"[{"id": "ok", "label": "A"}, {"id": "<img>", "label": "B"}]"#,
         #"notification: show: field "actions[1].id" is invalid: it is 1 to 32 of A-Z a-z 0-9 . _ -"#),
        (#"[{"id": "", "label": "A"}]"#, #"notification: show: field "actions[0].id" is invalid: it is 1 to 32 of A-Z a-z 0-9 . _ -"#),
        (#"[{"id": "\#(String(repeating: "i", count: 33))", "label": "A"}]"#,
         #"notification: show: field "actions[0].id" is invalid: it is 1 to 32 of A-Z a-z 0-9 . _ -"#),
        (#"[{"id": "é", "label": "A"}]"#, #"notification: show: field "actions[0].id" is invalid: it is 1 to 32 of A-Z a-z 0-9 . _ -"#),
        (#"[{"id": "a", "label": ""}]"#,
         #"notification: show: field "actions[0].label" is invalid: it is 1 to 64 characters without control characters"#),
        (#"[{"id": "a", "label": "\#(String(repeating: "x", count: 65))"}]"#,
         #"notification: show: field "actions[0].label" is invalid: it is 1 to 64 characters without control characters"#),
        (#"[{"id": "a", "label": "Yes\u0000"}]"#,
         #"notification: show: field "actions[0].label" is invalid: it is 1 to 64 characters without control characters"#),
        (#"[{"id": "a", "label": "A", "onclick": "x"}]"#,
         #"notification: show: field "actions[0].onclick" is invalid: an action has only "id" and "label""#),
        (#"[{"id": "a"}]"#, #"notification: show: field "actions[0].label" is missing"#),
        (#"[{"id": 1, "label": "A"}]"#, #"notification: show: field "actions[0].id" must be a string, got an integer"#),
        (#"["yes"]"#, #"notification: show: field "actions[0]" must be an object, got a string"#),
        (#"{"id": "a", "label": "A"}"#, #"notification: show: field "actions" must be an array, got an object"#),
        (#"[{"id": "a", "label": "A"}, {"id": "a", "label": "B"}]"#, #"notification: show: field "actions[1].id" repeats "a""#),
    ])
    func badActionsAreRefusedNamingTheField(actions: String, reason: String) async {
        #expect(await refusal(#"{"action": "show", "title": "T", "actions": \#(actions)}"#) == reason)
    }

    @Test func onlyATopDocumentShowsButtons() async {
        let body = #"{"action": "show", "title": "T", "actions": [{"id": "a", "label": "A"}]}"#
        let notTop = "notification: show: only the window's top document may show a notification with actions, not a frame inside it"
        #expect(await refusal(body, caller: Self.principal(mainFrame: false)) == notTop)
        #expect(await refusal(body, caller: nil) == notTop)
        #expect(await dispatch(body, notifier: nil) == .failure(ScriptMessageError("notification: this container has no desktop to do it")))
    }

    @Test func aButtonReachesOnlyTheShowingOfItsNotification() {
        var book = NotificationBook<String>()
        let first = book.show(id: "order-7", actions: ["track", "cancel"], owner: "document A")
        guard case .deliver(let owner, let event) = book.invoked(id: "order-7", serial: first, action: "track") else {
            Issue.record("the button of the notification shown is delivered")
            return
        }
        #expect(owner == "document A" && event == NotificationActionEvent(id: "order-7", action: "track"))
        #expect(event.payload.jsonText == #"{"id":"order-7","action":"track"}"#)
        #expect(book.owner(of: "order-7") == "document A")

        // Replaced by another document: the old buttons name an old serial.
        let second = book.show(id: "order-7", actions: ["open"], owner: "document B")
        #expect(second != first)
        #expect(reason(book.invoked(id: "order-7", serial: first, action: "track")) == "the notification was replaced")
        // An action it never had, an unknown notification: nobody hears them.
        #expect(reason(book.invoked(id: "order-7", serial: second, action: "track")) == "not an action of the notification")
        #expect(reason(book.invoked(id: "order-8", serial: second, action: "open")) == "no such notification")
        if case .deliver(let owner, _) = book.invoked(id: "order-7", serial: second, action: "open") {
            #expect(owner == "document B")
        } else {
            Issue.record("the new showing's button is delivered")
        }
        book.remove(id: "order-7")
        #expect(reason(book.invoked(id: "order-7", serial: second, action: "open")) == "no such notification")
    }

    @Test func theBookKeepsTheNewestNotificationsOnly() {
        var book = NotificationBook<Int>()
        let serials = (0..<(NotificationBook<Int>.capacity + 10)).map { book.show(id: "n\($0)", actions: ["a"], owner: $0) }
        #expect(book.count == NotificationBook<Int>.capacity)
        #expect(reason(book.invoked(id: "n0", serial: serials[0], action: "a")) == "no such notification")
        let last = serials.count - 1
        if case .deliver(let owner, _) = book.invoked(id: "n\(last)", serial: serials[last], action: "a") {
            #expect(owner == last)
        } else {
            Issue.record("the newest is kept")
        }
    }

    @Test func aNotificationWithButtonsIsWithdrawnOnceWhenItsDocumentGoes() {
        var book = NotificationBook<String>()
        let serial = book.show(id: "order-7", actions: ["track"], owner: "document A")
        _ = book.show(id: "order-8", actions: ["track"], owner: "document B")
        _ = book.show(id: "hello", actions: [], owner: "document A")
        // A click of one without buttons still brings its window forward: it stays.
        #expect(book.withdraw { $0.owner == "document A" } == ["order-7"])
        #expect(book.withdraw { $0.owner == "document A" } == [], "each withdrawn once")
        #expect(book.withdraw { _ in false } == [])
        #expect(book.withdraw { $0.owner == "document B" } == ["order-8"])
        // Its entry stays, so a late press is refused with its reason (the adapter's: gone).
        guard case .deliver(let owner, _) = book.invoked(id: "order-7", serial: serial, action: "track") else {
            Issue.record("the entry of a withdrawn notification is kept")
            return
        }
        #expect(owner == "document A")
        // Shown again, it is on the desktop again, and can be withdrawn again.
        _ = book.show(id: "order-7", actions: ["track"], owner: "document C")
        #expect(book.withdraw { $0.owner == "document C" } == ["order-7"])
    }

    private func reason<Owner>(_ invocation: NotificationBook<Owner>.Invocation) -> String? {
        if case .refused(let reason, _) = invocation { return reason }
        return nil
    }
}

/// A desktop whose only service is notifications; records what it was asked to show.
@MainActor
private final class RecordingNotifier: NotificationService {
    private(set) var shown: [DesktopNotification] = []
    func notify(_ notification: DesktopNotification) async throws { shown.append(notification) }
}
