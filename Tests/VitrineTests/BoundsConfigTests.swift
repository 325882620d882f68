import Foundation
import Testing
import Vitrine
import VitrineConfigFile

/// `[capabilities] max-windows` and `[events] max-size`: read, checked, and what they decide.
@Suite("Bounds: max-windows and the events file's size")
struct BoundsConfigTests {
    private func configuration(_ text: String) throws -> Configuration {
        try ConfigFile(text: text, path: "app.toml").configuration(overrides: ConfigOverrides())
    }

    @Test func theOptionsAreReadBesideTheOriginsAndHaveDefaults() throws {
        let set = try configuration("""
            start-url = "app://app/"
            [capabilities]
            "app://app" = ["window"]
            max-windows = 3
            [events]
            max-size = 65536
            """)
        #expect(set.maxWindows == 3 && set.eventsLogMaxSize == 65536)
        #expect(set.capabilities.isGranted(.window, to: Origin(string: "app://app")), "the origins are still read")
        let unset = try configuration(#"start-url = "app://app/""#)
        #expect(unset.maxWindows == 8 && unset.eventsLogMaxSize == 10 << 20)
    }

    @Test(arguments: [("max-windows = 0", "capabilities.max-windows must be an integer from 1 to 256, got 0"),
                      ("max-windows = \"many\"", "capabilities.max-windows must be an integer from 1 to 256, got \"many\"")])
    func aBadMaxWindowsIsRefused(_ line: String, _ problem: String) {
        #expect {
            _ = try configuration("[capabilities]\n\(line)\n")
        } throws: { error in
            "\(error)".contains(problem)
        }
    }

    @Test func aTooSmallMaxSizeIsRefused() {
        #expect {
            _ = try configuration("[events]\nmax-size = 100\n")
        } throws: { error in
            "\(error)".contains("events.max-size must be a number of bytes of at least 4096, got 100")
        }
    }

    /// The decision itself: with `max-windows` windows open, one more is refused.
    @Test func oneWindowMoreThanMaxWindowsIsRefused() throws {
        let configuration = try ConfiguratorFactory.make(for: .default).startURL(URL(string: "app://app/")!)
            .preference(\.maxWindows, 2).build()
        let request = WindowRequest(url: URL(string: "app://app/two.html")!)
        #expect(try configuration.forWindow(request, openWindows: 1).startURL == request.url)
        #expect(throws: ScriptMessageError(
            "window: open: the app has 2 windows open, the most [capabilities] max-windows allows (2); close one first")) {
            try configuration.forWindow(request, openWindows: 2)
        }
    }
}
