import Foundation
import Testing
import Vitrine
import VitrineConfigFile
import VitrineTestSupport

/// Precedence: the command line (`ConfigOverrides`) over the file over the preset.
@Suite("Config file: command-line overrides")
struct ConfigFileOverridesTests {
    private let file = """
        preset = "default"
        start-url = "https://file.example/"
        allowed-origins = ["https://cdn.file.example"]
        user-agent = "FileAgent/1"
        developer-tools = false
        [window]
        width = 1280
        height = 800
        fullscreen = false
        [[navigation.handlers]]
        type = "home"
        [[navigation.handlers]]
        type = "origin-allowlist"
        [[navigation.handlers]]
        type = "default-allow"
        """

    @Test func theFileAloneGivesTheFilesValues() throws {
        let configuration = try ConfigFile(text: file, path: "/tmp/o.toml").configuration()
        #expect(configuration.startURL == URL(string: "https://file.example/"))
        #expect(configuration.windowSize == WindowSize(width: 1280, height: 800))
        #expect(configuration.userAgent == "FileAgent/1")
        #expect(!configuration.developerTools)
        #expect(!configuration.fullscreen)
    }

    @Test func flagsWinOverTheFile() throws {
        let overrides = ConfigOverrides(
            preset: .kiosk, startURL: URL(string: "https://flag.example/start")!, width: 640, fullscreen: true,
            allowedOrigins: [Origin(serialized: "https://b.example")!], userAgent: "FlagAgent/2", developerTools: true)
        let configuration = try ConfigFile(text: file, path: "/tmp/o.toml").configuration(overrides: overrides)
        #expect(configuration.startURL == URL(string: "https://flag.example/start"))
        #expect(configuration.windowSize == WindowSize(width: 640, height: 800), "only the width was given")
        #expect(configuration.fullscreen)
        #expect(configuration.userAgent == "FlagAgent/2")
        #expect(configuration.developerTools)
        #expect(configuration.allowedOrigins == [Origin(serialized: "https://cdn.file.example")!, Origin(serialized: "https://b.example")!],
                "--allow-origin adds to the file's list")
        // The preset changed under the file: its kiosk options and title come with it,
        // while the file's chain still replaces the preset's.
        #expect(configuration.kiosk == KioskOptions())
        #expect(configuration.title == "Vitrine kiosk")
        #expect(configuration.navigationChain.names == ["home", "origin-allowlist", "default-allow"])
        // A home handler without url follows the start page actually used.
        #expect((configuration.navigationChain.handlers[0] as? HomePageHandler)?.homeURL == URL(string: "https://flag.example/start"))
    }

    @Test func anAppDirectoryFlagKeepsAnExplicitStartURL() throws {
        let folder = try ConfigFolder()
        let www = try folder.makeFolder("www")
        let overrides = ConfigOverrides(appDirectory: URL(fileURLWithPath: www))
        let withStart = try ConfigFile(text: file, path: "/tmp/o.toml").configuration(overrides: overrides)
        #expect(withStart.appDirectory?.path.path == www)
        #expect(withStart.startURL == URL(string: "https://file.example/"))

        let withoutStart = try ConfigFile(text: "title = \"x\"", path: "/tmp/o.toml").configuration(overrides: overrides)
        #expect(withoutStart.startURL == URL(string: "app://app/index.html"))
    }

    @Test func withoutAFileTheDemoOpensWhenNothingSaysWhatToOpen() throws {
        let demo = try ConfigOverrides().configurator().build()
        #expect(demo.startURL == URL(string: "app://demo/index.html"))
        #expect(demo.navigationChain.names.first == "deep-link")

        let page = try ConfigOverrides(startURL: URL(string: "https://example.org/")!).configurator().build()
        #expect(page.startURL == URL(string: "https://example.org/"))
        #expect(page.navigationChain.names == ["default-allow"])
    }

    @Test func withoutAFileAnAppDirectoryOpensItsIndexPage() throws {
        let folder = try ConfigFolder()
        let www = try folder.makeFolder("www")
        let configuration = try ConfigOverrides(appDirectory: URL(fileURLWithPath: www)).configurator().build()
        #expect(configuration.startURL == URL(string: "app://app/index.html"))
        #expect(configuration.appDirectory == AppDirectory(path: URL(fileURLWithPath: www), host: "app"))
        #expect(configuration.navigationChain.names == ["default-allow"], "the default preset, not the demo app's")
    }

    /// `vitrine --preset kiosk --allow-origin https://a.example --allow-origin https://b.example https://a.example/`
    @Test func aKioskFromFlagsAlone() throws {
        let configuration = try ConfigOverrides(
            preset: .kiosk, startURL: URL(string: "https://a.example/")!,
            allowedOrigins: [Origin(serialized: "https://a.example")!, Origin(serialized: "https://b.example")!]
        ).configurator().build()
        #expect(configuration.kiosk != nil)
        #expect(configuration.fullscreen)
        #expect(configuration.appOrigins == [Origin(serialized: "https://a.example")!, Origin(serialized: "https://b.example")!])
        #expect(configuration.navigationChain.names == ["origin-allowlist", "default-allow"])
    }

    @Test func serializedOriginsAreStrict() {
        #expect(Origin(serialized: "https://example.org")?.description == "https://example.org")
        #expect(Origin(serialized: "https://example.org/")?.description == "https://example.org")
        #expect(Origin(serialized: "HTTPS://Example.ORG:443")?.description == "https://example.org")
        #expect(Origin(serialized: "http://localhost:8080")?.description == "http://localhost:8080")
        #expect(Origin(serialized: "app://app")?.description == "app://app")
        for bad in ["example.org", "https://", "https://example.org/a", "https://example.org?x", "https://example.org#x",
                    "https://u@example.org", "https://example.org:", "mailto:someone@example.org", "", "https://exa mple.org"] {
            #expect(Origin(serialized: bad) == nil, "\(bad)")
        }
    }
}
