#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An immutable, ordered list of navigation handlers: the Chain of Responsibility.
///
/// The first handler that decides wins; the rest never see the action. When every handler
/// passes, the chain cancels (fails closed) — a preset that wants an open web ends with
/// `DefaultAllowHandler`. Chains are values: reorder or recombine them per preset without
/// touching the handlers.
public struct NavigationChain: Sendable {
    /// The handler name reported when no handler decided.
    public static let endOfChain = "end-of-chain"
    /// The handler name reported when a handler ran out of time.
    public static let timedOut = "timeout"

    public let handlers: [any NavigationActionHandler]
    /// How long a handler may take unless it says otherwise.
    public let defaultTimeout: Duration
    /// The clock the timeouts are measured on: `ContinuousClock` unless a test brings one
    /// that it advances by hand.
    public let clock: any Clock<Duration>

    public init(
        _ handlers: [any NavigationActionHandler] = [], defaultTimeout: Duration = .seconds(10),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.handlers = handlers
        self.defaultTimeout = defaultTimeout
        self.clock = clock
    }

    /// The handlers' names, in order.
    public var names: [String] { handlers.map(\.name) }

    // MARK: Recombining

    /// The same timeout and clock with other handlers.
    public func withHandlers(_ handlers: [any NavigationActionHandler]) -> NavigationChain {
        NavigationChain(handlers, defaultTimeout: defaultTimeout, clock: clock)
    }

    public func appending(_ handler: any NavigationActionHandler) -> NavigationChain {
        withHandlers(handlers + [handler])
    }

    /// Puts `handler` first: the head of the chain.
    public func prepending(_ handler: any NavigationActionHandler) -> NavigationChain {
        withHandlers([handler] + handlers)
    }

    /// Inserts `handler` before the handler named `name` (at the end when absent).
    public func inserting(_ handler: any NavigationActionHandler, before name: String) -> NavigationChain {
        var list = handlers
        let index = list.firstIndex { $0.name == name } ?? list.endIndex
        list.insert(handler, at: index)
        return withHandlers(list)
    }

    public func removing(named name: String) -> NavigationChain {
        withHandlers(handlers.filter { $0.name != name })
    }

    /// Replaces the handler of the same name in place, or appends it.
    public func replacing(_ handler: any NavigationActionHandler) -> NavigationChain {
        guard let index = handlers.firstIndex(where: { $0.name == handler.name }) else { return appending(handler) }
        var list = handlers
        list[index] = handler
        return withHandlers(list)
    }

    /// The same handlers in the order `names` gives; handlers not named keep their
    /// relative order after the named ones.
    public func reordered(_ names: [String]) -> NavigationChain {
        let named = names.compactMap { name in handlers.first { $0.name == name } }
        let rest = handlers.filter { !names.contains($0.name) }
        return withHandlers(named + rest)
    }

    public func withDefaultTimeout(_ timeout: Duration) -> NavigationChain {
        NavigationChain(handlers, defaultTimeout: timeout, clock: clock)
    }

    /// The same chain with its timeouts measured on `clock`.
    public func withClock(_ clock: any Clock<Duration>) -> NavigationChain {
        NavigationChain(handlers, defaultTimeout: defaultTimeout, clock: clock)
    }

    // MARK: Deciding

    /// Runs the chain. Each handler gets its timeout; a handler that runs out of time
    /// makes the chain cancel, and its late answer is ignored.
    @MainActor
    public func decide(_ action: NavigationAction, context: NavigationContext) async -> NavigationDecision {
        for handler in handlers {
            if action.response != nil && !handler.decidesResponses { continue }
            let result = await Self.run(handler, action, context, timeout: handler.timeout ?? defaultTimeout, on: clock)
            switch result {
            case .some(.pass): continue
            case .some(.decide(let policy)): return NavigationDecision(policy: policy, handler: handler.name)
            case .none: return NavigationDecision(policy: .cancel, handler: Self.timedOut, timedOutHandler: handler.name)
            }
        }
        return NavigationDecision(policy: .cancel, handler: Self.endOfChain)
    }

    /// Races `handler` against its timeout; nil means the timeout won.
    @MainActor
    private static func run(
        _ handler: any NavigationActionHandler, _ action: NavigationAction, _ context: NavigationContext,
        timeout: Duration, on clock: any Clock<Duration>
    ) async -> HandlerResult? {
        // Nil (the timeout's answer, failing closed) if the race is dropped unanswered.
        let once = AnswerOnce<HandlerResult?>(unanswered: nil)
        // Runs at once up to the handler's first suspension: a handler that decides without
        // waiting (every built-in one) needs no task of its own and no timer. A handler
        // that answers after its timeout is not cancelled; its answer is ignored.
        Task.immediate { @MainActor in
            once.answer(await handler.handle(action, context: context))
        }
        guard !once.isAnswered else { return await once.value }
        let timer = Task { @MainActor in
            guard (try? await clock.sleep(for: timeout)) != nil else { return }
            once.answer(nil)
        }
        let result = await once.value
        timer.cancel()
        return result
    }
}

