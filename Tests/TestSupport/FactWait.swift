import Foundation
import Glibc

/// Waits for a fact outside the test process — a line a program writes to a file, a
/// program's exit, its output — by sleeping in poll() until something that can change the
/// fact happens (inotify on the files' folders, a wake-up from an output reader or an exit
/// handler), then checking it again. A deadline bounds the wait; nothing sleeps on a timer.
public final class FactWait: @unchecked Sendable {
    private let inotify: Int32
    /// Written (a byte) by `wake()`, from any thread; read here.
    private let wakeRead: Int32, wakeWrite: Int32

    /// Watches the folders of `paths` (so files that do not exist yet are seen when made).
    public init(watching paths: [String] = []) {
        inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (wakeRead, wakeWrite) = (ends[0], ends[1])
        for path in paths { watch(path) }
    }

    deinit {
        close(inotify)
        close(wakeRead)
        close(wakeWrite)
    }

    /// Watches `path`'s folder too: changes to `path` (made, written, renamed) wake the wait.
    public func watch(_ path: String) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let mask = UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB)
        _ = inotify_add_watch(inotify, folder, mask)
    }

    /// Ends a wait's sleep so it checks its fact again (an output line came, a process ended).
    public func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Waits until `condition` holds, checking it again after each change; false once
    /// `timeout` has passed without it.
    @discardableResult
    public func wait(timeout: TimeInterval, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return condition() }
            var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            if poll(&descriptors, 2, Int32(min(left * 1000, Double(Int32.max)).rounded(.up))) > 0 { drain() }
        }
        return true
    }

    /// Empties both descriptors, so the next poll sleeps until the next change.
    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(inotify, &buffer, buffer.count) > 0 {}
        while read(wakeRead, &buffer, buffer.count) > 0 {}
    }
}

/// Waits (`timeout` at most) for `process` to end, without polling: its termination wakes
/// the wait. Whether it ended. Call at most once per process (it takes its
/// `terminationHandler`), and only on one the caller started without a handler.
@discardableResult
public func waitForExit(of process: Process, timeout: TimeInterval) -> Bool {
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    if !process.isRunning { return true }
    return ended.wait(timeout: .now() + timeout) == .success || !process.isRunning
}
