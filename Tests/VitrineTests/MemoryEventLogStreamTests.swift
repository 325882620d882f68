import Testing
import Vitrine

/// `MemoryEventLog.stream()`: what a test (or an embedder) awaits instead of polling the log.
@Suite("MemoryEventLog stream")
@MainActor
struct MemoryEventLogStreamTests {
    private static func load(_ n: Int) -> ContainerEvent { .load(event: .finished, url: "app://test/\(n).html", error: nil) }

    @Test func streamsLaterEventsInOrderAndKeepsEarlierOnesInTheLog() async {
        let log = MemoryEventLog()
        log.record(Self.load(0))
        let stream = log.stream()
        for n in 1...3 { log.record(Self.load(n)) }
        var seen: [ContainerEvent] = []
        for await event in stream {
            seen.append(event)
            if seen.count == 3 { break }
        }
        #expect(seen == [Self.load(1), Self.load(2), Self.load(3)], "the stream starts at its call")
        #expect(log.events.first == Self.load(0))
    }

    @Test func everyStreamGetsEveryEvent() async {
        let log = MemoryEventLog()
        let first = log.stream(), second = log.stream()
        log.record(Self.load(1))
        log.record(Self.load(2))
        for stream in [first, second] {
            var iterator = stream.makeAsyncIterator()
            #expect(await iterator.next() == Self.load(1))
            #expect(await iterator.next() == Self.load(2))
        }
    }

    /// A flood recorded before the reader gets to run loses nothing: a test's trigger may
    /// cause many events before its `await`.
    @Test func aFloodBeforeTheReaderRunsLosesNothing() async {
        let log = MemoryEventLog()
        let stream = log.stream()
        for n in 0..<10_000 { log.record(Self.load(n)) }
        var count = 0
        for await event in stream {
            #expect(event == Self.load(count))
            count += 1
            if count == 10_000 { break }
        }
        #expect(count == 10_000)
    }

    /// A reader awaiting a log that goes away ends instead of hanging.
    @Test func theStreamEndsWithItsLog() async {
        var log: MemoryEventLog? = MemoryEventLog()
        let stream = log!.stream()
        log!.record(Self.load(1))
        log = nil
        var seen: [ContainerEvent] = []
        for await event in stream { seen.append(event) }
        #expect(seen == [Self.load(1)])
    }
}
