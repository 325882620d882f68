import Foundation
import Testing
import Vitrine

/// `vitrine dev` in a package: the loop's decisions, and how it finds the program.
@Suite("The dev loop of a package")
struct DevLoopTests {
    @Test func buildThenRunThenRestartOnlyAfterASuccessfulBuild() {
        var loop = DevLoop()
        #expect(loop.start() == [.build])
        #expect(loop.buildFinished(succeeded: true) == [.startProgram])
        #expect(loop.sourceChanged("/p/Sources/A/main.swift") == [.say("/p/Sources/A/main.swift changed: building"), .build])
        // A failed build keeps the running program.
        #expect(loop.buildFinished(succeeded: false) == [.say("the build failed: the running program stays; waiting for a change")])
        #expect(loop.sourceChanged("x.swift").last == .build)
        // A good one replaces it: stopped first, started once it has ended.
        #expect(loop.buildFinished(succeeded: true) == [.say("built: restarting"), .stopProgram])
        #expect(loop.programExited(status: 143) == [.startProgram])
        // The program ending by itself (its window closed) ends the loop with its status.
        #expect(loop.programExited(status: 3) == [.finish(status: 3)])
    }

    @Test func aFirstBuildThatFailsWaitsForAChange() {
        var loop = DevLoop()
        _ = loop.start()
        #expect(loop.buildFinished(succeeded: false) == [.say("the build failed: waiting for a change")])
        #expect(loop.sourceChanged("a.swift").last == .build)
        #expect(loop.buildFinished(succeeded: true) == [.startProgram])
    }

    /// Saves during a build are not lost: one more build follows, and only its result counts.
    @Test func aChangeDuringABuildBuildsOnceMore() {
        var loop = DevLoop()
        _ = loop.start()
        #expect(loop.sourceChanged("a.swift") == [])
        #expect(loop.sourceChanged("b.swift") == [])
        #expect(loop.buildFinished(succeeded: true) == [.build])
        #expect(loop.buildFinished(succeeded: true) == [.startProgram])
    }

    @Test func theProjectsProgramIsItsOneMainSwift() throws {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("dev-project-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Sources/Notes"), withIntermediateDirectories: true)
        // A plain web folder (no Package.swift) is not a project.
        #expect(try DevProject(folder: folder) == nil)
        try Data("// swift-tools-version:6.2\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))
        #expect(throws: DevProjectError.self) { try DevProject(folder: folder) }
        try Data().write(to: folder.appendingPathComponent("Sources/Notes/main.swift"))
        let project = try #require(try DevProject(folder: folder))
        #expect(project.product == "Notes")
        #expect(project.executable.path == folder.appendingPathComponent(".build/debug/Notes").standardizedFileURL.path)
        #expect(project.buildArguments.suffix(4) == ["--product", "Notes", "--pkg-config-path",
                                                     folder.appendingPathComponent(".build/pkg-config").standardizedFileURL.path])
        #expect(project.webFolder == folder.standardizedFileURL, "no web/: the package folder")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("web"), withIntermediateDirectories: true)
        #expect(project.webFolder.lastPathComponent == "web")

        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Sources/Tool"), withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("Sources/Tool/main.swift"))
        #expect(throws: DevProjectError(folder: folder.standardizedFileURL, executables: ["Notes", "Tool"])) { try DevProject(folder: folder) }
        #expect(try DevProject(folder: folder, product: "Tool")?.product == "Tool")
    }

    @Test func onlyTheProgramsSourcesRebuild() {
        #expect(DevProject.rebuilds("/p/Sources/A/main.swift"))
        #expect(DevProject.rebuilds("/p/Sources/A/shim.h"))
        #expect(!DevProject.rebuilds("/p/Sources/A/.main.swift.swp"))
        #expect(!DevProject.rebuilds("/p/Sources/A/main.swift~"))
        #expect(!DevProject.rebuilds("/p/Sources/A/notes.md"))
    }

    /// The dev session reaches the program through the environment, only as an absolute folder.
    @Test func theDevSessionComesFromTheEnvironment() {
        #expect(DevSession(environment: [:]) == nil)
        #expect(DevSession(environment: [DevSession.environmentVariable: "web"]) == nil)
        #expect(DevSession(environment: [DevSession.environmentVariable: "/nonexistent/web"]) == nil)
        let session = DevSession(environment: [DevSession.environmentVariable: NSTemporaryDirectory()])
        #expect(session?.watchedFolder.path == URL(fileURLWithPath: NSTemporaryDirectory()).standardizedFileURL.path)
    }

    @Test func aDevConfigurationPrintsThePagesErrorsWithTheInspectorOn() throws {
        let plain = try ConfiguratorFactory.make(for: .app).startURL(URL(string: "app://app/index.html")!).build()
        #expect(!plain.developerTools)
        let dev = plain.forDevelopment(consoleScript: "/* console */") { _ in }
        #expect(dev.developerTools)
        #expect(dev.strategies.identifiers == plain.strategies.identifiers + [DevConsoleStrategy.identifier])
        #expect(dev.userScripts.last?.source == "/* console */" && dev.userScripts.last?.frames == .allFrames)
        #expect(dev.navigationChain.names == plain.navigationChain.names && dev.appOrigins == plain.appOrigins)
    }
}
