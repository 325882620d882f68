import Foundation
import Testing
import VitrineConfigFile

/// An app's program finds its vitrine.toml from any working folder: beside the
/// executable, else in its package folder, else in `$XDG_CONFIG_HOME/<app-id>/`.
@Suite("Where an app's configuration file is found")
struct ConfigFileLocationTests {
    let root: URL
    var executable: URL { root.appendingPathComponent("bin/Hello") }
    var package: URL { root.appendingPathComponent("package") }
    var environment: [String: String] { ["XDG_CONFIG_HOME": root.appendingPathComponent("config").path, "HOME": "/nonexistent"] }

    init() throws {
        root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("config-location-\(UUID().uuidString)")
        for folder in ["bin", "package", "config/org.example.Hello"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try Data().write(to: executable)
    }

    private func find() -> String? {
        ConfigFileLocation.find(executable: executable, packageFolder: package, appID: "org.example.Hello", environment: environment)?.path
    }

    private func write(_ folder: String) throws {
        try Data("title = \"x\"\n".utf8).write(to: root.appendingPathComponent(folder).appendingPathComponent("vitrine.toml"))
    }

    @Test func eachPlaceInTurn() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(find() == nil)
        try write("config/org.example.Hello")
        #expect(find() == root.appendingPathComponent("config/org.example.Hello/vitrine.toml").path)
        try write("package")
        #expect(find() == package.appendingPathComponent("vitrine.toml").path)
        try write("bin")
        #expect(find() == root.appendingPathComponent("bin/vitrine.toml").path)
    }

    /// A folder named vitrine.toml is not a file; a symlinked executable is found where it really is.
    @Test func aFolderDoesNotCountAndSymlinksAreFollowed() throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("bin/vitrine.toml"), withIntermediateDirectories: true)
        try write("package")
        #expect(find() == package.appendingPathComponent("vitrine.toml").path)

        let link = root.appendingPathComponent("link")
        try FileManager.default.createDirectory(at: link, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link.appendingPathComponent("Hello"), withDestinationURL: executable)
        let candidates = ConfigFileLocation.candidates(executable: link.appendingPathComponent("Hello"), packageFolder: nil,
                                                       appID: "a.b", environment: [:])
        #expect(candidates.map(\.path) == [root.appendingPathComponent("bin/vitrine.toml").resolvingSymlinksInPath().path])
    }

    /// `XDG_CONFIG_HOME` relative or unset: `$HOME/.config`, as the XDG spec says.
    @Test func configHomeFallsBackToHome() {
        let unset = ConfigFileLocation.candidates(executable: URL(fileURLWithPath: "/opt/a/b"), packageFolder: nil, appID: "a.b",
                                                  environment: ["HOME": "/home/u", "XDG_CONFIG_HOME": "relative"])
        #expect(unset.map(\.path) == ["/opt/a/vitrine.toml", "/home/u/.config/a.b/vitrine.toml"])
    }
}
