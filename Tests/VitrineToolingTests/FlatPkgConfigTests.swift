import Foundation
import Testing
import Vitrine
import VitrineTooling
import VitrineTestSupport

/// The flattened .pc files `swift build --pkg-config-path` reads first: pkg-config's flags
/// without those SwiftPM drops (and warns about), written only into a folder of the user's.
@Suite("Flattened pkg-config files")
struct FlatPkgConfigTests {
    /// `pkg-config --cflags webkit2gtk-4.1` and `--libs` on Debian 12 (WebKitGTK 2.50.6).
    static let webkitCflags = "-I/usr/include/webkitgtk-4.1 -I/usr/include/glib-2.0 -I/usr/lib/x86_64-linux-gnu/glib-2.0/include -I/usr/include/gtk-3.0 -I/usr/include/pango-1.0 -I/usr/include/harfbuzz -I/usr/include/freetype2 -I/usr/include/libpng16 -I/usr/include/libmount -I/usr/include/blkid -I/usr/include/fribidi -I/usr/include/cairo -I/usr/include/pixman-1 -I/usr/include/gdk-pixbuf-2.0 -I/usr/include/x86_64-linux-gnu -I/usr/include/gio-unix-2.0 -I/usr/include/atk-1.0 -I/usr/include/at-spi2-atk/2.0 -I/usr/include/at-spi-2.0 -I/usr/include/dbus-1.0 -I/usr/lib/x86_64-linux-gnu/dbus-1.0/include -I/usr/include/libsoup-3.0 -I/usr/include/sysprof-4 -pthread \n"
    static let webkitLibs = "-lwebkit2gtk-4.1 -lgtk-3 -lgdk-3 -lz -lpangocairo-1.0 -lpango-1.0 -lharfbuzz -latk-1.0 -lcairo-gobject -lcairo -lgdk_pixbuf-2.0 -lsoup-3.0 -Wl,--export-dynamic -lgmodule-2.0 -pthread -lglib-2.0 -lgio-2.0 -ljavascriptcoregtk-4.1 -lgobject-2.0 -lglib-2.0 \n"

    private func webkit() throws -> FlatPkgConfig {
        try FlatPkgConfig(name: "webkit2gtk-4.1", version: "2.50.6\n", cflagsOutput: Self.webkitCflags, libsOutput: Self.webkitLibs)
    }

    @Test func webkitKeepsEveryIncludeAndLibraryAndDropsThreadAndExportFlags() throws {
        let flat = try webkit()
        #expect(flat.cFlags.count == 23 && flat.cFlags.allSatisfy { $0.hasPrefix("-I/usr/") })
        #expect(flat.cFlags.first == "-I/usr/include/webkitgtk-4.1" && flat.cFlags.last == "-I/usr/include/sysprof-4")
        #expect(flat.libs.count == 18 && flat.libs.allSatisfy { $0.hasPrefix("-l") })
        #expect(flat.libs.contains("-ljavascriptcoregtk-4.1") && flat.libs.contains("-lgmodule-2.0"))
        #expect(flat.dropped == ["-pthread", "-Wl,--export-dynamic", "-pthread"])
        let text = flat.text
        #expect(!text.contains("-pthread") && !text.contains("export-dynamic"))
        #expect(!text.lowercased().contains("requires"), "nothing pulls GLib's own .pc back in")
        #expect(text.contains("\nVersion: 2.50.6\n") && text.contains("\nCflags: -I/usr/include/webkitgtk-4.1 -I/usr/include/glib-2.0 "))
        #expect(text.contains("\nLibs: -lwebkit2gtk-4.1 -lgtk-3 "))
        #expect(flat.fileName == "webkit2gtk-4.1.pc")
    }

    @Test func aLibraryWithNothingToDropIsWrittenAsItIs() throws {
        let flat = try FlatPkgConfig(name: "libmosquitto", version: "2.0.11", cflagsOutput: "\n", libsOutput: "-lmosquitto \n")
        #expect(flat.cFlags.isEmpty && flat.libs == ["-lmosquitto"] && flat.dropped.isEmpty)
        #expect(flat.text.contains("\nCflags: \nLibs: -lmosquitto\n"))
    }

    @Test func aSpaceInAPathSurvivesTheRoundTrip() throws {
        // pkgconf escapes the space; the file escapes it again for SwiftPM's reader.
        let flat = try FlatPkgConfig(name: "spacey", version: "1", cflagsOutput: #"-I/opt/my\ dir/include -I"/opt/q d" "#,
                                     libsOutput: #"-L/opt/my\ dir/lib -lspacey"#)
        #expect(flat.cFlags == ["-I/opt/my dir/include", "-I/opt/q d"])
        #expect(flat.libs == ["-L/opt/my dir/lib", "-lspacey"])
        #expect(flat.text.contains(#"Cflags: -I/opt/my\ dir/include -I/opt/q\ d"#))
    }

    @Test func flagsWithTheirValueApartStayTogetherAndOnlySwiftPMsFlagsAreKept() throws {
        let flat = try FlatPkgConfig(name: "apart", version: "1",
                                     cflagsOutput: "-I /opt/inc -DFOO=1 -isystem /opt/sys -F /opt/fw -O2",
                                     libsOutput: "-L /opt/lib -lapart -w -Wall -wfoo -framework Cocoa -Wl,-rpath,/opt -L")
        #expect(flat.cFlags == ["-I", "/opt/inc", "-F", "/opt/fw"])
        #expect(flat.libs == ["-L", "/opt/lib", "-lapart", "-w", "-framework", "Cocoa"])
        #expect(flat.dropped == ["-DFOO=1", "-isystem", "/opt/sys", "-O2", "-Wall", "-wfoo", "-Wl,-rpath,/opt", "-L"])
    }

    @Test(arguments: [
        ("-I\"/opt/unterminated", "-lx"),          // a quote never closed
        ("-I/opt/x", "-lx \\"),                    // an escape with nothing after it
        ("-I/opt/a#b", "-lx"),                     // SwiftPM's reader ends the value at '#'
        ("-I/opt/${prefix}/x", "-lx"),             // …and expands ${…}
        ("'-I/opt/a\nRequires: glib-2.0'", "-lx"), // a line end smuggled in a quoted flag
    ])
    func garbageThatCannotBeWrittenBackIsRefused(cflags: String, libs: String) {
        #expect(throws: FlatPkgConfigError.self) {
            try FlatPkgConfig(name: "garbage", version: "1", cflagsOutput: cflags, libsOutput: libs)
        }
    }

    @Test(arguments: ["", "1.0\nRequires: glib-2.0", "1 2", "1#2"])
    func aVersionThatIsNotOneIsRefused(version: String) {
        #expect(throws: FlatPkgConfigError.self) {
            try FlatPkgConfig(name: "x", version: version, cflagsOutput: "", libsOutput: "-lx")
        }
    }

    @Test(arguments: ["", "../webkit2gtk-4.1", "a/b", "-lfoo", ".hidden", "a b", "x'y", "café"])
    func namesThatAreNotPackageNamesAreRefused(name: String) {
        #expect(!FlatPkgConfig.isPackageName(name))
        #expect(throws: FlatPkgConfigError.self) {
            try FlatPkgConfig(name: name, version: "1", cflagsOutput: "", libsOutput: "-lx")
        }
    }

    @Test func theLibrariesAreThoseVitrinesPackageAsksFor() throws {
        let manifest = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Package.swift"), encoding: .utf8)
        let names = manifest.components(separatedBy: "pkgConfig: \"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(Set(names) == Set(FlatPkgConfig.vitrineLibraries) && names.count == FlatPkgConfig.vitrineLibraries.count)
    }

    // MARK: The folder

    /// pkg-config as a table: arguments → output (nil: unknown).
    private func fake(_ answers: [String: (String, String, String)]) -> FlatPkgConfigFolder.PkgConfig {
        { arguments in
            guard let answer = answers[arguments[1]] else { return nil }
            switch arguments[0] {
            case "--modversion": return answer.0
            case "--cflags": return answer.1
            default: return answer.2
            }
        }
    }

    @Test func knownLibrariesAreWrittenAndAnUnknownOnesStaleFileIsRemoved() throws {
        let root = try ConfigFolder()
        let folder = FlatPkgConfigFolder(scratchPath: root.path + "/scratch dir")
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        try "Cflags: -I/old\n".write(toFile: folder.path + "/libarchive.pc", atomically: true, encoding: .utf8)
        let outcomes = try folder.refresh(names: ["webkit2gtk-4.1", "libmosquitto", "libarchive"], pkgConfig: fake([
            "webkit2gtk-4.1": ("2.50.6", Self.webkitCflags, Self.webkitLibs),
            "libmosquitto": ("2.0.11", "", "-lmosquitto"),
        ]))
        #expect(folder.path == root.path + "/scratch dir/pkg-config")
        #expect(outcomes.count == 3 && outcomes[2] == .unknown("libarchive"))
        let written = try String(contentsOfFile: folder.path + "/webkit2gtk-4.1.pc", encoding: .utf8)
        #expect(written == (try webkit()).text)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/libmosquitto.pc"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/libarchive.pc"), "SwiftPM's own lookup and error decide")
    }

    /// `vitrine dev` builds with the folder the tool writes: the core's `DevProject` names it
    /// without linking the tool, so the two must agree.
    @Test func aDevProjectBuildsWithTheFolderTheToolWrites() throws {
        let root = try ConfigFolder()
        try FileManager.default.createDirectory(atPath: root.path + "/Sources/App", withIntermediateDirectories: true)
        try "// swift-tools-version:6.2\n".write(toFile: root.path + "/Package.swift", atomically: true, encoding: .utf8)
        try "".write(toFile: root.path + "/Sources/App/main.swift", atomically: true, encoding: .utf8)
        let project = try #require(try DevProject(folder: URL(fileURLWithPath: root.path), scratchPath: URL(fileURLWithPath: root.path + "/scratch dir")))
        #expect(project.pkgConfigPath == FlatPkgConfigFolder(scratchPath: project.scratchPath.path).path)
        #expect(project.pkgConfigPath.hasSuffix("/scratch dir/pkg-config"))
    }

    @Test func aLibraryWhoseFlagsCannotBeWrittenIsLeftToSwiftPM() throws {
        let root = try ConfigFolder()
        let folder = FlatPkgConfigFolder(path: root.path + "/pc")
        let outcomes = try folder.refresh(names: ["odd"], pkgConfig: fake(["odd": ("1", "-I/opt/a#b", "-lodd")]))
        guard case .unflattenable("odd", _)? = outcomes.first else { Issue.record("\(outcomes)"); return }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/odd.pc"))
    }

    @Test func aSymlinkPlantedAtAFileNameIsReplacedNotFollowed() throws {
        let root = try ConfigFolder()
        let victim = try root.write("victim.txt", "untouched\n")
        let folder = FlatPkgConfigFolder(path: try root.makeFolder("pc"))
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/libmosquitto.pc", withDestinationPath: victim)
        try folder.refresh(names: ["libmosquitto"], pkgConfig: fake(["libmosquitto": ("2.0.11", "", "-lmosquitto")]))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "untouched\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.path + "/libmosquitto.pc")
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
    }

    @Test func aFolderThatIsASymlinkIsRefusedAndNothingIsWrittenThroughIt() throws {
        let root = try ConfigFolder()
        let elsewhere = try root.makeFolder("elsewhere")
        try FileManager.default.createSymbolicLink(atPath: root.path + "/pc", withDestinationPath: elsewhere)
        let folder = FlatPkgConfigFolder(path: root.path + "/pc")
        #expect(throws: FlatPkgConfigError.self) {
            try folder.refresh(names: ["libmosquitto"], pkgConfig: self.fake(["libmosquitto": ("2.0.11", "", "-lmosquitto")]))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }

    /// The written files hold this machine's flags in pkg-config's order without `-pthread`
    /// and `-Wl,--export-dynamic`, and this machine's pkg-config, reading the folder first
    /// (a space in its path), gives the same flags back.
    @Test func theWrittenFilesReadBackAsTheSystemsFlagsWithoutTheDroppedOnes() throws {
        let root = try ConfigFolder()
        let folder = FlatPkgConfigFolder(path: root.path + "/with space/pc")
        let outcomes = try folder.refresh()
        #expect(outcomes.allSatisfy { if case .written = $0 { true } else { false } }, "\(outcomes)")
        for name in FlatPkgConfig.vitrineLibraries {
            for query in ["--cflags", "--libs"] {
                let system = try runProcess("/usr/bin/env", ["pkg-config", query, name])
                let flat = try runProcess("/usr/bin/env", ["PKG_CONFIG_PATH=" + folder.path, "pkg-config", query, name])
                #expect(system.status == 0 && flat.status == 0, "\(flat.stderr)")
                let expected = system.stdout.split(separator: " ").map(String.init)
                    .filter { $0 != "-pthread" && $0 != "-Wl,--export-dynamic" && !$0.allSatisfy(\.isWhitespace) }
                    .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                let read = flat.stdout.split(separator: " ").map(String.init).filter { !$0.allSatisfy(\.isWhitespace) }
                    .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                // pkg-config folds a repeated -l into one, so the read-back is compared as a set.
                #expect(Set(read) == Set(expected), "\(name) \(query)")
                let file = try String(contentsOfFile: folder.path + "/\(name).pc", encoding: .utf8)
                let field = query == "--cflags" ? "Cflags:" : "Libs:"
                let line = try #require(file.split(separator: "\n").first { $0.hasPrefix(field) })
                #expect(line.dropFirst(field.count).split(separator: " ").map(String.init) == expected, "\(name) \(field)")
            }
        }
    }
}
