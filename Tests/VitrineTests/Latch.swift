import Foundation
import Testing

/// A one-shot signal a test awaits: opened once, awaited by any number of waiters.
@MainActor
final class Latch {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func open() {
        isOpen = true
        let waiting = waiters
        waiters = []
        waiting.forEach { $0.resume() }
    }

    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}

/// What `body` produces, or nil with a recorded issue when it has not come after `limit` of
/// real time. A safety net, so that a broken timeout fails its test instead of hanging the
/// run; it bounds nothing a passing test does (`body` waits only for facts).
@MainActor
func eventually<T: Sendable>(
    _ what: Comment, limit: Duration = .seconds(30), sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @MainActor () async -> T
) async -> T? {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        let once = OnceBox(continuation)
        Task { @MainActor in once.resume(await body()) }
        Task { @MainActor in
            try? await Task.sleep(for: limit)
            once.resume(nil)
        }
    }
    if result == nil { Issue.record("\(what): not after \(limit)", sourceLocation: sourceLocation) }
    return result
}

@MainActor
private final class OnceBox<T: Sendable> {
    private var continuation: CheckedContinuation<T?, Never>?
    init(_ continuation: CheckedContinuation<T?, Never>) { self.continuation = continuation }
    func resume(_ value: T?) {
        continuation?.resume(returning: value)
        continuation = nil
    }
}
