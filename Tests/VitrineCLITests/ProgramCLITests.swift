import Foundation
import Testing
import VitrineTestSupport

/// `vitrine check-config FILE`, and the options that stop the program before GTK starts, run
/// as real processes. No display: `make test-core` runs these with none set.
@Suite
struct ConfigProgramTests {
    /// Runs `vitrine` with no display at all: checking a file must not need one.
    private func vitrineWithoutDisplay(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess("/usr/bin/env", ["-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", try BuiltProducts.path("vitrine")] + arguments, timeout: 20)
    }

    /// `--print KEY` prints any key's effective value, the preset's where the file is silent;
    /// a table that only groups keys has none and is refused.
    @Test func checkConfigPrintsAnyKeysValue() throws {
        let folder = try ConfigFolder()
        let path = try folder.write("lobby.toml", """
            preset = "kiosk"
            start-url = "https://example.org/"
            allowed-origins = ["https://b.example", "https://a.example"]
            [kiosk]
            rotation = 90
            """)
        for (key, expected) in [("kiosk.rotation", "90\n"), ("window.width", "1024\n"), ("window.fullscreen", "true\n"),
                                ("allowed-origins", "https://a.example\nhttps://b.example\n"), ("user-agent", "\n"),
                                ("kiosk.unresponsive-timeout", "10\n"), ("security.allow-automation", "false\n")] {
            let run = try vitrineWithoutDisplay(["check-config", "--print", key, path])
            #expect(run.status == 0 && run.stdout == expected, "\(key): \(run.stdout) \(run.stderr)")
        }
        let grouping = try vitrineWithoutDisplay(["check-config", "--print", "window", path])
        #expect(grouping.status != 0 && grouping.stderr.contains("not 'window'"), "\(grouping.stderr)")
    }

    @Test func checkConfigPrintsOKAndASummary() throws {
        let folder = try ConfigFolder()
        let path = try folder.write("lobby.toml", """
            preset = "kiosk"
            start-url = "https://example.org/"
            [kiosk]
            external-links = "browser"
            """)
        let run = try vitrineWithoutDisplay(["check-config", path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(path): OK")
        #expect(lines.contains { $0.contains("preset:") && $0.hasSuffix("kiosk") })
        #expect(lines.contains { $0.contains("start URL:") && $0.hasSuffix("https://example.org/") })
        #expect(lines.contains { $0.contains("chain:") && $0.hasSuffix("external-browser → origin-allowlist → default-allow") })
        #expect(lines.contains { $0.contains("strategies:") && $0.hasSuffix("user, ping") })
        #expect(run.stderr.isEmpty)
    }

    @Test func checkConfigReportsEveryProblemWithItsPositionAndExitsOne() throws {
        let folder = try ConfigFolder()
        let path = try folder.write("bad.toml", """
            preset = "kiosk"
            [window]
            width = "wide"
            fulscreen = true
            """)
        let run = try vitrineWithoutDisplay(["check-config", path])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.split(separator: "\n").map(String.init) == [
            #"\#(path):3:9: window.width must be a positive integer, got "wide""#,
            "\(path):4:1: unknown key 'window.fulscreen' (did you mean 'fullscreen'?); expected in [window]: width, height, fullscreen, decorations, remember, close-to-tray, color-scheme",
        ])
    }

    @Test func checkConfigReportsBadNetworkSettingsWithTheirPositions() throws {
        let folder = try ConfigFolder()
        let password = try folder.write("intranet.pass", "s3cret\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: password)
        let path = try folder.write("network.toml", """
            [network]
            proxy = "gopher://proxy.corp:70"
            [[network.client-certificate]]
            host = "kiosk.corp"
            certificate = "/nonexistent/kiosk.pem"
            key = "/nonexistent/kiosk.key"
            [[network.credentials]]
            origin = "https://intranet.corp"
            username = "kiosk"
            password-file = "intranet.pass"
            """)
        let run = try vitrineWithoutDisplay(["check-config", path])
        #expect(run.status == 1)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "stderr: \(run.stderr)")
        #expect(lines.first?.hasPrefix("\(path):2:9: network.proxy must be") == true)
        #expect(lines.contains { $0.hasPrefix("\(path):5:15: network.client-certificate[0].certificate must be an existing file") })
        #expect(lines.contains { $0.hasPrefix("\(path):6:7: network.client-certificate[0].key must be an existing file") })
        #expect(lines.contains { $0.hasPrefix("\(path):10:17: network.credentials[0].password-file") && $0.contains("mode 0644") })
        #expect(!run.stderr.contains("s3cret"))
    }

    /// One run reports what reading, assembling and building find, each at its place: no
    /// fix uncovers a problem that was there all along.
    @Test func checkConfigReportsFileCrossKeyAndMeaningProblemsInOneRun() throws {
        let folder = try ConfigFolder()
        let path = try folder.write("stages.toml", """
            preset = "kiosk"
            [app]
            url-schemes = ["shop"]
            [printing]
            output-uri = "file:///tmp/receipt.txt"
            [network]
            ca-certificates = ["/nonexistent/ca.pem"]
            [[navigation.handlers]]
            type = "home"
            [[navigation.handlers]]
            type = "default-allow"
            """)
        let run = try vitrineWithoutDisplay(["check-config", path])
        #expect(run.status == 1 && run.stdout.isEmpty)
        #expect(run.stderr.split(separator: "\n").map(String.init) == [
            "\(path):3:15: url-schemes: a kiosk takes no deep links (the desktop cannot start or steer it)",
            "\(path):5:14: printing output-uri 'file:///tmp/receipt.txt' must name a .pdf file (jobs are written as PDF)",
            #"\#(path):7:20: network.ca-certificates[0] must be an existing file, got "/nonexistent/ca.pem" (/nonexistent/ca.pem)"#,
            "\(path):8:1: navigation.handlers[0] is a home handler without url, and there is no start-url (or app-dir) for it to default to",
        ], "\(run.stderr)")
    }

    @Test func checkConfigReportsTOMLSyntaxErrors() throws {
        let folder = try ConfigFolder()
        let path = try folder.write("syntax.toml", "title = \"Lobby\"\n[window\nwidth = 3\n")
        let run = try vitrineWithoutDisplay(["check-config", path])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("\(path):2:"), "stderr: \(run.stderr)")
    }

    @Test func checkConfigOfAMissingFile() throws {
        let run = try vitrineWithoutDisplay(["check-config", "/nonexistent/vitrine.toml"])
        #expect(run.status == 1)
        #expect(run.stderr == "/nonexistent/vitrine.toml: cannot be read: No such file or directory\n")
    }

    @Test func everySamplePassesCheckConfig() throws {
        let configs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources/configs")
        let samples = try FileManager.default.contentsOfDirectory(atPath: configs.path).filter { $0.hasSuffix(".toml") }
        #expect(samples.count >= 3)
        for sample in samples {
            let run = try vitrineWithoutDisplay(["check-config", configs.appendingPathComponent(sample).path])
            #expect(run.status == 0, "\(sample): \(run.stderr)")
            #expect(run.stdout.hasPrefix(configs.appendingPathComponent(sample).path + ": OK\n"))
        }
    }

    /// An invalid file stops the program before GTK starts: no window, no waiting.
    @Test func anInvalidConfigExitsQuicklyWithThePosition() throws {
        let folder = try ConfigFolder()
        let path = try folder.write("bad.toml", """
            start-url = "https://example.org/"
            [[navigation.handlers]]
            type = "home"
            [[navigation.handlers]]
            type = "deeplink"
            """)
        let started = Date()
        let run = try runProcess(try BuiltProducts.path("vitrine"), ["--config", path, "--exit-after-load"], timeout: 20)
        #expect(run.status != 0)
        #expect(run.stderr.hasPrefix(#"\#(path):5:8: navigation.handlers[1].type must be one of"#), "stderr: \(run.stderr)")
        #expect(run.stderr.contains(#"got "deeplink""#))
        #expect(Date().timeIntervalSince(started) < 10, "it must not have opened a window and waited")
    }

    @Test(arguments: [
        (["--allow-origin", "https://a.example/path"], "--allow-origin must be an origin"),
        (["--app-dir", "/nonexistent/www"], "--app-dir '/nonexistent/www' is not a folder"),
        (["--config", "/nonexistent/vitrine.toml"], "/nonexistent/vitrine.toml: cannot be read"),
    ])
    func badNewOptionsExitNonZeroWithAClearMessage(arguments: [String], message: String) throws {
        let run = try runProcess(try BuiltProducts.path("vitrine"), arguments, timeout: 20)
        #expect(run.status != 0)
        #expect(run.stderr.contains(message), "stderr: \(run.stderr)")
    }
}

/// Bad arguments and `--version`: the program answers before it opens any window.
@Suite
struct ProgramArgumentTests {
    @Test(arguments: [
        (["--preset", "nonsense"], "unknown preset 'nonsense'"),
        (["--width", "0"], "--width must be positive"),
        (["not a url"], "neither a URL with a scheme nor an existing file"),
        (["--screenshot", "out.jpg"], "PNG"),
        (["--no-such-flag"], "Unknown option"),
    ])
    func badArgumentsExitNonZeroWithAClearMessageAndNoWindow(arguments: [String], message: String) throws {
        let started = Date()
        let run = try runProcess(try BuiltProducts.path("vitrine"), arguments, timeout: 20)
        #expect(run.status != 0)
        #expect(run.stderr.contains(message), "stderr: \(run.stderr)")
        #expect(Date().timeIntervalSince(started) < 10, "it must not have opened a window and waited")
    }

    @Test func versionPrintsAndExitsZero() throws {
        let run = try runProcess(try BuiltProducts.path("vitrine"), ["--version"], timeout: 20)
        #expect(run.status == 0)
        #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines).range(of: #"^\d+\.\d+\.\d+$"#, options: .regularExpression) != nil)
    }
}
