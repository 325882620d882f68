import Foundation
import Testing
import Vitrine
import VitrineTooling
import VitrineTestSupport

/// `vitrine bundle` ships the sidecars' programs that live in the app folder, executable, at
/// the path vitrine.toml names them by; it refuses what it cannot ship.
@Suite("AppPackage: sidecars")
struct AppPackageSidecarTests {
    private func inputs(_ folder: borrowing ConfigFolder, _ sidecars: [SidecarDeclaration]) -> AppPackage.Inputs {
        AppPackage.Inputs(executable: URL(fileURLWithPath: folder.path + "/.build/release/Notes"),
                          configFile: URL(fileURLWithPath: folder.path + "/vitrine.toml"),
                          appDirectory: URL(fileURLWithPath: folder.path + "/web"), resources: URL(fileURLWithPath: "/src/vitrine/Resources"),
                          icon: URL(fileURLWithPath: folder.path + "/icon.svg"), sidecars: sidecars)
    }

    private func sidecar(_ name: String, _ command: String, in folder: borrowing ConfigFolder) throws -> SidecarDeclaration {
        try SidecarDeclaration.declared(name: name, command: command, appFolder: folder.path)
    }

    private func executable(_ folder: borrowing ConfigFolder, _ name: String) throws {
        let path = try folder.write(name, "#!/bin/sh\n")
        chmod(path, 0o755)
    }

    @Test func theSidecarsProgramsAreShippedExecutableBesideTheConfiguration() throws {
        let folder = try ConfigFolder()
        try executable(folder, "bin/api")
        try executable(folder, "tools/runner")
        let bundle = AppPackage(metadata: try AppPackageTests.metadata())
        let sidecars = [try sidecar("api", "bin/api", in: folder), try sidecar("api-2", "bin/api", in: folder),
                        try sidecar("runner", "tools/runner", in: folder), try sidecar("shell", "/bin/sh", in: folder)]
        let entries = try bundle.appFolder(inputs(folder, sidecars))
        #expect(entries.filter { $0.path == "bin/api" }.count == 1, "one program, shipped once")
        #expect(entries.first { $0.path == "bin/api" }?.source == .file(URL(fileURLWithPath: folder.path + "/bin/api"), executable: true))
        #expect(entries.first { $0.path == "tools/runner" }?.source == .file(URL(fileURLWithPath: folder.path + "/tools/runner"), executable: true))
        #expect(!entries.contains { $0.source == .file(URL(fileURLWithPath: "/bin/sh"), executable: true) }, "a system program is not shipped")
        let deb = try bundle.debEntries(inputs(folder, sidecars), date: AppPackageTests.date).map(\.path)
        #expect(deb.contains("usr/lib/notes/bin/api") && deb.contains("usr/lib/notes/tools/runner"))
    }

    @Test func whatCannotBeShippedIsRefusedAndSaysWhy() throws {
        let folder = try ConfigFolder()
        try executable(folder, "web/server")
        try executable(folder, "vitrine-resources/x")
        let elsewhere = try ConfigFolder()
        try executable(elsewhere, "server")
        let bundle = AppPackage(metadata: try AppPackageTests.metadata())
        for (sidecar, reason) in [(try sidecar("a", "web/server", in: folder), "is inside web"),
                                  (try sidecar("b", "vitrine-resources/x", in: folder), "is inside vitrine-resources"),
                                  (try sidecar("c", elsewhere.path + "/server", in: folder), "not a system program")] {
            #expect(throws: AppPackageError.self, "\(sidecar.name)") { try bundle.appFolder(inputs(folder, [sidecar])) }
            do {
                _ = try bundle.appFolder(inputs(folder, [sidecar]))
            } catch {
                #expect(error.description.contains(reason), "\(error)")
            }
        }
    }
}
