import Foundation
import Testing
import Vitrine
@testable import VitrineConfigFile
import VitrineTestSupport

/// A file's problems all come out of one check, each at its place: the ones reading finds
/// (types, missing files, open password files), the ones one key makes of another (a home
/// handler with no page), and the ones of a value's meaning the build refuses.
@Suite("Config file: every problem in one run, each at its key")
struct ConfigFileAllProblemsTests {
    /// Every problem `ConfigFile.checked` finds in `text`, the folder's path written `DIR`.
    private func problems(_ text: String, named name: String = "k.toml", in folder: borrowing ConfigFolder) -> [String] {
        do {
            _ = try ConfigFile.checked(text: text, path: folder.path + "/" + name)
            return []
        } catch {
            return error.allErrors.map { $0.description.replacingOccurrences(of: folder.path, with: "DIR") }
        }
    }

    @Test func fileLevelCrossKeyAndSemanticProblemsComeOutTogether() throws {
        let folder = try ConfigFolder()
        let password = try folder.write("open.pass", "s3cret\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: password)
        #expect(problems("""
            preset = "kiosk"
            [app]
            url-schemes = ["shop"]
            [window]
            width = "wide"
            [printing]
            output-uri = "file://\(folder.path)/out.txt"
            [network]
            ca-certificates = ["missing.pem"]
            [[network.credentials]]
            origin = "https://intranet.corp"
            username = "kiosk"
            password-file = "open.pass"
            [[navigation.handlers]]
            type = "home"
            [[navigation.handlers]]
            type = "default-allow"
            """, in: folder) == [
            "DIR/k.toml:3:15: url-schemes: a kiosk takes no deep links (the desktop cannot start or steer it)",
            #"DIR/k.toml:5:9: window.width must be a positive integer, got "wide""#,
            "DIR/k.toml:7:14: printing output-uri 'file://DIR/out.txt' must name a .pdf file (jobs are written as PDF)",
            #"DIR/k.toml:9:20: network.ca-certificates[0] must be an existing file, got "missing.pem" (DIR/missing.pem)"#,
            "DIR/k.toml:13:17: network.credentials[0].password-file 'DIR/open.pass' may be read by others (mode 0644); it must be mode 0600 or stricter (chmod 600)",
            "DIR/k.toml:14:1: navigation.handlers[0] is a home handler without url, and there is no start-url (or app-dir) for it to default to",
        ])
    }

    /// A value the file wrote but reading refused is that value's problem alone: the home
    /// handler is not also told there is no start-url.
    @Test func aRefusedStartURLIsNotAlsoAMissingOne() throws {
        let folder = try ConfigFolder()
        #expect(problems("""
            preset = "kiosk"
            start-url = "example.org"
            [[navigation.handlers]]
            type = "home"
            [[navigation.handlers]]
            type = "default-allow"
            """, in: folder).map { String($0.prefix(24)) } == ["DIR/k.toml:2:13: start-u"])
    }

    @Test func theBuildsProblemsArePlacedAtTheirKeys() throws {
        let folder = try ConfigFolder()
        #expect(problems("""
            title = "Shop"

            [printing]
            copies = 2
            output-uri = "file:///tmp/receipt.txt"
            """, in: folder) == ["DIR/k.toml:5:14: printing output-uri 'file:///tmp/receipt.txt' must name a .pdf file (jobs are written as PDF)"])
        #expect(problems("""
            preset = "kiosk"
            start-url = "https://example.org/"
            [app]
              url-schemes = ["shop", "shop-admin"]
            """, in: folder) == ["DIR/k.toml:4:17: url-schemes: a kiosk takes no deep links (the desktop cannot start or steer it)"])
    }

    /// The file is pointed at for a value it writes, even when what the value meets is the
    /// command line's; not for a value the command line replaced.
    @Test func onlyAValueTheFileGivesIsPlacedInIt() throws {
        let folder = try ConfigFolder()
        let www = try folder.makeFolder("www")
        func problems(_ text: String, _ overrides: ConfigOverrides) -> [String] {
            do {
                _ = try ConfigFile.checked(text: text, path: folder.path + "/k.toml", overrides: overrides)
                return []
            } catch {
                return error.allErrors.map { $0.description.replacingOccurrences(of: folder.path, with: "DIR") }
            }
        }
        #expect(problems("[app]\nurl-schemes = [\"shop\"]\n", ConfigOverrides(preset: .kiosk)) == [
            "DIR/k.toml:2:15: url-schemes: a kiosk takes no deep links (the desktop cannot start or steer it)",
        ])
        #expect(problems("app-dir = \"\(www)\"\n", ConfigOverrides(appDirectory: URL(fileURLWithPath: folder.path + "/gone"))) == [
            "DIR/k.toml: app directory 'DIR/gone' is not a folder",
        ])
        #expect(Configurator().printDestination(.file(URL(string: "file:///tmp/x.txt")!)).problems.map(\.key) == ["printing.output-uri"])
    }
}
