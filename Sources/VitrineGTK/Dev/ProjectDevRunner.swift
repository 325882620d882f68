#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// `vitrine dev` in a package (a `vitrine new` project): runs `DevLoop`'s decisions —
/// `swift build` (its errors printed as the compiler writes them), then the package's own
/// program, told by `DevSession` to watch `web/` and reload the page; a change under
/// `Sources/` (or to `Package.swift`) builds again and restarts the program, or keeps the
/// running one when the build fails. Ends with the program's status when its window closes.
@MainActor
public final class ProjectDevRunner {
    private let project: DevProject
    /// Run before each build: writes the project's flattened `.pc` files (the tool's).
    private let prepareBuild: () throws -> Void
    private var loop = DevLoop()
    private var build: ChildProcess?
    private var program: ChildProcess?
    private let sourceWatch: FolderWatch
    private let manifestWatch: FolderWatch
    private var debouncer: ReloadDebouncer?
    private var lastChange = ""
    public private(set) var status: Int32 = 0

    public init(project: DevProject, quietPeriod: Duration = .milliseconds(150), prepareBuild: @escaping () throws -> Void) {
        self.project = project
        self.prepareBuild = prepareBuild
        sourceWatch = FolderWatch(folder: project.swiftFolder)
        manifestWatch = FolderWatch(folder: project.folder, recursive: false)
        debouncer = ReloadDebouncer(quietPeriod: quietPeriod) { [weak self] in
            guard let self else { return }
            self.perform(self.loop.sourceChanged(self.lastChange))
        }
        for watch in [sourceWatch, manifestWatch] {
            watch.onEvent = { [weak self] path, event in
                guard let self, DevReloadPolicy.reloads(event, path: path), Self.isProgramSource(path, in: project) else { return }
                self.lastChange = path
                self.debouncer?.fileChanged()
            }
        }
    }

    /// The Swift sources and the manifest; not the web folder (the program reloads that).
    nonisolated static func isProgramSource(_ path: String, in project: DevProject) -> Bool {
        if path == project.folder.appendingPathComponent("Package.swift").path { return true }
        return path.hasPrefix(project.swiftFolder.path + "/") && DevProject.rebuilds(path)
    }

    /// Builds, runs and watches until the program ends (or SIGINT/SIGTERM); its status.
    public func run() -> Int32 {
        GTKRuntime.initialize()
        say("building \(project.product) in \(project.folder.path); watching \(project.swiftFolder.path)")
        perform(loop.start())
        GTKRuntime.run()
        build?.terminate()
        program?.terminate()
        return status
    }

    private func perform(_ actions: [DevLoop.Action]) {
        for action in actions {
            switch action {
            case .build: startBuild()
            case .startProgram: startProgram()
            case .stopProgram: program?.terminate()
            case .say(let line): say(line)
            case .finish(let status):
                self.status = status
                GTKRuntime.quit()
            }
        }
    }

    private func startBuild() {
        do {
            try prepareBuild()
        } catch {
            say("cannot prepare the build: \(error)")
            perform(loop.buildFinished(succeeded: false))
            return
        }
        do {
            build = try ChildProcess(["swift"] + project.buildArguments) { [weak self] status in
                guard let self else { return }
                self.build = nil
                self.perform(self.loop.buildFinished(succeeded: status == 0))
            }
        } catch {
            say("cannot run swift build: \(error)")
            perform(loop.buildFinished(succeeded: false))
        }
    }

    private func startProgram() {
        let session = DevSession(watchedFolder: project.webFolder)
        do {
            program = try ChildProcess([project.executable.path], environment: [session.environmentEntry]) { [weak self] status in
                guard let self else { return }
                self.program = nil
                self.perform(self.loop.programExited(status: status))
            }
            say("started \(project.executable.path)")
        } catch {
            say("cannot start \(project.executable.path): \(error)")
            perform(loop.programExited(status: 1))
        }
    }

    private func say(_ line: String) {
        printToStandardError("vitrine dev: " + line)
    }
}
