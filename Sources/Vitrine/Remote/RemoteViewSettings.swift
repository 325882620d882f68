#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A live remote view of the kiosk's screen (`[remote.vnc]`): a VNC server started with the
/// kiosk and stopped with it, listening only where this names: `x11vnc` under X11, `wayvnc`
/// under Wayland (the cage session).
public struct RemoteViewSettings: Sendable, Equatable {
    /// The address the server listens on: an IP address (or `localhost`), never all of them.
    public var host: String
    public var port: Int
    /// A file (mode 0600) whose first line is the VNC password; nil: no password, which is
    /// accepted only on a loopback address.
    public var passwordFile: String?
    /// Viewers see the screen but send no keys or pointer events.
    public var viewOnly = true

    public static let defaultListen = "127.0.0.1:5900"

    public init(host: String = "127.0.0.1", port: Int = 5900, passwordFile: String? = nil, viewOnly: Bool = true) {
        self.host = host
        self.port = port
        self.passwordFile = passwordFile
        self.viewOnly = viewOnly
    }

    /// `ADDR:PORT` (`[::1]:5900` for IPv6), or nil. A wildcard address (`0.0.0.0`, `::`) or
    /// a host name other than `localhost` is refused: the server listens on exactly one
    /// address the operator chose.
    public static func parseListen(_ text: String) -> (host: String, port: Int)? {
        let host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = Int(portText), (1...65535).contains(port), portText.allSatisfy(\.isASCII) else { return nil }
        let address = String(host)
        guard address == "localhost" || isIPv4(address) || isIPv6(address) else { return nil }
        guard !["0.0.0.0", "::", "0:0:0:0:0:0:0:0"].contains(address) else { return nil }
        return (address, port)
    }

    /// Whether only this machine can reach the address (127.0.0.0/8, `::1`, `localhost`).
    public var listensOnLoopback: Bool {
        host == "localhost" || host == "::1" || (Self.isIPv4(host) && host.hasPrefix("127."))
    }

    /// Why the settings are refused, or nil: anyone on the network could watch a kiosk
    /// served without a password on a non-loopback address.
    public var refusal: String? {
        guard passwordFile == nil, !listensOnLoopback else { return nil }
        return "remote.vnc.listen '\(listen)' is reachable from the network: set remote.vnc.password-file, or listen on 127.0.0.1 (and reach it through an SSH tunnel)"
    }

    /// `ADDR:PORT` as the configuration writes it.
    public var listen: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The `x11vnc` command line that serves X display `display` as configured.
    public func x11vncArguments(display: String) -> [String] {
        // One listening socket: on the named address only, and not on the other IP version.
        // libvncserver opens an IPv6 socket of its own on [::]:5900 whatever -noipv6,
        // -listen or -rfbport say; only -rfbportv6 -1 keeps it closed (x11vnc 0.9.16).
        let listen = host.contains(":") ? ["-6", "-noipv4", "-listen6", host] : ["-noipv6", "-listen", bindAddress]
        return ["x11vnc", "-display", display] + listen + ["-rfbport", String(port), "-rfbportv6", "-1",
            // Served until the kiosk stops it, to several viewers; no remote commands, no naps.
            "-forever", "-shared", "-nocmds", "-nonap", "-noxdamage", "-quiet"]
            + (viewOnly ? ["-viewonly"] : [])
            // An absolute path (the decoder resolves it), so never one of x11vnc's `rm:`/`cmd:` forms.
            + (passwordFile.map { ["-passwdfile", $0] } ?? ["-nopw"])
    }

    /// The `wayvnc` command line that serves the Wayland session (cage) as configured, or nil
    /// with a password file: wayvnc 0.5 authenticates only over TLS with keys of its own.
    public var wayvncArguments: [String]? {
        guard passwordFile == nil else { return nil }
        return ["wayvnc"] + (viewOnly ? ["--disable-input"] : []) + [bindAddress, String(port)]
    }

    /// The address the server is told to bind: `localhost` is 127.0.0.1 (the name may also
    /// resolve to ::1, which would be a second socket).
    public var bindAddress: String { host == "localhost" ? "127.0.0.1" : host }

    /// The check that `program`, once started, listens on this address and port only.
    public func listenerCheck(program: String) -> ListenerCheck? {
        ListenerCheck(program: program, host: bindAddress, port: port)
    }

    private static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && Int(part).map { $0 <= 255 } == true
        }
    }

    private static func isIPv6(_ text: String) -> Bool {
        text.contains(":") && text.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } && text.split(separator: ":").count <= 8
    }
}
