import Foundation
import Testing
import VitrineTestSupport

/// `vitrine new` as a program: the folder it writes, what it refuses. (Building the new
/// project and running its window: NewProjectBuildTests, with the window tests.)
@Suite
struct NewCommandTests {
    private func vitrine(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess("/usr/bin/env", ["-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", try BuiltProducts.path("vitrine")] + arguments, timeout: 20)
    }

    /// This checkout's root (the program under test runs from its .build folder).
    private static let checkout = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL.path

    @Test func writesTheProjectDependingOnThisCheckoutAndRefusesToOverwriteIt() throws {
        let folder = try ConfigFolder()
        let run = try vitrine(["new", "Shop", "--template", "kiosk", "--directory", folder.path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stdout.contains("depends on the Vitrine checkout \(Self.checkout)"), "\(run.stdout)")
        let project = folder.url.appendingPathComponent("Shop")
        let package = try String(contentsOf: project.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(package.contains(#".package(name: "Vitrine", path: "\#(Self.checkout)")"#))
        let config = try String(contentsOf: project.appendingPathComponent("vitrine.toml"), encoding: .utf8)
        #expect(config.contains(#"preset = "kiosk""#))
        for path in ["Sources/Shop/main.swift", "web/index.html", "web/app.js", "web/vitrine.d.ts", "README.md", ".gitignore"] {
            #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent(path).path), "\(path)")
        }
        // What it prints next is what first-app.md says: the project's `make run`, a target
        // its Makefile has.
        #expect(run.stdout.hasSuffix("next:\n  cd Shop\n  make run\n"), "\(run.stdout)")
        let makefile = try String(contentsOf: project.appendingPathComponent("Makefile"), encoding: .utf8)
        #expect(makefile.contains("\nrun:"), "the project's Makefile has a run target")
        // The written configuration passes the program's own check; the page its comment
        // sends the reader to exists.
        #expect(config.contains("docs/reference/configuration.md"), "\(config)")
        #expect(FileManager.default.fileExists(atPath: Self.checkout + "/docs/reference/configuration.md"))
        let check = try vitrine(["check-config", project.appendingPathComponent("vitrine.toml").path])
        #expect(check.status == 0, "\(check.stderr)")

        try "mine".write(to: project.appendingPathComponent("web/app.js"), atomically: true, encoding: .utf8)
        let again = try vitrine(["new", "Shop", "--directory", folder.path])
        #expect(again.status == 1)
        #expect(again.stderr.contains("exists"), "\(again.stderr)")
        #expect(try String(contentsOf: project.appendingPathComponent("web/app.js"), encoding: .utf8) == "mine")
    }

    @Test func badNamesAndTemplatesAreUsageErrors() throws {
        let folder = try ConfigFolder()
        let badName = try vitrine(["new", "my-app", "--directory", folder.path])
        #expect(badName.status == 64)
        #expect(badName.stderr.contains("'my-app' is not a valid project name"), "\(badName.stderr)")
        let badTemplate = try vitrine(["new", "Shop", "--template", "huge", "--directory", folder.path])
        #expect(badTemplate.status == 64)
        #expect(badTemplate.stderr.contains("--template is minimal or kiosk, not 'huge'"), "\(badTemplate.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing written")
    }
}

/// `vitrine dev`'s arguments, checked before any window.
@Suite
struct DevCommandArgumentTests {
    @Test func aTargetThatIsNeitherAFolderNorAnHTTPURLIsAUsageError() throws {
        let run = try runProcess("/usr/bin/env", ["-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", try BuiltProducts.path("vitrine"),
                                                  "dev", "/nonexistent/web"], timeout: 20)
        #expect(run.status == 64)
        #expect(run.stderr.contains("'/nonexistent/web' is neither an http(s) URL nor a folder"), "\(run.stderr)")
    }
}
