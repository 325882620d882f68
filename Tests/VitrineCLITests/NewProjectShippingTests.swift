import Foundation
import Testing
import VitrineTestSupport

/// The rest of the README's path, after `NewProjectBuildTests` has built the project and run
/// its dev loop: `make e2e` (WebKitWebDriver drives the program), `make bundle` (`vitrine
/// bundle`: a release build, a .deb and a tarball), lintian, the .deb unpacked with
/// `dpkg -x` (and, as root, installed with `dpkg -i`) and its program run under Xvfb from
/// another folder, and the tarball unpacked elsewhere and run.
extension NewProjectBuildTests {
    /// `vitrine` (the built one) first on the PATH, as `make install` puts it there.
    var pathEnvironment: [String: String] {
        let products = (try? BuiltProducts.path("vitrine")).map { URL(fileURLWithPath: $0).deletingLastPathComponent().path } ?? ""
        var environment = ProcessInfo.processInfo.environment.merging(["NO_AT_BRIDGE": "1"]) { $1 }
        environment["PATH"] = products + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["VITRINE_RESOURCES"] = nil
        return environment
    }

    private func make(_ target: String, in project: URL, _ variables: [String] = [], timeout: TimeInterval) throws
        -> (status: Int32, stdout: String, stderr: String) {
        try runProcess("/usr/bin/env", ["make", "-C", project.path, target, "SCRATCH=\(Self.scratch.path)"] + variables,
                       timeout: timeout, environment: pathEnvironment)
    }

    /// `make e2e`, as the project's README has it: WebDriver, then the update loop (its
    /// release build is the one `make bundle` reuses after).
    func endToEnd(in project: URL) throws {
        let e2e = try make("e2e", in: project, timeout: 2_400)
        #expect(e2e.status == 0, "make e2e:\n\(e2e.stdout.suffix(3000))\n\(e2e.stderr.suffix(3000))")
        #expect(e2e.stdout.contains("ok    a typed name is answered: Hello, WebDriver, from Swift!"), "\(e2e.stdout.suffix(2000))")
        #expect(e2e.stdout.contains("\ne2e: all checks passed"))
        #expect(e2e.stdout.contains("ok    1.0.0 updated itself to 1.1.0"), "\(e2e.stdout.suffix(2000))")
        #expect(e2e.stdout.contains("ok    a broken 1.2.0 rolled back to 1.1.0"), "\(e2e.stdout.suffix(2000))")
        #expect(e2e.stdout.contains("update e2e: all checks passed"))
        for line in e2e.stdout.split(separator: "\n") where line.hasPrefix("ok    1.") || line.hasPrefix("ok    a broken") {
            print("e2e: \(line)")
        }
        Self.expectNoDroppedFlags(e2e, "make e2e")
    }

    /// `make bundle` with a version and a maintainer; the .deb and the tarball checked and run.
    func bundle(in project: URL) throws {
        let dist = project.appendingPathComponent("dist")
        try? FileManager.default.removeItem(at: dist)
        let bundled = try make("bundle", in: project,
                               ["BUNDLE_FLAGS=--rpm --app-version 1.0.0 --maintainer \"Ada Lovelace <ada@example.com>\""], timeout: 2_400)
        try #require(bundled.status == 0, "make bundle:\n\(bundled.stdout.suffix(4000))\n\(bundled.stderr.suffix(4000))")
        Self.expectNoDroppedFlags(bundled, "make bundle")
        let arch = try runProcess("/usr/bin/dpkg", ["--print-architecture"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let machine = try runProcess("/usr/bin/uname", ["-m"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let deb = dist.appendingPathComponent("hello_1.0.0_\(arch).deb")
        let tarball = dist.appendingPathComponent("hello-1.0.0-\(machine).tar.gz")
        #expect(FileManager.default.fileExists(atPath: deb.path) && FileManager.default.fileExists(atPath: tarball.path),
                "\(bundled.stdout)")
        // Each line `vitrine bundle` prints gives the file's real size (it once said "(0 KiB)").
        for file in [deb, tarball, dist.appendingPathComponent("hello-1.0.0-1.\(machine).rpm")] {
            let bytes = size(file)
            #expect(bytes > 1_000_000, "\(file.lastPathComponent): \(bytes) bytes")
            #expect(bundled.stdout.contains("/\(file.lastPathComponent) (\((bytes + 1023) / 1024) KiB)\n"), "\(bundled.stdout)")
        }

        let lintian = try runProcess("/usr/bin/lintian", ["--fail-on", "error", deb.path], timeout: 600)
        #expect(lintian.status == 0 && !lintian.stdout.contains("\nE: ") && !lintian.stdout.hasPrefix("E: "),
                "lintian: \(lintian.stdout)\(lintian.stderr)")
        let fields = try runProcess("/usr/bin/dpkg-deb", ["--field", deb.path]).stdout
        #expect(fields.contains("Package: hello\n") && fields.contains("Version: 1.0.0\n"), "\(fields)")
        #expect(fields.contains("libwebkit2gtk-4.1-0") && fields.contains("bubblewrap"), "Depends from dpkg-shlibdeps: \(fields)")
        #expect(fields.contains(", librsvg2-common, libmosquitto1, libarchive13\n"),
                "SVG tray icons' loader, and the libraries opened on first use (shlibdeps cannot see them): \(fields)")
        #expect(!fields.contains("libmosquitto1 ("), "not linked, so not found by dpkg-shlibdeps: \(fields)")
        print("bundle: \(deb.lastPathComponent) \(size(deb)) bytes; \(tarball.lastPathComponent) \(size(tarball)) bytes; "
              + (fields.split(separator: "\n").first { $0.hasPrefix("Installed-Size:") } ?? ""))

        // Unpacked as dpkg would install it, outside any build folder (the program must not
        // find this checkout's Resources), and run from a third folder.
        let root = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let unpack = try runProcess("/usr/bin/dpkg", ["-x", deb.path, root.path])
        try #require(unpack.status == 0, "\(unpack.stderr)")
        let appID = try appIDOf(project)
        for path in ["usr/lib/hello/Hello", "usr/lib/hello/vitrine.toml", "usr/lib/hello/web/index.html",
                     "usr/lib/hello/vitrine-resources/sdk", "usr/share/applications/\(appID).desktop",
                     "usr/share/icons/hicolor/scalable/apps/\(appID).svg", "usr/share/metainfo/\(appID).metainfo.xml",
                     "usr/share/man/man1/hello.1.gz"] {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path), "\(path) in the .deb")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root.appendingPathComponent("usr/bin/hello").path)
                == "../lib/hello/Hello")
        try expectRuns(root.appendingPathComponent("usr/bin/hello").path, "the unpacked .deb's program")

        // The tarball, unpacked elsewhere, runs where it is.
        let elsewhere = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let untar = try runProcess("/usr/bin/tar", ["-xzf", tarball.path, "-C", elsewhere.path])
        try #require(untar.status == 0, "\(untar.stderr)")
        try expectRuns(elsewhere.appendingPathComponent("hello-1.0.0/Hello").path, "the unpacked tarball's program")

        try rpmPackage(dist.appendingPathComponent("hello-1.0.0-1.\(machine).rpm"), appID: appID)

        // As root (CI), really installed and removed.
        if getuid() == 0 {
            let install = try runProcess("/usr/bin/dpkg", ["-i", deb.path], timeout: 300)
            #expect(install.status == 0, "dpkg -i: \(install.stdout)\(install.stderr)")
            if install.status == 0 {
                try expectRuns("/usr/bin/hello", "the installed program")
                #expect(FileManager.default.fileExists(atPath: "/usr/share/applications/\(appID).desktop"))
            }
            let remove = try runProcess("/usr/bin/dpkg", ["-r", "hello"], timeout: 300)
            #expect(remove.status == 0, "dpkg -r: \(remove.stderr)")
            #expect(!FileManager.default.fileExists(atPath: "/usr/lib/hello"))
        }
    }

    /// The .rpm (`--rpm`; rpmlint passed in the command): Requires from the program's ELF
    /// needs plus the sandbox, and its payload, installed by rpm into a root of its own
    /// (`--nodeps`: this Debian machine's libraries are not in an RPM database), runs.
    private func rpmPackage(_ rpm: URL, appID: String) throws {
        let requires = try runProcess("/usr/bin/rpm", ["-qp", "--requires", rpm.path])
        try #require(requires.status == 0, "rpm -qp --requires: \(requires.stderr)")
        for need in ["libwebkit2gtk-4.1.so.0()(64bit)", "libgtk-3.so.0()(64bit)", "bubblewrap", "xdg-dbus-proxy"] {
            #expect(requires.stdout.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == need }, "\(need): \(requires.stdout)")
        }
        let files = try runProcess("/usr/bin/rpm", ["-qpl", rpm.path]).stdout.split(separator: "\n").map(String.init)
        for path in ["/usr/bin/hello", "/usr/lib/hello/Hello", "/usr/lib/hello/web/index.html", "/usr/lib/hello/vitrine-resources/sdk",
                     "/usr/share/applications/\(appID).desktop", "/usr/share/doc/hello/copyright"] {
            #expect(files.contains(path), "\(path) in the .rpm: \(files)")
        }
        #expect(!files.contains("/usr/share/doc/hello/changelog.gz"), "Debian's changelog stays in the .deb")
        let root = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let install = try runProcess("/usr/bin/rpm", ["--root", root.path, "-i", "--nodeps", rpm.path], timeout: 300)
        try #require(install.status == 0, "rpm -i: \(install.stdout)\(install.stderr)")
        try expectRuns(root.appendingPathComponent("usr/bin/hello").path, "the program the .rpm installed")
    }

    /// The program, run from a folder of its own under Xvfb, loads its page and its SDK
    /// (`--exit-after-load` ends with 0 only then) and writes a PNG.
    private func expectRuns(_ program: String, _ what: String) throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shot = folder.appendingPathComponent("shot.png").path
        let run = try runProcess("/usr/bin/env", ["-C", folder.path, "xvfb-run", "-a", "-s", "-screen 0 1280x1024x24",
                                                  program, "--exit-after-load", "--screenshot", shot],
                                 timeout: 180, environment: pathEnvironment)
        #expect(run.status == 0, "\(what): \(run.stderr)")
        #expect((FileManager.default.contents(atPath: shot) ?? Data()).starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(what): a PNG")
    }

    private func appIDOf(_ project: URL) throws -> String {
        let text = try String(contentsOf: project.appendingPathComponent("vitrine.toml"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("app-id = ") })
        return line.dropFirst("app-id = ".count).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    /// A new folder under /tmp: outside any `.build` folder, where the program could find this checkout.
    private static func temporaryFolder() throws -> URL {
        let folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("vitrine-shipping-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    private func size(_ file: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int) ?? 0
    }
}
