#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// The one place remote commands are carried out, whoever sent them: the session bus
/// (`RemoteControl`) and an MQTT broker (`MQTTRemote`) both call `perform`. `reload`,
/// `home`, `display` and `next` are the whole kiosk's (every `[[displays]]` window);
/// `navigate` and `screenshot` the first display's.
///
/// Every command is answered exactly once. A navigation is answered when the container's
/// chain has decided it (an event sink): allowed, or refused with the handler that refused
/// it; a decision that never comes is answered after the chain's own timeout.
@MainActor
public final class RemoteDispatch: EventSink {
    /// The container commands act on; the program swaps it when a pushed configuration applies.
    /// With `[[displays]]`, the first display's window.
    public weak var container: WebContainer?
    /// Every window the kiosk-wide commands (`reload`, `home`, `display`, `next`) act on,
    /// with `[[displays]]`; nil: `container` alone.
    public var everyWindow: (() -> [WebContainer])?
    /// Checks, applies and keeps or rolls back a pushed configuration; nil: refused.
    public var applyConfiguration: ((String, @escaping @MainActor (RemoteReply) -> Void) -> Void)?
    /// Ends the program as SIGTERM does (`vitrine ctl quit`, the session bus only).
    public var quit: (() -> Void)?

    private var pendingNavigations: [PendingNavigation] = []

    public init() {}

    public func perform(_ command: RemoteCommand, reply: @escaping @MainActor (RemoteReply) -> Void) {
        guard let container else { return reply(.failure("the kiosk has no window")) }
        let kiosk = everyWindow?() ?? [container]
        switch command {
        case .reload:
            for window in kiosk { window.reload() }
            reply(.success)
        case .home:
            for window in kiosk { window.goHome() }
            reply(.success)
        case .next:
            for window in kiosk { window.nextPage() }
            reply(.success)
        case .display(let on):
            for window in kiosk { window.setDisplay(on: on) }
            reply(.success)
        case .navigate(let url):
            let timeout = container.configuration.navigationChain.defaultTimeout + .seconds(5)
            let pending = PendingNavigation(url: url, reply: reply)
            pendingNavigations.append(pending)
            container.load(url)
            guard !pending.isAnswered else { return prune() }
            Task { @MainActor [weak self, weak pending] in
                try? await Task.sleep(for: timeout)
                pending?.answer(.failure("no navigation decision for \(url.absoluteString) within \(timeout.inSeconds) s"))
                self?.prune()
            }
        case .screenshot(let path):
            guard let path else { return reply(.failure("a screenshot needs a file to write")) }
            Task { @MainActor [weak container] in
                do {
                    guard let container else { return reply(.failure("the kiosk has no window")) }
                    try await container.snapshot(to: path)
                    reply(.success)
                } catch {
                    reply(.failure("the screenshot failed: \(error)"))
                }
            }
        case .config(let text):
            guard let applyConfiguration else { return reply(.failure("this kiosk takes no configuration pushes")) }
            applyConfiguration(text, reply)
        }
    }

    /// Answers the navigation waiting for the decision `event` reports.
    public func record(_ event: ContainerEvent) {
        guard case let .navigation(url, handler, policy, _, _, "request") = event, !pendingNavigations.isEmpty else { return }
        for pending in pendingNavigations where !pending.isAnswered && PendingNavigation.same(url, pending.url) {
            pending.answer(policy == .cancel ? .failure("refused by the navigation chain (\(handler)): \(url)") : .success)
            break
        }
        prune()
    }

    private func prune() {
        pendingNavigations.removeAll { $0.isAnswered }
    }

    isolated deinit {
        for pending in pendingNavigations { pending.answer(.failure("the kiosk is closing")) }
    }
}

/// A navigation command waiting for the chain's decision; answered once (`AnswerOnce`),
/// and dropped unanswered, with a failure.
@MainActor
final class PendingNavigation {
    let url: URL
    private let once: AnswerOnce<RemoteReply>

    init(url: URL, reply: @escaping @MainActor (RemoteReply) -> Void) {
        self.url = url
        once = AnswerOnce(unanswered: .failure("the kiosk is closing"), deliver: reply)
    }

    var isAnswered: Bool { once.isAnswered }

    func answer(_ result: RemoteReply) {
        once.answer(result)
    }

    /// WebKit writes `http://host` as `http://host/`.
    static func same(_ text: String, _ url: URL) -> Bool {
        func normal(_ text: String) -> String { text.hasSuffix("/") ? String(text.dropLast()) : text }
        return normal(text) == normal(url.absoluteString)
    }
}
