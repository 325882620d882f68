#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `vitrine dev`'s decisions for a package, as values: build, then run the program; a
/// Swift change builds again and, only when the build succeeds, replaces the running
/// program (stopped first, then started); a failed build keeps the running one. A change
/// during a build builds once more after it. The program ending by itself (its window
/// closed) ends the loop with its status.
///
/// The adapter (`ProjectDevRunner`) runs the actions and reports what happened.
public struct DevLoop: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case build
        case startProgram
        case stopProgram
        case say(String)
        case finish(status: Int32)
    }

    private var building = false
    private var changedDuringBuild = false
    private var running = false
    /// A stop asked by the loop (a restart), not the program's own end.
    private var stopping = false
    private var startAfterStop = false

    public init() {}

    /// The loop starts: the first build.
    public mutating func start() -> [Action] {
        building = true
        return [.build]
    }

    /// A source file changed.
    public mutating func sourceChanged(_ path: String) -> [Action] {
        if building {
            changedDuringBuild = true
            return []
        }
        building = true
        return [.say("\(path) changed: building"), .build]
    }

    /// `swift build` ended.
    public mutating func buildFinished(succeeded: Bool) -> [Action] {
        building = false
        if changedDuringBuild {
            changedDuringBuild = false
            building = true
            return [.build]
        }
        guard succeeded else {
            return [.say(running ? "the build failed: the running program stays; waiting for a change"
                                 : "the build failed: waiting for a change")]
        }
        if running {
            stopping = true
            startAfterStop = true
            return [.say("built: restarting"), .stopProgram]
        }
        running = true
        return [.startProgram]
    }

    /// The program ended with `status`.
    public mutating func programExited(status: Int32) -> [Action] {
        running = false
        if stopping {
            stopping = false
            if startAfterStop {
                startAfterStop = false
                running = true
                return [.startProgram]
            }
            return []
        }
        return [.finish(status: status)]
    }
}
