import Foundation
import Testing
import Vitrine
import VitrineConfigFile
import VitrineTestSupport

/// `[remote.vnc]`: the file's keys onto the configuration, the x11vnc command line the
/// kiosk runs, and the refusals (a view open to the network without a password, a
/// readable password file, an address that is not one IP address) — display-free.
@Suite("Remote view: configuration")
struct RemoteViewConfigTests {
    private func problems(_ text: String, in folder: borrowing ConfigFolder) -> [String] {
        configurationErrors(text, named: "v.toml", in: folder)
    }

    private func passwordFile(in folder: borrowing ConfigFolder, _ name: String, mode: Int) throws -> String {
        let path = try folder.write(name, "s3cret\n")
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    @Test func everyKeyMapsOntoTheConfigurationAndTheCommandLine() throws {
        let folder = try ConfigFolder()
        let secret = try passwordFile(in: folder, "vnc.pass", mode: 0o600)
        let configuration = try ConfigFile(text: """
            [remote.vnc]
            listen = "192.168.10.21:5901"
            password-file = "vnc.pass"
            view-only = false
            """, path: folder.path + "/v.toml").configuration()
        let view = try #require(configuration.remoteView)
        #expect(view == RemoteViewSettings(host: "192.168.10.21", port: 5901, passwordFile: secret, viewOnly: false))
        let arguments = view.x11vncArguments(display: ":7")
        #expect(arguments.starts(with: ["x11vnc", "-display", ":7", "-noipv6", "-listen", "192.168.10.21", "-rfbport", "5901",
                                          "-rfbportv6", "-1"]), "libvncserver's own IPv6 socket stays closed")
        #expect(arguments.contains("-passwdfile") && arguments[arguments.firstIndex(of: "-passwdfile")! + 1] == secret)
        #expect(!arguments.contains("-nopw") && !arguments.contains("-viewonly") && arguments.contains("-forever"))
        let ipv6 = RemoteViewSettings(host: "::1", port: 5900).x11vncArguments(display: ":0")
        #expect(ipv6.starts(with: ["x11vnc", "-display", ":0", "-6", "-noipv4", "-listen6", "::1", "-rfbport", "5900", "-rfbportv6", "-1"]))
        let summary = ConfigFile.summary(of: configuration, preset: .default).first { $0.0 == "remote view" }?.1
        #expect(summary == "VNC on 192.168.10.21:5901, password, with input")
        #expect(ConfigFile.printedValue(of: "remote.vnc.listen", in: configuration) == "192.168.10.21:5901")
        #expect(ConfigFile.printedValue(of: "remote.vnc.password-file", in: configuration) == secret)
        #expect(ConfigFile.printedValue(of: "remote.vnc.view-only", in: configuration) == "false")

        // The defaults: loopback, view-only, no password.
        let plain = try #require(try ConfigFile(text: "[remote.vnc]\n", path: "/tmp/v.toml").configuration().remoteView)
        #expect(plain.listen == RemoteViewSettings.defaultListen && plain.viewOnly && plain.passwordFile == nil)
        let plainArguments = plain.x11vncArguments(display: ":0")
        #expect(plainArguments.contains("-viewonly") && plainArguments.contains("-nopw") && !plainArguments.contains("-passwdfile"))
        #expect(plainArguments[plainArguments.firstIndex(of: "-listen")! + 1] == "127.0.0.1")

        // Under Wayland: wayvnc on the same address, with input only when asked for; never
        // with a password file (wayvnc takes passwords only over TLS with keys of its own).
        #expect(plain.wayvncArguments == ["wayvnc", "--disable-input", "127.0.0.1", "5900"])
        #expect(RemoteViewSettings(host: "::1", port: 5901, viewOnly: false).wayvncArguments == ["wayvnc", "::1", "5901"])
        #expect(view.wayvncArguments == nil)

        let none = try ConfigFile(text: "", path: "/tmp/e.toml").configuration()
        #expect(none.remoteView == nil && ConfigFile.printedValue(of: "remote.vnc.listen", in: none) == "")
    }

    @Test func aViewReachableFromTheNetworkNeedsAPassword() throws {
        let folder = try ConfigFolder()
        #expect(problems("[remote.vnc]\nlisten = \"192.168.10.21:5900\"\n", in: folder) == [
            "DIR/v.toml:2:10: remote.vnc.listen '192.168.10.21:5900' is reachable from the network: set remote.vnc.password-file, or listen on 127.0.0.1 (and reach it through an SSH tunnel)",
        ])
        #expect(problems("[remote.vnc]\nlisten = \"[fe80::1]:5900\"\n", in: folder).count == 1)
        for loopback in ["127.0.0.1:5900", "127.3.4.5:5999", "[::1]:5900", "localhost:5900"] {
            #expect(problems("[remote.vnc]\nlisten = \"\(loopback)\"\n", in: folder).isEmpty, "\(loopback)")
        }
        _ = try passwordFile(in: folder, "vnc.pass", mode: 0o600)
        #expect(problems("[remote.vnc]\nlisten = \"192.168.10.21:5900\"\npassword-file = \"vnc.pass\"\n", in: folder).isEmpty)
    }

    @Test func badValuesAreReportedAtTheirPositions() throws {
        let folder = try ConfigFolder()
        _ = try passwordFile(in: folder, "open.pass", mode: 0o644)
        let found = problems("""
            [remote.vnc]
            password-file = "open.pass"
            view-only = "no"
            """, in: folder)
        #expect(found.count == 2, "\(found)")
        #expect(found.first == "DIR/v.toml:2:17: remote.vnc.password-file 'DIR/open.pass' may be read by others (mode 0644); it must be mode 0600 or stricter (chmod 600)")
        #expect(problems("[remote.vnc]\npassword-file = \"missing.pass\"\n", in: folder).count == 1)
        // Every address the server would not listen on exactly: all of them, a name, no port.
        for listen in ["0.0.0.0:5900", "[::]:5900", "vnc.corp:5900", "127.0.0.1", "127.0.0.1:0", "127.0.0.1:65536",
                       "127.0.0.1:59x0", "256.1.1.1:5900", ":5900", "127.0.0.1:5900 -shared", "[::1]5900"] {
            let refused = problems("[remote.vnc]\nlisten = \"\(listen)\"\n", in: folder)
            #expect(refused.count == 1 && refused.first?.contains("remote.vnc.listen must be ADDR:PORT") == true, "\(listen): \(refused)")
        }
    }

    /// A push may not open the kiosk's screen to another address or change who may steer it.
    @Test func aPushMayNotChangeTheRemoteView() throws {
        let folder = try ConfigFolder()
        let running = "[remote.vnc]\nlisten = \"127.0.0.1:5900\"\n"
        #expect(throws: ConfigFileError.self) {
            try ConfigFile.checkPush("[remote.vnc]\nlisten = \"127.0.0.1:5901\"\n", replacing: running, at: folder.path + "/v.toml")
        }
        #expect(throws: ConfigFileError.self) {
            try ConfigFile.checkPush(running + "view-only = false\n", replacing: running, at: folder.path + "/v.toml")
        }
        try ConfigFile.checkPush(running, replacing: running, at: folder.path + "/v.toml")
    }
}
