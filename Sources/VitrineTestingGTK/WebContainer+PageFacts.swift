import Foundation
import Vitrine
import VitrineGTK

extension WebContainer {
    /// The value of `expression` in the page once it is truthy, waiting for it in the page:
    /// checked again at each change of the document (a MutationObserver), not on a timer.
    /// A page that is replaced meanwhile (an error page, a reload) is waited for too: the
    /// next load event, then the same wait in the new page. Nil after `timeout`.
    public func valueInPage(_ expression: String, timeout: Duration = .seconds(20)) async -> JSONValue? {
        let deadline = ContinuousClock.now + timeout
        let loads = MemoryEventLog()
        addEventSink(loads)
        func loadEvents() -> Int { loads.events.count { if case .load = $0 { return true } else { return false } } }
        while ContinuousClock.now < deadline {
            let seen = loadEvents()
            let left = ContinuousClock.now.duration(to: deadline)
            let milliseconds = max(1, Int(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            let value = try? await evaluateAsync("""
                const read = () => { try { const v = (\(expression)); return v ? v : null; } catch (e) { return null; } };
                return await new Promise((resolve) => {
                  const now = read();
                  if (now !== null) { resolve(now); return; }
                  const observer = new MutationObserver(() => {
                    const v = read();
                    if (v !== null) { observer.disconnect(); resolve(v); }
                  });
                  observer.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
                  setTimeout(() => { observer.disconnect(); resolve(null); }, \(milliseconds)); // the deadline
                });
                """)
            if let value, value != .null { return value }
            if value == .null { return nil } // the page stayed and the deadline passed
            // The page went away under the evaluation: wait for the next load, then again.
            let left2 = ContinuousClock.now.duration(to: deadline)
            guard left2 > .zero else { break }
            _ = await TestLoop.wait(timeout: left2) { loadEvents() > seen }
        }
        return nil
    }
}
