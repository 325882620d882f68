import Foundation
import Testing
import Vitrine
import VitrineConfigFile

/// Every sample in Resources/configs reads and builds: the samples are documentation
/// that must not rot.
@Suite("Config file: the samples in Resources/configs")
struct ConfigFileSampleTests {
    /// <package>/Resources/configs, from this file's place in <package>/Tests/VitrineTests.
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Resources/configs")

    static var samples: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".toml") }.sorted()
    }

    @Test func theExpectedSamplesExist() {
        #expect(Set(Self.samples).isSuperset(of: ["kiosk.toml", "hybrid-app.toml", "minimal.toml"]))
    }

    @Test(arguments: samples)
    func eachSampleReadsAndBuilds(name: String) throws {
        let path = Self.folder.appendingPathComponent(name).path
        do {
            let configuration = try ConfigFile(path: path).configuration()
            #expect(configuration.startURL != nil, "a sample must say what it opens")
        } catch {
            Issue.record("\(error.allErrors.map(\.description).joined(separator: "\n"))")
        }
    }

    @Test func theKioskSampleIsAKiosk() throws {
        let file = try ConfigFile(path: Self.folder.appendingPathComponent("kiosk.toml").path)
        #expect(file.preset == .kiosk)
        let configuration = try file.configuration()
        #expect(configuration.fullscreen)
        #expect(configuration.kiosk?.idleReset == .seconds(120))
        #expect(configuration.navigationChain.names == ["origin-allowlist", "default-allow"])
        #expect(!configuration.developerTools)
    }

    @Test func theSignageSampleRunsADay() throws {
        let configuration = try ConfigFile(path: Self.folder.appendingPathComponent("signage.toml").path).configuration()
        let schedule = configuration.schedule
        #expect(schedule.playlist.map(\.url.absoluteString) == ["https://signage.example/menu", "app://app/index.html"])
        #expect(schedule.reloads == [.every(.seconds(3600)), .at([TimeOfDay("03:00")!])])
        #expect(schedule.screenOnHours.count == 2)
        #expect(schedule.wakeDuration == .seconds(60))
        #expect(configuration.kiosk?.rotation == 0)
    }

    @Test func theZonesSampleIsMainSideAndTicker() throws {
        let configuration = try ConfigFile(path: Self.folder.appendingPathComponent("signage-zones.toml").path).configuration()
        #expect(configuration.zones.map(\.name) == ["main", "side", "ticker"])
        #expect(configuration.zones[0].playlist.count == 2 && configuration.zones[1].url != nil)
        #expect(ZoneLayout.rectangles(of: configuration.zones, width: 1920, height: 1080) == [
            ZoneRectangle(x: 0, y: 0, width: 1440, height: 972),
            ZoneRectangle(x: 1440, y: 0, width: 480, height: 972),
            ZoneRectangle(x: 0, y: 972, width: 1920, height: 108),
        ])
    }

    @Test func theHybridAppSampleServesTheDemoWithNativeRoutesAndTabs() throws {
        let configuration = try ConfigFile(path: Self.folder.appendingPathComponent("hybrid-app.toml").path).configuration()
        #expect(configuration.appDirectory?.path.standardizedFileURL.path
                == Self.folder.deletingLastPathComponent().appendingPathComponent("demo").standardizedFileURL.path)
        #expect(configuration.startURL == URL(string: "app://app/index.html"))
        #expect(configuration.navigationChain.names == [
            "deep-link", "home", "native-route", "payment", "external-browser", "origin-allowlist", "default-allow",
        ])
        #expect(configuration.tabs.count == 2)
        #expect(configuration.allowedOrigins(forStrategy: "page") == [Origin(serialized: "app://app")!])
    }
}
