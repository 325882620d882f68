import Testing
import Vitrine

/// The one answer-once mechanism under every deferred decision and reply: exactly one
/// delivery, however many answers race, and a fail-closed answer when nobody answered.
@MainActor
@Suite struct AnswerOnceTests {
    /// Collects what was delivered.
    final class Deliveries<Answer> {
        var answers: [Answer] = []
    }

    @Test func theFirstAnswerIsDeliveredAndLaterOnesAreIgnored() {
        let deliveries = Deliveries<String>()
        let once = AnswerOnce<String>(unanswered: "closed") { deliveries.answers.append($0) }
        #expect(!once.isAnswered)
        #expect(once.answer("allow"))
        #expect(!once.answer("cancel"), "a second answer is refused")
        #expect(!once.answer("allow"))
        #expect(once.isAnswered)
        #expect(deliveries.answers == ["allow"])
    }

    @Test func droppedUnansweredItDeliversItsFailClosedAnswer() {
        let deliveries = Deliveries<String>()
        var once: AnswerOnce<String>? = AnswerOnce(unanswered: "cancel") { deliveries.answers.append($0) }
        #expect(deliveries.answers.isEmpty)
        once = nil
        #expect(once == nil)
        #expect(deliveries.answers == ["cancel"], "the owner went: the question still gets its one answer")
    }

    @Test func droppedAfterAnAnswerItDeliversNothingMore() {
        let deliveries = Deliveries<Int>()
        var once: AnswerOnce<Int>? = AnswerOnce(unanswered: -1) { deliveries.answers.append($0) }
        once?.answer(7)
        once = nil
        #expect(deliveries.answers == [7])
    }

    @Test func everyAwaiterGetsTheOneAnswer() async {
        let once = AnswerOnce<Int>(unanswered: -1)
        async let first = once.value
        async let second = once.value
        // Answers race: a flood of them after the awaiters started.
        Task { @MainActor in
            for attempt in 1...100 { once.answer(attempt) }
        }
        let answers = await [first, second]
        #expect(answers == [1, 1])
        #expect(await once.value == 1, "awaited after the answer: at once, the same")
    }

    @Test func anAnswerGivenInsideItsOwnDeliveryIsIgnored() {
        let deliveries = Deliveries<String>()
        let holder = Deliveries<AnswerOnce<String>>()
        holder.answers.append(AnswerOnce(unanswered: "closed") { answer in
            deliveries.answers.append(answer)
            // A receiver that answers again (re-entrantly) must not deliver twice.
            holder.answers.first?.answer("again")
        })
        holder.answers.first?.answer("first")
        #expect(deliveries.answers == ["first"])
    }
}
