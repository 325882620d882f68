import Foundation
import Testing
import Vitrine
import VitrineTesting

/// `vitrine dev`'s decisions: which file events reload, and a burst as one reload.
@MainActor
@Suite("Dev reload")
struct DevReloadTests {
    @Test func contentsAndFilesReloadAttributesAndScratchFilesDoNot() {
        for event in [WatchedFileEvent.changed, .changesDone, .created, .deleted, .renamed, .movedIn, .movedOut] {
            #expect(DevReloadPolicy.reloads(event, path: "/app/web/index.html"), "\(event)")
        }
        #expect(!DevReloadPolicy.reloads(.attributeChanged, path: "/app/web/index.html"), "a read's access time")
        #expect(!DevReloadPolicy.reloads(.other, path: "/app/web/index.html"))
        for scratch in ["/app/web/.index.html.swp", "/app/web/4913", "/app/web/app.js~", "/app/web/.#app.js"] {
            #expect(!DevReloadPolicy.reloads(.created, path: scratch), "\(scratch)")
        }
    }

    @Test func aBurstOfChangesIsOneReloadAfterTheQuietPeriod() async {
        let clock = ManualClock()
        var reloads = 0
        let debouncer = ReloadDebouncer(quietPeriod: .milliseconds(150), clock: clock) { reloads += 1 }
        debouncer.fileChanged()
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(100))
        debouncer.fileChanged() // within the quiet period: the wait starts again
        debouncer.fileChanged()
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(100))
        #expect(reloads == 0, "still inside the burst")
        clock.advance(by: .milliseconds(50))
        #expect(await waitFor { reloads == 1 })
        // A later change is a reload of its own.
        debouncer.fileChanged()
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(150))
        #expect(await waitFor { reloads == 2 })
    }

    private func waitFor(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<1000 {
            if condition() { return true }
            await Task.yield()
        }
        return condition()
    }
}
