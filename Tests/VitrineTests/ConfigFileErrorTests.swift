import Foundation
import Testing
import Vitrine
import VitrineConfigFile
import VitrineTestSupport

/// Malformed and invalid configuration files: each problem is reported as
/// `FILE:LINE:COLUMN: message`, at the offending key or value.
@Suite("Config file: errors carry their position")
struct ConfigFileErrorTests {
    /// The error reading `text` as `kiosk.toml` gives (parse, schema, then assembly).
    private func error(_ text: String, file: String = "kiosk.toml", overrides: ConfigOverrides = ConfigOverrides()) -> ConfigFileError? {
        do {
            _ = try ConfigFile(text: text, path: file).configuration(overrides: overrides)
            return nil
        } catch {
            return error
        }
    }

    private static let handlerTypes = "deep-link, home, native-route, payment, external-browser, origin-allowlist, default-allow"
    private static let permissionKinds = "camera, microphone, geolocation, notifications, clipboard, pointer-lock, device-info, media-key-system, screen-capture"

    @Test func aTOMLSyntaxErrorUsesTheParsersPositionAndMessage() throws {
        let error = try #require(self.error("""
            title = "Lobby"
            [window]
            width = 1280
            height = = 800
            """))
        #expect(error.line == 4 && error.column == 10)
        #expect(error.description == "kiosk.toml:4:10: Error while parsing value: could not determine value type")
    }

    @Test func aDuplicateKeyIsASyntaxError() throws {
        let error = try #require(self.error("[window]\nwidth = 1\nwidth = 2\n"))
        #expect(error.description.hasPrefix("kiosk.toml:3:"))
        #expect(error.description.contains("width"))
    }

    @Test func aWrongTypeNamesTheKeyTheExpectationAndTheValue() throws {
        let error = try #require(self.error("""
            # Lobby kiosk
            preset = "kiosk"
            start-url = "https://example.org/"
            title = "Lobby"

            [window]
                width = "wide"
                height = 800
            """))
        #expect(error.description == #"kiosk.toml:7:13: window.width must be a positive integer, got "wide""#)
        #expect(error.otherErrors.isEmpty)
    }

    @Test func aTypoInAKeyIsAnErrorWithTheExpectedKeys() throws {
        let error = try #require(self.error("""
            [window]
            width = 1280
            fulscreen = true
            """))
        #expect(error.description == "kiosk.toml:3:1: unknown key 'window.fulscreen' (did you mean 'fullscreen'?); expected in [window]: width, height, fullscreen, decorations, remember, close-to-tray, color-scheme")
    }

    @Test func anUnknownTopLevelTableIsReportedAtItsName() throws {
        let error = try #require(self.error("""
            start-url = "https://example.org/"
            [kiosks]
            lockdown = true
            """))
        #expect(error.description.hasPrefix("kiosk.toml:2:2: unknown key 'kiosks' (did you mean 'kiosk'?); expected at the top level: preset, start-url, title,"))
    }

    @Test func anUnknownHandlerTypeInTheSecondHandler() throws {
        let error = try #require(self.error("""
            start-url = "https://example.org/"

            [[navigation.handlers]]
            type = "home"

            [[navigation.handlers]]
            type = "deeplink"
            schemes = ["myapp"]

            [[navigation.handlers]]
            type = "default-allow"
            """))
        #expect(error.description == #"kiosk.toml:7:8: navigation.handlers[1].type must be one of \#(Self.handlerTypes), got "deeplink""#)
        #expect(error.otherErrors.isEmpty, "the chain as a whole is not judged when an entry is unreadable")
    }

    @Test func aBadOriginInsideAnArrayPointsAtTheElement() throws {
        let error = try #require(self.error(#"""
            start-url = "https://example.org/"
            allowed-origins = ["https://example.org", "https://cdn.example.org/assets"]
            """#))
        #expect(error.description == #"kiosk.toml:2:43: allowed-origins[1] must be an origin such as "https://example.org" (scheme://host[:port], no path), got "https://cdn.example.org/assets""#)
    }

    @Test(arguments: [
        "example.org", "https://", "https://example.org/path", "https://example.org?q", "https://user@example.org",
        "https://example.org#top", " https://example.org", "not an origin",
    ])
    func originsMustBeSchemeHostAndPort(text: String) throws {
        let error = try #require(self.error("allowed-origins = [\"\(text)\"]"))
        #expect(error.description.hasPrefix("kiosk.toml:1:20: allowed-origins[0] must be an origin"))
    }

    @Test func anUnknownPermissionKind() throws {
        let error = try #require(self.error("""
            [permissions]
            "https://example.org" = ["geolocation", "webcam"]
            """))
        #expect(error.description == #"kiosk.toml:2:41: permissions."https://example.org"[1] must be one of \#(Self.permissionKinds), got "webcam""#)
    }

    @Test func aPermissionKeyThatIsNotAnOrigin() throws {
        let error = try #require(self.error("""
            [permissions]
            geolocation = ["https://example.org"]
            """))
        #expect(error.description == #"kiosk.toml:2:1: a [permissions] key must be an origin such as "https://example.org" (scheme://host[:port], no path), got "geolocation""#)
    }

    @Test func aNegativeIdleReset() throws {
        let error = try #require(self.error("""
            preset = "kiosk"
            [kiosk]
            lockdown = true
            idle-reset = -5
            """))
        #expect(error.description == "kiosk.toml:4:14: kiosk.idle-reset must be a number of seconds, 0 or more (0: never), got -5")
    }

    @Test func rangesAndTypesAcrossTheSchema() throws {
        let cases: [(String, String)] = [
            ("preset = \"lobby\"", #"kiosk.toml:1:10: preset must be one of default, product-page, payment, app, demo, kiosk, got "lobby""#),
            ("start-url = \"example.org\"", #"kiosk.toml:1:13: start-url must be an absolute URL with a scheme, such as "https://example.org/", got "example.org""#),
            ("title = 3", "kiosk.toml:1:9: title must be a string, got 3"),
            ("developer-tools = \"yes\"", #"kiosk.toml:1:19: developer-tools must be true or false, got "yes""#),
            ("window = 3", "kiosk.toml:1:10: window must be a table, got 3"),
            ("[window]\nheight = 0", "kiosk.toml:2:10: window.height must be a positive integer, got 0"),
            ("[window]\nwidth = 12.5", "kiosk.toml:2:9: window.width must be a positive integer, got 12.5"),
            ("[navigation]\ndecision-timeout = 0", "kiosk.toml:2:20: navigation.decision-timeout must be a positive number of seconds, got 0"),
            ("[kiosk]\ncrash-loop-limit = 0", "kiosk.toml:2:20: kiosk.crash-loop-limit must be an integer of at least 1, got 0"),
            ("[kiosk]\nexternal-links = \"open\"", #"kiosk.toml:2:18: kiosk.external-links must be one of block, browser, got "open""#),
            ("[kiosk]\nhide-cursor = [true]", "kiosk.toml:2:15: kiosk.hide-cursor must be true or false, got an array"),
            ("[strategies]\nenabled = [\"page\", \"pong\"]", #"kiosk.toml:2:20: strategies.enabled[1] must be one of page, user, ping, got "pong""#),
            ("[strategies]\nenabled = \"page\"", #"kiosk.toml:2:11: strategies.enabled must be an array of strings, each one of page, user, ping, got "page""#),
            ("[strategies]\nenabled = [\"ping\", \"ping\"]", #"kiosk.toml:2:20: strategies.enabled lists "ping" twice"#),
            ("[strategies.origins]\npong = [\"https://a.example\"]", "kiosk.toml:2:1: unknown key 'strategies.origins.pong' (did you mean 'ping'?); expected for strategy identifiers: page, user, ping"),
            ("[[tabs]]\ntitle = \"Home\"", "kiosk.toml:1:1: tabs[0] needs url: the page the tab shows"),
            ("tabs = { title = \"x\" }", "kiosk.toml:1:8: tabs must be an array of tables ([[tabs]] sections), got a table"),
            ("user-agent = \"\"", #"kiosk.toml:1:14: user-agent must be a non-empty string without control characters, got """#),
            ("[[tls.trust]]\nhost = \"https://kiosk.local\"\ncertificate = \"/etc/passwd\"", #"kiosk.toml:2:8: tls.trust[0].host must be a host name such as "kiosk.local", got "https://kiosk.local""#),
            ("[[tls.trust]]\nhost = \"kiosk.local\"\ncertificate = \"/nonexistent/kiosk.pem\"", #"kiosk.toml:3:15: tls.trust[0].certificate must be an existing file, got "/nonexistent/kiosk.pem" (/nonexistent/kiosk.pem)"#),
            ("app-dir = \"/nonexistent/www\"", #"kiosk.toml:1:11: app-dir must be an existing folder, got "/nonexistent/www" (/nonexistent/www)"#),
            ("[tls]\ntrusts = []", "kiosk.toml:2:1: unknown key 'tls.trusts' (did you mean 'trust'?); expected in [tls]: trust"),
        ]
        for (text, expected) in cases {
            #expect(error(text)?.description == expected, "for \(text)")
        }
    }

    @Test func handlerProblems() throws {
        let cases: [(String, String)] = [
            ("[[navigation.handlers]]\nschemes = [\"x\"]", "kiosk.toml:1:1: navigation.handlers[0] needs type: one of \(Self.handlerTypes)"),
            ("[[navigation.handlers]]\ntype = \"deep-link\"", #"kiosk.toml:1:1: navigation.handlers[0] needs schemes: the app's URL schemes, such as ["myapp"]"#),
            ("[[navigation.handlers]]\ntype = \"deep-link\"\nschemes = [\"x\"]\nscheme = \"y\"\n[[navigation.handlers]]\ntype = \"default-allow\"",
             "kiosk.toml:4:1: unknown key 'navigation.handlers[0].scheme' (did you mean 'schemes'?); expected for a deep-link handler: type, schemes"),
            ("[[navigation.handlers]]\ntype = \"deep-link\"\nschemes = [\"my app\"]", #"kiosk.toml:3:12: navigation.handlers[0].schemes[0] must be a URL scheme such as "myapp", got "my app""#),
            ("[[navigation.handlers]]\ntype = \"native-route\"\nroutes = { \"product/:id\" = \"product\" }",
             #"kiosk.toml:3:12: navigation.handlers[0].routes has the pattern "product/:id"; a pattern is a path starting with "/", such as "/product/:id""#),
            ("[[navigation.handlers]]\ntype = \"payment\"\npath-prefixes = [\"pay\"]", #"kiosk.toml:3:18: navigation.handlers[0].path-prefixes[0] must be a path starting with "/", such as "/pay", got "pay""#),
            ("[[navigation.handlers]]\ntype = \"origin-allowlist\"", #"kiosk.toml:1:1: navigation.handlers never lets a page load: end the chain with a handler of type = "default-allow""#),
            ("navigation.handlers = []", #"kiosk.toml:1:23: navigation.handlers never lets a page load: end the chain with a handler of type = "default-allow""#),
            ("[[navigation.handlers]]\ntype = \"default-allow\"\n[[navigation.handlers]]\ntype = \"payment\"",
             "kiosk.toml:3:1: navigation.handlers[1] comes after default-allow, which decides every navigation, so it would never run; move default-allow to the end"),
            ("[[navigation.handlers]]\ntype = \"default-allow\"\ndownloads = true",
             "kiosk.toml:3:13: navigation.handlers[0].downloads = true needs download-directory: without one, downloads are refused"),
            ("[[navigation.handlers]]\ntype = \"home\"\n[[navigation.handlers]]\ntype = \"default-allow\"",
             "kiosk.toml:1:1: navigation.handlers[0] is a home handler without url, and there is no start-url (or app-dir) for it to default to"),
        ]
        for (text, expected) in cases {
            #expect(error(text)?.description == expected, "for \(text)")
        }
    }

    @Test func everyProblemIsReportedInDocumentOrder() throws {
        let error = try #require(self.error("""
            [window]
            width = "wide"
            fulscreen = true
            [kiosk]
            idle-reset = -5
            """))
        #expect(error.allErrors.map(\.description) == [
            #"kiosk.toml:2:9: window.width must be a positive integer, got "wide""#,
            "kiosk.toml:3:1: unknown key 'window.fulscreen' (did you mean 'fullscreen'?); expected in [window]: width, height, fullscreen, decorations, remember, close-to-tray, color-scheme",
            "kiosk.toml:5:14: kiosk.idle-reset must be a number of seconds, 0 or more (0: never), got -5",
        ])
    }

    @Test func aBuildErrorIsReportedAgainstTheFileWithoutPosition() throws {
        let error = try #require(self.error(#"start-url = "https://example.org/""#, overrides: ConfigOverrides(width: 0)))
        #expect(error.description == "kiosk.toml: window size must be positive, got 0x768")
        #expect(error.line == nil && error.column == nil)
    }

    @Test func unreadableFiles() throws {
        #expect(throws: ConfigFileError(file: "/nonexistent/vitrine.toml", line: nil, column: nil, message: "cannot be read: No such file or directory")) {
            try ConfigFile(path: "/nonexistent/vitrine.toml")
        }
        let folder = try ConfigFolder()
        #expect(throws: ConfigFileError(file: folder.path, line: nil, column: nil, message: "is a folder, not a configuration file")) {
            try ConfigFile(path: folder.path)
        }
        let binary = folder.url.appendingPathComponent("binary.toml")
        try Data([0x74, 0x3D, 0xFF, 0xFE]).write(to: binary)
        #expect(throws: ConfigFileError(file: binary.path, line: nil, column: nil, message: "is not UTF-8 text")) {
            try ConfigFile(path: binary.path)
        }
        #expect(error("a = 1\0") == ConfigFileError(file: "kiosk.toml", line: nil, column: nil, message: "is not a text file (it contains NUL bytes)"))
    }

    @Test func theFileIsNamedAsGiven() throws {
        let error = try #require(self.error("title = 1", file: "configs/../lobby.toml"))
        #expect(error.description == "configs/../lobby.toml:1:9: title must be a string, got 1")
    }
}
