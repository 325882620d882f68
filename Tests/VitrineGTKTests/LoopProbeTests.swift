import Testing
import CWebKitGTK
@testable import VitrineGTK

@MainActor @Test func nestedLoopDrainsMainQueue() async throws {
    MainLoopBridge.install()
    let loop = g_main_loop_new(nil, 0)
    var ran = false
    Task { @MainActor in
        try? await Task.sleep(for: .milliseconds(50))
        ran = true
        g_main_loop_quit(loop)
    }
    g_timeout_add(3000, { l in g_main_loop_quit(OpaquePointer(l)); return 0 }, UnsafeMutableRawPointer(loop))
    g_main_loop_run(loop)
    #expect(ran)
}
