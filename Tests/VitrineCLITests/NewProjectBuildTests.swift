import Foundation
import Testing
import VitrineTestSupport

/// The generated project's README, run as written: `vitrine new Hello`, `swift build` of
/// the new project against this checkout; its program under Xvfb with `--exit-after-load
/// --screenshot` (from the project's folder, then with another page title, then from
/// another folder); the `generate-vitrine-types` command plugin; then `vitrine dev` in the
/// project: the project's own program with its own strategy answering, a web change
/// reloaded, a Swift change rebuilt and restarted, a broken one keeping the running program;
/// then `make e2e` and `make bundle` with the .deb and the tarball run (NewProjectShippingTests.swift).
///
/// The one nested `swift build` of the test suites. Its scratch folder
/// (`.build-new-project/` in this checkout) is kept between runs, so only the first run
/// builds Vitrine again (see the README for the times).
@Suite
struct NewProjectBuildTests {
    static let checkout = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL
    static let work = checkout.appendingPathComponent(".build-new-project")
    static let scratch = work.appendingPathComponent("scratch")

    private var environment: [String: String] {
        ProcessInfo.processInfo.environment.merging(["NO_AT_BRIDGE": "1"]) { $1 }
    }

    /// The built program under Xvfb, from `folder`, with `--exit-after-load --screenshot`.
    private func checkRun(in folder: URL, screenshot: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try? FileManager.default.removeItem(atPath: screenshot)
        return try runProcess("/usr/bin/env", ["-C", folder.path, "xvfb-run", "-a", "-s", "-screen 0 1280x1024x24",
                                               Self.scratch.appendingPathComponent("debug/Hello").path,
                                               "--exit-after-load", "--screenshot", screenshot],
                              timeout: 120, environment: environment)
    }

    private func isPNG(_ path: String) -> Bool {
        (FileManager.default.contents(atPath: path) ?? Data()).starts(with: [0x89, 0x50, 0x4E, 0x47])
    }

    @Test(.timeLimit(.minutes(60)))
    func aNewProjectBuildsChecksItselfAndRunsUnderTheDevLoop() throws {
        let project = Self.work.appendingPathComponent("work/Hello")
        try? FileManager.default.removeItem(at: project)
        try FileManager.default.createDirectory(at: project.deletingLastPathComponent(), withIntermediateDirectories: true)

        let created = try runProcess(try BuiltProducts.path("vitrine"),
                                     ["new", "Hello", "--directory", project.deletingLastPathComponent().path])
        #expect(created.status == 0, "\(created.stderr)")

        // `vitrine pkg-config-path`, as the README's build has it: the folder of the system
        // libraries' .pc files that every build below reads.
        let pkgConfig = try runProcess(try BuiltProducts.path("vitrine"), ["pkg-config-path", "--scratch-path", Self.scratch.path])
        try #require(pkgConfig.status == 0, "\(pkgConfig.stderr)")
        let pkgConfigPath = pkgConfig.stdout.trimmingCharacters(in: .newlines)
        #expect(pkgConfigPath == Self.scratch.appendingPathComponent("pkg-config").path)

        let build = try runProcess("/usr/bin/env", ["swift", "build", "--package-path", project.path,
                                                    "--scratch-path", Self.scratch.path, "--pkg-config-path", pkgConfigPath],
                                   timeout: 1_200)
        try #require(build.status == 0, "the new project does not build:\n\(build.stdout.suffix(4000))\n\(build.stderr.suffix(4000))")
        Self.expectNoDroppedFlags(build, "swift build")

        // `swift run`, from the project's folder as the README says; built above, so --skip-build.
        let screenshot = project.appendingPathComponent("shot.png").path
        let run = try runProcess("/usr/bin/env", ["-C", project.path, "xvfb-run", "-a", "-s", "-screen 0 1280x1024x24",
                                                  "swift", "run", "--scratch-path", Self.scratch.path, "--pkg-config-path", pkgConfigPath,
                                                  "--skip-build", "Hello", "--exit-after-load", "--screenshot", screenshot],
                                 timeout: 300, environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(isPNG(screenshot), "a PNG screenshot of the page")
        Self.expectNoDroppedFlags(run, "swift run")

        // The check waits for the page's load and its SDK, not for a title: a page of the
        // developer's own, with another title and no call to Swift, passes it too.
        let page = project.appendingPathComponent("web/index.html")
        let original = try String(contentsOf: page, encoding: .utf8)
        try original.replacingOccurrences(of: "<title>Hello</title>", with: "<title>My notes</title>")
            .replacingOccurrences(of: "<script src=\"app.js\"></script>", with: "")
            .write(to: page, atomically: true, encoding: .utf8)
        let retitled = try checkRun(in: project, screenshot: screenshot)
        #expect(retitled.status == 0 && isPNG(screenshot), "\(retitled.stderr)")
        try original.write(to: page, atomically: true, encoding: .utf8)

        // From any folder: the program finds vitrine.toml in its package's folder.
        let elsewhere = FileManager.default.temporaryDirectory
        let fromElsewhere = try checkRun(in: elsewhere, screenshot: screenshot)
        #expect(fromElsewhere.status == 0 && isPNG(screenshot), "\(fromElsewhere.stderr)")

        // The command plugin, as the README has it, rewrites web/strategies.d.ts from the
        // project's sources: the same declarations `vitrine new` wrote.
        let declarations = project.appendingPathComponent("web/strategies.d.ts")
        let written = try String(contentsOf: declarations, encoding: .utf8)
        try FileManager.default.removeItem(at: declarations)
        let generate = try runProcess("/usr/bin/env", ["swift", "package", "--package-path", project.path,
                                                       "--scratch-path", Self.scratch.path, "--pkg-config-path", pkgConfigPath,
                                                       "--allow-writing-to-package-directory", "generate-vitrine-types"],
                                      timeout: 1_200)
        #expect(generate.status == 0, "\(generate.stderr.suffix(4000))")
        Self.expectNoDroppedFlags(generate, "swift package generate-vitrine-types")
        #expect((try? String(contentsOf: declarations, encoding: .utf8)) == written, "the plugin's output is the template's")

        try devLoop(in: project)
        try endToEnd(in: project)
        try bundle(in: project)
    }

    /// SwiftPM said nothing of flags it drops: every build read the flattened .pc files.
    static func expectNoDroppedFlags(_ output: (status: Int32, stdout: String, stderr: String), _ what: String) {
        let text = output.stdout + output.stderr
        #expect(!text.contains("prohibited flag"), "\(what) warned of flags it drops:\n\(text.suffix(3000))")
    }

    /// `vitrine dev` in the project, as the README has it. The page reports the `greet`
    /// strategy's answer (only the project's program has it) with `console.error`, which
    /// the dev loop prints in the terminal.
    private func devLoop(in project: URL) throws {
        let script = project.appendingPathComponent("web/app.js")
        let app = try String(contentsOf: script, encoding: .utf8)
        let reporting = app.replacingOccurrences(of: "    document.title = reply.message;",
                                                 with: "    document.title = reply.message;\n    console.error('greeted: ' + reply.message);")
        #expect(reporting != app, "web/app.js sets the title from the reply")
        try reporting.write(to: script, atomically: true, encoding: .utf8)

        let log = project.appendingPathComponent("dev.log").path
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        let dev = Process()
        // Foundation starts the child as the leader of a process group of its own, which the
        // whole tree (xvfb-run, Xvfb, the loop, the program, a build) joins: one signal to the
        // group ends it. (`setsid` would fork away from that group and leave the tree behind.)
        dev.executableURL = URL(fileURLWithPath: "/usr/bin/xvfb-run")
        dev.arguments = ["-a", "-s", "-screen 0 1280x1024x24",
                         try BuiltProducts.path("vitrine"), "dev", "--scratch-path", Self.scratch.path]
        dev.currentDirectoryURL = project
        dev.environment = environment
        dev.standardOutput = output
        dev.standardError = output
        try dev.run()
        defer {
            kill(-dev.processIdentifier, SIGTERM)
            _ = waitForExit(of: dev, timeout: 20)
        }
        let facts = FactWait(watching: [log])
        func text() -> String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        func waitFor(_ line: String, count: Int = 1, timeout: TimeInterval = 600) -> Bool {
            facts.wait(timeout: timeout) { text().components(separatedBy: line).count > count }
        }

        #expect(waitFor("greeted: Hello, Ada, from Swift!"), "the project's strategy answers in the dev loop:\n\(text().suffix(3000))")

        // A web change: the page reloads (the same program, no build).
        try reporting.replacingOccurrences(of: "'greeted: '", with: "'reloaded: '").write(to: script, atomically: true, encoding: .utf8)
        #expect(waitFor("reloaded: Hello, Ada, from Swift!", timeout: 60), "\(text().suffix(3000))")

        // A Swift change: built, the program restarted, the new answer in the page.
        let main = project.appendingPathComponent("Sources/Hello/main.swift")
        let source = try String(contentsOf: main, encoding: .utf8)
        try source.replacingOccurrences(of: "from Swift!\"", with: "from Swift, rebuilt!\"").write(to: main, atomically: true, encoding: .utf8)
        #expect(waitFor("reloaded: Hello, Ada, from Swift, rebuilt!"), "\(text().suffix(3000))")
        let starts = text().components(separatedBy: "vitrine dev: started ").count - 1
        #expect(starts == 2, "one restart: \(text().suffix(3000))")

        // A broken change: the compiler's error printed, the running program kept.
        try (source + "\nlet broken: Int = \"not a number\"\n").write(to: main, atomically: true, encoding: .utf8)
        #expect(waitFor("the build failed: the running program stays"), "\(text().suffix(3000))")
        #expect(text().contains("error: cannot convert value of type 'String' to specified type 'Int'"), "\(text().suffix(3000))")
        #expect(text().components(separatedBy: "vitrine dev: started ").count - 1 == 2, "not restarted")
        Self.expectNoDroppedFlags((0, text(), ""), "vitrine dev's builds")
        try source.write(to: main, atomically: true, encoding: .utf8)
        try app.write(to: script, atomically: true, encoding: .utf8)
    }
}
