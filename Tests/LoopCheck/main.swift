// vitrine-loop-check: proves that under `gtk_main()` (the `vitrine` program's loop, not
// the test runner's) an async `@MainActor` handler that suspends decides a real navigation.
// Used by ProgramTests as a subprocess; prints the container's events as JSON lines.
import Foundation
import Vitrine
import VitrineGTK

/// Suspends on the main actor, then cancels URLs whose path ends in `blocked.html`.
struct SlowAsyncHandler: NavigationActionHandler {
    let name = "slow-async"

    @MainActor
    func handle(_ action: NavigationAction, context: NavigationContext) async -> HandlerResult {
        try? await Task.sleep(for: .milliseconds(300))
        MainActor.assertIsolated() // still on the main actor after resuming
        return action.url.path.hasSuffix("blocked.html") ? .decide(.cancel) : .pass
    }
}

let directory = URL(fileURLWithPath: CommandLine.arguments[1])
let started = Date()
MainActor.assumeIsolated {
    let configuration = try! ConfiguratorFactory.make(for: .default)
        .appDirectory(directory, host: "loop")
        .prependingHandler(SlowAsyncHandler())
        .build()
    let container = WebContainer(configuration: configuration)
    // Batched as the program batches it, and never flushed by hand: the lines reach
    // standard output only if GLib's loop runs `beforeNextWait` work.
    container.addEventSink(try! JSONLinesEventLog(path: "-", flushScheduler: { GTKRuntime.beforeNextWait($0) }))
    var finishedLoads = 0
    container.attach(LoadWatch { load in
        guard load.event == .finished else { return }
        finishedLoads += 1
        // The start page navigates itself to blocked.html after load; give that decision
        // time to happen (300 ms handler), then stop.
        Task { @MainActor in
            try? await Task.sleep(for: .seconds(1.5))
            GTKRuntime.quit()
        }
    })
    container.start()
    // Its outcome is awaited on the main actor: the joined loops deliver it.
    Task { @MainActor in await container.load(URL(string: "app://loop/index.html")!) }
    // Never hang a test run.
    Task { @MainActor in
        try? await Task.sleep(for: .seconds(30))
        GTKRuntime.quit()
    }
}
MainActor.assumeIsolated { GTKRuntime.run() }
FileHandle.standardError.write(Data("loop-check ran for \(Date().timeIntervalSince(started)) s\n".utf8))
