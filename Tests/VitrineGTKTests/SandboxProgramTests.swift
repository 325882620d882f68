import Foundation
import Testing
import VitrineTestSupport

extension WebKitTests {
    /// `[security] sandbox`: the `vitrine` program's web process seen from outside — under
    /// bubblewrap by default, a plain child with `sandbox = false` (and a warning), and a
    /// clear error with a non-zero exit where bubblewrap cannot make its namespaces.
    @Suite
    struct SandboxProgramTests {
        /// A home folder with a file only its owner may read, and a configuration there.
        private final class Home {
            let folder: ConfigFolder
            var secret: String { folder.path + "/secret.txt" }
            var config: String { folder.path + "/app.toml" }

            init(configuration: String) throws {
                folder = try ConfigFolder()
                try folder.write("secret.txt", "the kiosk's own secret")
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret)
                try folder.write("app.toml", configuration)
                try folder.makeFolder("data")
            }

            var environment: [String: String] {
                ProgramRun.environment(dataHome: folder.path + "/data").merging(["HOME": folder.path]) { $1 }
            }
        }

        /// Runs the bundled demo (app://, served by the program) until its first load has
        /// finished, then hands `inspect` the program's and its first web process's ids.
        private func withLoadedDemo(_ home: Home, inspect: (_ program: Int32, _ web: Int32) throws -> Void) throws -> String {
            let log = home.folder.path + "/events.jsonl"
            let program = try ProgramRun(["--new-instance", "--config", home.config, "--events", log], environment: home.environment)
            defer { program.end() }
            let loaded = program.waitForEvent(timeout: 60) {
                $0["event"] as? String == "finished" && ($0["url"] as? String)?.hasPrefix("app://demo/") == true
            }
            try #require(loaded != nil, "the demo did not load: \(program.standardError)")
            let web = try #require(webProcessIDs(of: program.process.processIdentifier).first, "no web process under the program")
            try inspect(program.process.processIdentifier, web)
            return program.standardError
        }

        private func seccomp(_ pid: Int32) -> String? {
            (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8))?
                .split(separator: "\n").first { $0.hasPrefix("Seccomp:") }
                .map { $0.dropFirst("Seccomp:".count).trimmingCharacters(in: .whitespaces) }
        }

        private func mountNamespace(_ pid: Int32) -> String? {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/mnt")
        }

        @Test func byDefaultThePagesProcessIsConfinedAndSeesNoneOfTheUsersFiles() throws {
            let home = try Home(configuration: "preset = \"demo\"\n")
            let errors = try withLoadedDemo(home) { program, web in
                let ancestors = processAncestors(web)
                let below = ancestors.prefix { $0 != program }
                #expect(ancestors.contains(program))
                #expect(below.contains { processName($0) == "bwrap" }, "ancestors: \(below.map { processName($0) ?? "?" })")
                #expect(mountNamespace(web) != nil && mountNamespace(web) != mountNamespace(program))
                #expect(seccomp(web) == "2")
                // The program reads the file; in the web process's own file system it is not there.
                #expect(FileManager.default.isReadableFile(atPath: home.secret))
                #expect(FileManager.default.fileExists(atPath: "/proc/\(program)/root\(home.secret)"))
                #expect(!FileManager.default.fileExists(atPath: "/proc/\(web)/root\(home.secret)"))
            }
            #expect(!errors.contains("sandbox is off"), "stderr: \(errors)")
        }

        @Test func sandboxFalseRunsThePageUnconfinedAndSaysSoAtStart() throws {
            let home = try Home(configuration: "preset = \"demo\"\n\n[security]\nsandbox = false\n")
            let errors = try withLoadedDemo(home) { program, web in
                #expect(processAncestors(web).first == program)
                #expect(mountNamespace(web) == mountNamespace(program))
                #expect(seccomp(web) == "0")
                #expect(FileManager.default.fileExists(atPath: "/proc/\(web)/root\(home.secret)"))
            }
            #expect(errors.contains("vitrine: warning: the web-process sandbox is off ([security] sandbox = false)"), "stderr: \(errors)")
        }

        /// In a user namespace of its own whose mount-namespace limit is 0 (a limit of that
        /// namespace only: nothing else on the machine changes), bubblewrap cannot make its
        /// namespaces: the program says why and how to opt out, and exits 1 before any web
        /// process. `--no-sandbox` there runs the page (warned).
        @Test func whereBubblewrapCannotStartTheProgramExitsWithTheCauseAndTheOptOut() throws {
            let vitrine = try BuiltProducts.path("vitrine")
            func restricted(_ arguments: String) throws -> (status: Int32, stdout: String, stderr: String) {
                try runProcess("/usr/bin/unshare", [
                    "--user", "--map-root-user", "--kill-child", "/bin/sh", "-c",
                    "echo 0 > /proc/sys/user/max_mnt_namespaces && exec \"$0\" \(arguments)", vitrine,
                ], timeout: 90)
            }
            let probe = try runProcess("/usr/bin/unshare", ["--user", "--map-root-user", "/bin/true"])
            try #require(probe.status == 0, "this machine allows no user namespaces: \(probe.stderr)")

            let started = Date()
            let refused = try restricted("--new-instance --exit-after-load")
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("vitrine: error: the web-process sandbox cannot start: bwrap: Creating new namespace failed"),
                    "stderr: \(refused.stderr)")
            #expect(refused.stderr.contains("`sandbox = false` under [security]"), "stderr: \(refused.stderr)")
            #expect(!refused.stderr.contains("ERROR"), "WebKit got as far as its own sandbox: \(refused.stderr)")
            #expect(Date().timeIntervalSince(started) < 20)

            let unsandboxed = try restricted("--new-instance --exit-after-load --no-sandbox")
            #expect(unsandboxed.status == 0, "stderr: \(unsandboxed.stderr)")
            #expect(unsandboxed.stderr.contains("the web-process sandbox is off"))
        }
    }
}
