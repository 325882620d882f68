import Foundation
import Testing
import Vitrine

/// The one table of remote commands (`RemoteCommandName`) and its one check
/// (`RemoteCommand.parse`), the same for the session bus and MQTT — used and abused.
@Suite("Remote commands: one table, one check")
struct RemoteCommandTableTests {
    private func parse(_ name: String, _ argument: String, _ transport: RemoteTransport) -> Result<RemoteCommand, RemoteCommandError> {
        RemoteCommand.parse(name: name, argument: Array(argument.utf8), from: transport)
    }

    private func error(_ name: String, _ argument: [UInt8], _ transport: RemoteTransport) -> String? {
        if case .failure(let error) = RemoteCommand.parse(name: name, argument: argument, from: transport) { return error.description }
        return nil
    }

    /// The names are the interface: D-Bus action names and MQTT topics stay as they are.
    @Test func eachTransportCarriesItsDocumentedCommands() {
        #expect(RemoteCommandName.carried(by: .sessionBus).map(\.rawValue) == ["reload", "home", "next", "navigate", "screenshot", "display", "quit", "support", "alert", "alert-clear"])
        #expect(RemoteCommandName.carried(by: .mqtt).map(\.rawValue) == ["reload", "home", "next", "navigate", "screenshot", "display", "config", "support", "alert", "alert-clear"])
        #expect(RemoteCommandName("config", on: .sessionBus) == nil, "a configuration is pushed over MQTT only")
        #expect(RemoteCommandName("quit", on: .mqtt) == nil, "a fleet does not end the program")
        for command in RemoteCommandName.allCases {
            #expect(!command.help.isEmpty && !command.transports.isEmpty)
            #expect((command.argument == .none) == (command.argument.valueName == nil))
        }
    }

    /// Every command parses to itself, and a command without an argument accepts exactly
    /// the empty one — the table's argument kind and the check agree.
    @Test func theTableAndTheCheckAgree() throws {
        let samples: [RemoteCommandArgument: String] = [
            .none: "", .url: "https://example.org/", .onOff: "on", .pngFile: "/tmp/shot.png", .configuration: "title = \"x\"",
            .bundleFile: "/tmp/kiosk.tar.gz",
            .alert: #"{"url":"https://example.org/","seconds":30}"#,
        ]
        for transport in RemoteTransport.allCases {
            for command in RemoteCommandName.carried(by: transport) {
                let takesNothingHere = [.screenshot, .support].contains(command) && transport == .mqtt
                let argument = takesNothingHere ? "" : try #require(samples[command.argument])
                let parsed = try parse(command.rawValue, argument, transport).get()
                #expect(parsed.name == command)
                if command.argument == .none {
                    #expect(error(command.rawValue, Array("x".utf8), transport) == "\(command.rawValue) takes no argument, got 'x'")
                } else if !takesNothingHere {
                    #expect(error(command.rawValue, [], transport) != nil, "\(command) needs its argument")
                }
            }
        }
    }

    /// One rule everywhere: trimmed, display in any case.
    @Test func theSameRuleOnEveryTransport() throws {
        for transport in RemoteTransport.allCases {
            #expect(try parse("display", " OFF\n", transport).get() == .display(on: false))
            #expect(try parse("display", "On", transport).get() == .display(on: true))
            #expect(try parse("navigate", "\thttps://example.org/a \n", transport).get() == .navigate(URL(string: "https://example.org/a")!))
            #expect(try parse("reload", " \n", transport).get() == .reload)
            #expect(error("navigate", Array("example.org".utf8), transport)?.contains("absolute URL") == true)
            #expect(error("navigate", Array("https://a.example/x y".utf8), transport)?.contains("absolute URL") == true)
            #expect(error("display", Array("dim".utf8), transport) == #"display takes "on" or "off", got 'dim'"#)
            #expect(error("display", Array("onn".utf8), transport) != nil)
        }
    }

    @Test func unknownCommandsAreNamedWithTheKnownOnes() {
        #expect(error("format-disk", [], .mqtt) == "unknown command 'format-disk'; expected one of: reload, home, next, navigate, screenshot, display, config, support, alert, alert-clear")
        #expect(error("config", Array("a = 1".utf8), .sessionBus)?.hasPrefix("unknown command 'config'; expected one of: reload,") == true)
        #expect(error("quit", [], .mqtt)?.hasPrefix("unknown command 'quit'") == true)
        #expect(error("Reload", [], .mqtt) != nil, "names are exact")
        #expect(error("", [], .sessionBus)?.hasPrefix("unknown command ''") == true)
    }

    /// A name or an argument a remote sends comes back in a reply: cut short, its control
    /// characters escaped (no forged lines in a log, no terminal escapes).
    @Test func garbageIsRefusedAndEchoedHarmlessly() throws {
        let hostileName = "x\u{1B}[2J\ninjected" + String(repeating: "y", count: 500)
        let message = try #require(error(hostileName, [], .mqtt))
        #expect(!message.contains("\n") && !message.contains("\u{1B}"))
        #expect(message.count < 200)
        let displayed = try #require(error("display", Array("on\u{7}\r\nfake line".utf8), .sessionBus))
        #expect(!displayed.contains("\r") && !displayed.contains("\n") && displayed.contains(#"\u{07}"#))
        #expect(error("navigate", Array("https://a.example/\u{0}".utf8), .mqtt) == "the navigate argument is not UTF-8 text")
        #expect(error("navigate", [0xC3, 0x28], .sessionBus) == "the navigate argument is not UTF-8 text")
        #expect(error("navigate", Array("https://a.example/\u{85}x".utf8), .sessionBus)?.contains("absolute URL") == true)
        #expect(error("screenshot", Array("/tmp/a\nb.png".utf8), .sessionBus)?.contains("absolute path ending in .png") == true)
    }

    /// Each command's limit holds on every transport, checked before the text is read.
    @Test func hugeArgumentsAreRefusedByTheirLimit() {
        for transport in RemoteTransport.allCases {
            for command in RemoteCommandName.carried(by: transport) {
                let huge = [UInt8](repeating: 0x61, count: command.argumentLimit + 1)
                #expect(error(command.rawValue, huge, transport)
                    == "the \(command.rawValue) argument is \(command.argumentLimit + 1) bytes; at most \(command.argumentLimit) are accepted")
            }
        }
        #expect(RemoteCommandName.config.argumentLimit == 256 * 1024 && RemoteCommandName.navigate.argumentLimit == 8 * 1024)
        #expect(RemoteCommandName.display.argumentLimit == 1024)
    }

    /// A remote never names a file on the kiosk: over MQTT the kiosk picks the screenshot's
    /// file; on the session bus (the local user) it must be absolute and a PNG.
    @Test func onlyTheSessionNamesTheScreenshotFile() throws {
        #expect(try parse("screenshot", "", .mqtt).get() == .screenshot(path: nil))
        #expect(error("screenshot", Array("/home/kiosk/.ssh/authorized_keys.png".utf8), .mqtt)?.contains("no argument over MQTT") == true)
        #expect(try parse("screenshot", " /tmp/a.PNG ", .sessionBus).get() == .screenshot(path: "/tmp/a.PNG"))
        #expect(error("screenshot", [], .sessionBus)?.contains("absolute path ending in .png") == true)
        #expect(error("screenshot", Array("relative.png".utf8), .sessionBus)?.contains("absolute path") == true)
        #expect(error("screenshot", Array("/etc/passwd".utf8), .sessionBus)?.contains(".png") == true)
    }
}
