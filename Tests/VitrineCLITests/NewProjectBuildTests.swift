import Foundation
import Testing
import VitrineTestSupport

/// The README's "Your first hybrid app", run as written: `vitrine new Hello`, `swift build`
/// of the new project against this checkout, then its program under Xvfb with
/// `--exit-after-load --screenshot`, which prints the title the page set from Swift's answer;
/// then the `generate-vitrine-types` command plugin on it.
///
/// The one nested `swift build` of the test suites. Its scratch folder
/// (`.build-new-project/` in this checkout) is kept between runs, so only the first run
/// builds Vitrine again (see the README for the times).
@Suite
struct NewProjectBuildTests {
    static let checkout = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL

    @Test(.timeLimit(.minutes(20)))
    func aNewProjectBuildsAndItsPageShowsTheTypedStrategysAnswer() throws {
        let work = Self.checkout.appendingPathComponent(".build-new-project")
        let project = work.appendingPathComponent("work/Hello")
        try? FileManager.default.removeItem(at: project)
        try FileManager.default.createDirectory(at: project.deletingLastPathComponent(), withIntermediateDirectories: true)

        let created = try runProcess(try BuiltProducts.path("vitrine"),
                                     ["new", "Hello", "--directory", project.deletingLastPathComponent().path])
        #expect(created.status == 0, "\(created.stderr)")

        let build = try runProcess("/usr/bin/env", ["swift", "build", "--package-path", project.path,
                                                    "--scratch-path", work.appendingPathComponent("scratch").path],
                                   timeout: 1_200)
        try #require(build.status == 0, "the new project does not build:\n\(build.stdout.suffix(4000))\n\(build.stderr.suffix(4000))")

        let screenshot = project.appendingPathComponent("shot.png").path
        var environment = ProcessInfo.processInfo.environment
        environment["NO_AT_BRIDGE"] = "1"
        // `swift run`, from the project's folder as the README says (the program reads
        // ./vitrine.toml); built above, so --skip-build.
        let run = try runProcess("/usr/bin/env", ["-C", project.path, "xvfb-run", "-a", "-s", "-screen 0 1280x1024x24",
                                                  "swift", "run", "--scratch-path", work.appendingPathComponent("scratch").path,
                                                  "--skip-build", "Hello", "--exit-after-load", "--screenshot", screenshot],
                                 timeout: 300, environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("title: Hello, Ada, from Swift!"), "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        let png = FileManager.default.contents(atPath: screenshot) ?? Data()
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG screenshot of the page")

        // The command plugin, as the README has it, rewrites web/strategies.d.ts from the
        // project's sources: the same declarations `vitrine new` wrote.
        let declarations = project.appendingPathComponent("web/strategies.d.ts")
        let written = try String(contentsOf: declarations, encoding: .utf8)
        try FileManager.default.removeItem(at: declarations)
        let generate = try runProcess("/usr/bin/env", ["swift", "package", "--package-path", project.path,
                                                       "--scratch-path", work.appendingPathComponent("scratch").path,
                                                       "--allow-writing-to-package-directory", "generate-vitrine-types"],
                                      timeout: 1_200)
        #expect(generate.status == 0, "\(generate.stderr.suffix(4000))")
        #expect((try? String(contentsOf: declarations, encoding: .utf8)) == written, "the plugin's output is the template's")
    }
}
