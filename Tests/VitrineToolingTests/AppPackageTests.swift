import Foundation
import Testing
import Vitrine
import VitrineTooling
import VitrineTestSupport

/// `vitrine bundle`'s plan: the app folder, the Debian package's files and fields, and the
/// run-time lookup that lets a copied or relocated program find what ships beside it.
@Suite("AppPackage")
struct AppPackageTests {
    static func metadata(product: String = "Notes", appID: String = "com.example.Notes", version: String = "1.2.0",
                         title: String = "Notes & more", maintainer: String = "Ada Lovelace <ada@example.com>") throws -> AppPackageMetadata {
        try AppPackageMetadata(product: product, appID: appID, version: version, title: title,
                              summary: "Take <notes> quickly", maintainer: maintainer, license: "MIT", architecture: "amd64")
    }

    static let package = URL(fileURLWithPath: "/home/ada/Notes")
    static func inputs(appDirectory: String? = "/home/ada/Notes/web") -> AppPackage.Inputs {
        AppPackage.Inputs(executable: URL(fileURLWithPath: "/home/ada/Notes/.build/release/Notes"),
                         configFile: package.appendingPathComponent("vitrine.toml"),
                         appDirectory: appDirectory.map { URL(fileURLWithPath: $0) },
                         resources: URL(fileURLWithPath: "/src/vitrine/Resources"),
                         icon: package.appendingPathComponent("icon.svg"))
    }

    static let date = BundleDate(day: "2026-11-27", rfc2822: "Fri, 27 Nov 2026 00:00:00 +0000")

    @Test func theAppFolderHoldsTheProgramItsConfigurationItsWebFolderAndTheSDK() throws {
        let bundle = AppPackage(metadata: try Self.metadata())
        let entries = try bundle.appFolder(Self.inputs())
        #expect(entries.map(\.path) == ["Notes", "vitrine.toml", "version", "web",
                                        "vitrine-resources/sdk", "vitrine-resources/errors", "vitrine-resources/keyboard"])
        #expect(entries[0].source == .file(URL(fileURLWithPath: "/home/ada/Notes/.build/release/Notes"), executable: true))
        #expect(entries[2].source == .text("1.2.0\n"))
        #expect(entries[3].source == .folder(URL(fileURLWithPath: "/home/ada/Notes/web")))
        #expect(entries[4].source == .folder(URL(fileURLWithPath: "/src/vitrine/Resources/sdk")))
        // A nested app-dir keeps its path relative to vitrine.toml, so the copied file's relative path still names it.
        let nested = try bundle.appFolder(Self.inputs(appDirectory: "/home/ada/Notes/front/dist/"))
        #expect(nested.map(\.path).contains("front/dist"))
        #expect(try bundle.appFolder(Self.inputs(appDirectory: nil)).map(\.path).contains("web") == false)
    }

    /// An app-dir outside the package (or the package itself, or `..`) cannot travel beside the
    /// program; nor can one named like the program or the resources folder.
    @Test func anAppFolderOutsideThePackageOrShadowingTheBundleIsRefused() throws {
        let bundle = AppPackage(metadata: try Self.metadata())
        for outside in ["/home/ada/shared-web", "/home/ada/Notes", "/home/ada/Notes/../other", "/etc", "/home/ada/Notes/web/../.."] {
            #expect(throws: AppPackageError.self, "\(outside)") { try bundle.appFolder(Self.inputs(appDirectory: outside)) }
        }
        for shadowing in ["/home/ada/Notes/vitrine-resources", "/home/ada/Notes/Notes"] {
            #expect(throws: AppPackageError.self, "\(shadowing)") { try bundle.appFolder(Self.inputs(appDirectory: shadowing)) }
        }
    }

    @Test func theDebianPackagePutsTheAppFolderUnderUsrLibAndItsDesktopFilesUnderTheAppID() throws {
        let bundle = AppPackage(metadata: try Self.metadata())
        let entries = try bundle.debEntries(Self.inputs(), date: Self.date)
        let paths = entries.map(\.path)
        #expect(paths.contains("usr/lib/notes/Notes"))
        #expect(paths.contains("usr/lib/notes/vitrine-resources/sdk"))
        #expect(entries.first { $0.path == "usr/bin/notes" }?.source == .symlink("../lib/notes/Notes"))
        for path in ["usr/share/applications/com.example.Notes.desktop", "usr/share/icons/hicolor/scalable/apps/com.example.Notes.svg",
                     "usr/share/metainfo/com.example.Notes.metainfo.xml", "usr/share/man/man1/notes.1.gz",
                     "usr/share/doc/notes/copyright", "usr/share/doc/notes/changelog.gz"] {
            #expect(paths.contains(path), "\(path)")
        }
        #expect(Set(paths).count == paths.count, "no path twice")
        #expect(bundle.debFileName == "notes_1.2.0_amd64.deb")
        #expect(bundle.tarballName(machine: "x86_64") == "notes-1.2.0-x86_64.tar.gz")
        let tarball = try bundle.tarballEntries(Self.inputs()).map(\.path)
        #expect(tarball.allSatisfy { $0.hasPrefix("notes-1.2.0/") } && tarball.contains("notes-1.2.0/Notes")
                && tarball.contains("notes-1.2.0/vitrine-resources/sdk"))
    }

    @Test func theControlFieldsCarryTheComputedDependsAndTheSandboxes() throws {
        let control = AppPackage(metadata: try Self.metadata()).control(
            shlibsDepends: "libc6 (>= 2.36), libwebkit2gtk-4.1-0 (>= 2.40.0),  ", installedSize: 20_480)
        #expect(control.contains("Package: notes\nVersion: 1.2.0\nArchitecture: amd64\nMaintainer: Ada Lovelace <ada@example.com>\n"))
        #expect(control.contains("Installed-Size: 20480\n"))
        #expect(control.contains("Depends: libc6 (>= 2.36), libwebkit2gtk-4.1-0 (>= 2.40.0), bubblewrap, xdg-dbus-proxy, librsvg2-common, libmosquitto1, libarchive13\n"))
        #expect(control.contains("Description: Take <notes> quickly\n Notes & more is"))
        #expect(control.hasSuffix("\n") && !control.hasSuffix("\n\n"), "one final newline: dpkg-deb refuses a blank line")
    }

    @Test func theDesktopEntryAndMetainfoNameTheAppByItsID() throws {
        let bundle = AppPackage(metadata: try Self.metadata())
        let desktop = bundle.desktopEntry
        #expect(desktop.hasPrefix("[Desktop Entry]\nType=Application\n"))
        for line in ["Name=Notes & more", "Exec=notes", "Icon=com.example.Notes", "StartupWMClass=com.example.Notes"] {
            #expect(desktop.split(separator: "\n").contains(Substring(line)), "\(line)")
        }
        let metainfo = bundle.metainfo(date: Self.date)
        #expect(metainfo.contains("<id>com.example.Notes</id>"))
        #expect(metainfo.contains("<name>Notes &amp; more</name>") && metainfo.contains("<summary>Take &lt;notes&gt; quickly</summary>"),
                "text is escaped")
        #expect(metainfo.contains("<launchable type=\"desktop-id\">com.example.Notes.desktop</launchable>"))
        #expect(metainfo.contains("<release version=\"1.2.0\" date=\"2026-11-27\"/>"))
        #expect(metainfo.contains("<project_license>MIT</project_license>"))
        #expect(bundle.changelog(date: Self.date).contains(" -- Ada Lovelace <ada@example.com>  Fri, 27 Nov 2026 00:00:00 +0000"))
        let man = bundle.manPage
        #expect(man.hasPrefix(".TH NOTES 1 "))
        #expect(man.contains("notes \\- Take <notes> quickly"))
        #expect(man.contains("/usr/lib/notes/vitrine.toml"))
    }

    /// Values that would break a control file, a desktop entry or a roff line are refused
    /// with the fix named, before anything is built.
    @Test func malformedMetadataIsRefusedWithTheFix() throws {
        #expect(try Self.metadata().packageName == "notes")
        #expect(AppPackageMetadata.defaultPackageName(for: "My_App") == "my-app")
        let bad: [(String, () throws -> AppPackageMetadata)] = [
            ("version", { try Self.metadata(version: "v1") }),
            ("version", { try Self.metadata(version: "1.0\nPackage: evil") }),
            ("version", { try Self.metadata(version: "1.0-1") }),
            ("maintainer", { try Self.metadata(maintainer: "ada@example.com") }),
            ("maintainer", { try Self.metadata(maintainer: "Ada <root@localhost>") }),
            ("maintainer", { try Self.metadata(maintainer: "Ada <ada@example.com>\nDepends: evil") }),
            ("title", { try Self.metadata(title: "Notes\nExec=rm -rf ~") }),
            ("app id", { try Self.metadata(appID: "notes") }),
            ("summary", { try AppPackageMetadata(product: "Notes", appID: "com.example.Notes", version: "1", title: "Notes",
                                                summary: "Notes, a desktop app", maintainer: "A <a@example.com>", license: "MIT",
                                                architecture: "amd64") }),
            ("package", { try Self.metadata(product: "Vitrine") }),
            ("package", { try AppPackageMetadata(product: "Notes", appID: "com.example.Notes", packageName: "Notes!", version: "1",
                                                title: "t", summary: "s", maintainer: "A <a@example.com>", license: "MIT",
                                                architecture: "amd64") }),
        ]
        for (what, make) in bad {
            #expect(throws: AppPackageError.self, "a bad \(what)") { try make() }
        }
        do {
            _ = try Self.metadata(maintainer: "ada")
            Issue.record("accepted")
        } catch {
            #expect("\(error)".contains("Full Name <you@example.com>"))
        }
    }

    /// A bundled program, copied or unpacked anywhere, finds Vitrine's resources beside it
    /// (before an installed Vitrine's); the stock program is unaffected.
    @Test func aRelocatedProgramFindsTheResourcesBesideIt() throws {
        let folder = try ConfigFolder()
        let base = folder.url.resolvingSymlinksInPath()
        let app = base.appendingPathComponent("somewhere/notes-1.2.0")
        try FileManager.default.createDirectory(at: app.appendingPathComponent("vitrine-resources/sdk"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: base.appendingPathComponent("somewhere/share/vitrine"), withIntermediateDirectories: true)
        let locator = ResourceLocator(environment: [:], executable: app.appendingPathComponent("Notes"))
        #expect(locator.sdkDirectory.path == app.appendingPathComponent("vitrine-resources/sdk").path)
        // Moved elsewhere: still its own.
        let moved = base.appendingPathComponent("opt/notes")
        try FileManager.default.createDirectory(at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: app, to: moved)
        #expect(ResourceLocator(environment: [:], executable: moved.appendingPathComponent("Notes")).directory.path
                == moved.appendingPathComponent("vitrine-resources").path)
        // The override still wins.
        let override = base.appendingPathComponent("override")
        try FileManager.default.createDirectory(at: override, withIntermediateDirectories: true)
        #expect(ResourceLocator(environment: ["VITRINE_RESOURCES": override.path], executable: moved.appendingPathComponent("Notes"))
                    .directory.path == override.path)
    }

    /// The running program is `/proc/self/exe`, not `argv[0]`, which is a bare name when the
    /// program was found on the PATH (`notes` from a desktop entry).
    @Test func theRunningProgramIsFoundWhateverArgv0Says() {
        let running = ResourceLocator.runningExecutable
        #expect(running.path.hasPrefix("/"))
        #expect(FileManager.default.isExecutableFile(atPath: running.path))
    }

    /// Staged files get a package's modes; a link or a special file inside the web folder
    /// is refused (never followed), so a file outside the package is never shipped.
    @Test func stagingCopiesWithPackageModesAndRefusesLinksOutOfTheFolder() throws {
        let folder = try ConfigFolder()
        let base = folder.url.resolvingSymlinksInPath()
        let fileManager = FileManager.default
        let web = base.appendingPathComponent("web")
        try fileManager.createDirectory(at: web.appendingPathComponent("css"), withIntermediateDirectories: true)
        try Data("<h1>hi</h1>".utf8).write(to: web.appendingPathComponent("index.html"))
        try Data("body{}".utf8).write(to: web.appendingPathComponent("css/site.css"))
        try fileManager.setAttributes([.posixPermissions: 0o775], ofItemAtPath: web.appendingPathComponent("css/site.css").path)
        let program = base.appendingPathComponent("Notes")
        try Data("#!/bin/sh\n".utf8).write(to: program)
        let gzip: (URL) throws -> Void = { plain in
            let process = try Process.run(URL(fileURLWithPath: "/bin/gzip"), arguments: ["-9n", plain.path])
            process.waitUntilExit()
        }
        let entries = [AppPackage.Entry("lib/Notes", .file(program, executable: true)), AppPackage.Entry("lib/web", .folder(web)),
                       AppPackage.Entry("bin/notes", .symlink("../lib/Notes")), AppPackage.Entry("doc/changelog.gz", .gzippedText("log\n"))]
        let root = base.appendingPathComponent("root")
        try PackageStager(root: root, gzip: gzip).stage(entries)
        func mode(_ path: String) throws -> Int {
            try #require(fileManager.attributesOfItem(atPath: root.appendingPathComponent(path).path)[.posixPermissions] as? Int)
        }
        #expect(try mode("lib/Notes") == 0o755 && mode("lib/web/index.html") == 0o644 && mode("lib/web/css/site.css") == 0o644
                && mode("lib/web/css") == 0o755)
        #expect(try fileManager.destinationOfSymbolicLink(atPath: root.appendingPathComponent("bin/notes").path) == "../lib/Notes")
        #expect(fileManager.contents(atPath: root.appendingPathComponent("doc/changelog.gz").path)?.starts(with: [0x1F, 0x8B]) == true)
        #expect(!fileManager.fileExists(atPath: root.appendingPathComponent("doc/changelog").path))
        // A second run into the same root is refused: a stale file would ship too.
        #expect(throws: AppPackageError.self) { try PackageStager(root: root, gzip: gzip).stage(entries) }

        // A link in web/ to a private file, a link to a folder, a FIFO: each refused, nothing of the target staged.
        let secret = base.appendingPathComponent("id_ed25519")
        try Data("PRIVATE KEY".utf8).write(to: secret)
        let attacks: [(String, () throws -> Void)] = [
            ("a link to a file", { try fileManager.createSymbolicLink(at: web.appendingPathComponent("key.txt"), withDestinationURL: secret) }),
            ("a link to a folder", { try fileManager.createSymbolicLink(at: web.appendingPathComponent("home"), withDestinationURL: base) }),
            ("a FIFO", { #expect(mkfifo(web.appendingPathComponent("pipe").path, 0o644) == 0) }),
        ]
        for (index, (what, plant)) in attacks.enumerated() {
            try plant()
            let attacked = base.appendingPathComponent("attacked-\(index)")
            do {
                try PackageStager(root: attacked, gzip: gzip).stage([AppPackage.Entry("web", .folder(web))])
                Issue.record("\(what) was staged")
            } catch {
                #expect("\(error)".contains("symbolic link or a special file"), "\(what): \(error)")
            }
            let staged = (fileManager.enumerator(atPath: attacked.path)?.allObjects as? [String]) ?? []
            #expect(!staged.contains { $0.hasSuffix("key.txt") || $0.contains("home/") || $0.hasSuffix("pipe") }, "\(what): \(staged)")
            for name in ["key.txt", "home", "pipe"] { try? fileManager.removeItem(at: web.appendingPathComponent(name)) }
        }
        // The web folder itself a link: not followed either.
        let linkedWeb = base.appendingPathComponent("linked-web")
        try fileManager.createSymbolicLink(at: linkedWeb, withDestinationURL: web)
        #expect(throws: AppPackageError.self) {
            try PackageStager(root: base.appendingPathComponent("attacked-web"), gzip: gzip).stage([AppPackage.Entry("web", .folder(linkedWeb))])
        }
    }

    /// The line `vitrine bundle` prints for each file it wrote: its real size, read from the
    /// file, and no made-up size for a file that cannot be read. (The release program once
    /// printed 0 KiB for every file: `FoundationUseTests` guards that cast, which works in
    /// any process that loads full Foundation, as this one does.)
    @Test func theWrittenLineGivesTheFilesSizeInKibibytes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("written-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let deb = folder.appendingPathComponent("notes_1.2.0_amd64.deb")
        try Data(count: 4_700_001).write(to: deb)
        #expect(AppPackage.writtenLine(deb.path) == "\(deb.path) (4590 KiB)", "4,700,001 bytes, rounded up")
        let tiny = folder.appendingPathComponent("tiny")
        try Data([1]).write(to: tiny)
        #expect(AppPackage.writtenLine(tiny.path) == "\(tiny.path) (1 KiB)")
        let missing = folder.appendingPathComponent("missing").path
        #expect(AppPackage.writtenLine(missing) == missing, "no size rather than a made-up one")
    }
}
