import Foundation
import Testing
import Vitrine
import VitrineConfigFile

/// `[update]`'s keys as a file gives them, the settings' decisions (the installer's argument
/// vector, the installed format, the running version) and the incomplete sections refused.
@Suite("Updates: [update] keys and settings")
struct UpdateSettingsTests {
    static let key = "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="
    static let start = "start-url = \"https://example.org/\"\n"

    static func configuration(_ text: String) throws -> Configuration {
        try ConfigFile(text: start + text, path: "/tmp/vitrine-update-test.toml").configuration()
    }

    static func refusal(_ text: String) -> String {
        do { _ = try configuration(text); return "accepted" } catch { return "\(error)" }
    }

    @Test func theKeysAreRead() throws {
        let plain = try Self.configuration("")
        #expect(plain.update == UpdateSettings() && plain.update.feed == nil && plain.update.checkEvery == .seconds(21600))
        let configured = try Self.configuration("""
            [update]
            feed = "https://updates.example.org/shop/update.json"
            public-key = "\(Self.key)"
            check-every = 60
            channel = "beta"
            install-command = ["sudo", "-n", "apt-get", "install", "-y"]
            """)
        #expect(configured.update.feed?.absoluteString == "https://updates.example.org/shop/update.json")
        #expect(configured.update.publicKey?.description == Self.key)
        #expect(configured.update.checkEvery == .seconds(60) && configured.update.channel == "beta")
        #expect(configured.update.installArguments(for: .rpm, file: "/tmp/a.rpm") == ["sudo", "-n", "apt-get", "install", "-y", "/tmp/a.rpm"])
        #expect(try Self.configuration("[update]\nfeed = \"http://127.0.0.1:8080/update.json\"\npublic-key = \"\(Self.key)\"\n").update.feed != nil)
    }

    @Test func badValuesAndHalfSectionsAreRefused() {
        #expect(Self.refusal("[update]\nfeed = \"http://updates.example.org/update.json\"\npublic-key = \"\(Self.key)\"\n")
            .contains("update.feed must be an https URL"))
        #expect(Self.refusal("[update]\nfeed = \"https://u.example/update.json\"\npublic-key = \"AAAA\"\n")
            .contains("update.public-key must be the one-line public key"))
        #expect(Self.refusal("[update]\nfeed = \"https://u.example/update.json\"\n").contains("update.feed needs update.public-key"))
        #expect(Self.refusal("[update]\npublic-key = \"\(Self.key)\"\n").contains("update.public-key needs update.feed"))
        #expect(Self.refusal("[update]\nchannel = \"be ta\"\n").contains("update.channel"))
    }

    @Test func theInstallerAndFormatAreDecided() {
        let settings = UpdateSettings()
        #expect(settings.installArguments(for: .deb, file: "/d/shop.deb") == ["pkexec", "apt-get", "install", "-y", "/d/shop.deb"])
        #expect(settings.installArguments(for: .rpm, file: "/d/shop.rpm") == ["pkexec", "dnf", "install", "-y", "/d/shop.rpm"])
        // A file name that looks like an option or shell stays one argument.
        #expect(settings.installArguments(for: .deb, file: "/d/x; rm -rf ~")?.last == "/d/x; rm -rf ~")
        #expect(settings.installArguments(for: .tarball, file: "/d/shop.tar.gz") == nil)
        #expect(settings.installedFormat(programFolder: "/usr/lib/shop", debianSystem: true) == .deb)
        #expect(settings.installedFormat(programFolder: "/usr/lib/shop", debianSystem: false) == .rpm)
        #expect(settings.installedFormat(programFolder: "/home/ada/apps/shop-1.0.0", debianSystem: true) == .tarball)
    }

    @Test func theRunningVersionIsTheFileBesideTheProgram() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-version-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var settings = UpdateSettings()
        #expect(settings.running(programFolder: folder.path) == nil)
        try "1.2.0\n".write(to: folder.appendingPathComponent(UpdateSettings.versionFileName), atomically: true, encoding: .utf8)
        #expect(settings.running(programFolder: folder.path) == UpdateVersion("1.2.0"))
        settings.runningVersion = "2.0.0"
        #expect(settings.running(programFolder: folder.path) == UpdateVersion("2.0.0"))
    }
}
