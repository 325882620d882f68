/// A question answered exactly once: the first `answer` is delivered, later ones are
/// ignored, and dropped unanswered it delivers its `unanswered` answer (failing closed).
///
/// Under every deferred answer the container holds: a WebKit policy decision, a script
/// message's reply, a remote command's reply, a handler's race against its timeout, a
/// dialog's question. Whoever awaits `value` gets the same one answer.
@MainActor
public final class AnswerOnce<Answer: Sendable> {
    private enum State {
        case open(deliver: @MainActor (Answer) -> Void, waiting: [CheckedContinuation<Answer, Never>])
        case answered(Answer)
    }

    private var state: State
    private let unanswered: Answer

    /// `unanswered`: what is delivered if this goes without an answer. `deliver` receives
    /// the one answer (a reply sent, a decision applied, a resource released).
    public init(unanswered: Answer, deliver: @escaping @MainActor (Answer) -> Void = { _ in }) {
        self.unanswered = unanswered
        state = .open(deliver: deliver, waiting: [])
    }

    public var isAnswered: Bool {
        if case .answered = state { true } else { false }
    }

    /// Delivers `answer` unless one was delivered already. Returns true if this call did.
    @discardableResult
    public func answer(_ answer: Answer) -> Bool {
        guard case .open(let deliver, let waiting) = state else { return false }
        state = .answered(answer)
        deliver(answer)
        for continuation in waiting { continuation.resume(returning: answer) }
        return true
    }

    /// The answer, once given.
    public var value: Answer {
        get async {
            switch state {
            case .answered(let answer):
                return answer
            case .open:
                return await withCheckedContinuation { continuation in
                    switch state {
                    case .answered(let answer): continuation.resume(returning: answer)
                    case .open(let deliver, let waiting): state = .open(deliver: deliver, waiting: waiting + [continuation])
                    }
                }
            }
        }
    }

    isolated deinit {
        answer(unanswered)
    }
}
