#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

extension ConfigOptions {
    /// `[remote.vnc]`: a live view of the kiosk's screen for support, over VNC.
    static let remoteView: [ConfigOption] = [
        ConfigOption.section("remote.vnc", "a live remote view over VNC, served by x11vnc under X11 or wayvnc under Wayland (cage)") {
            $0.remoteView()
        }.summarized(as: "remote view") { configuration, _ in
            configuration.remoteView.map { view in
                "VNC on \(view.listen)" + (view.passwordFile == nil ? ", no password" : ", password") + (view.viewOnly ? ", view-only" : ", with input")
            }
        }.printable { Printed.bool($0.remoteView != nil) },
        // Local only: a push may not open the kiosk's screen to another address.
        ConfigOption.string("remote.vnc.listen", .string(
            expected: #"ADDR:PORT with one IP address, such as "127.0.0.1:5900" or "[::1]:5900""#,
            refusal: "be ADDR:PORT with one IP address (not 0.0.0.0 or a host name) and a port from 1 to 65535",
            where: { RemoteViewSettings.parseListen($0) != nil }),
            #"the one address and port the VNC server listens on (default "127.0.0.1:5900")"#
        ) { configurator, text in
            guard let (host, port) = RemoteViewSettings.parseListen(text) else { return configurator }
            return configurator.remoteView { $0.host = host; $0.port = port }
        }.example(#""127.0.0.1:5901""#).localOnly().printable { $0.remoteView?.listen ?? "" },
        ConfigOption.structured("remote.vnc.password-file",
                                "a file (mode 0600) whose first line is the VNC password (only its first 8 characters count); required unless listen is a loopback address")
            .secret().localOnly()
            .written(type: "an existing file of mode 0600 (relative to the configuration file)", example: """
                [remote.vnc]
                password-file = "/etc/vitrine/vnc.password"
                """)
            .printable { $0.remoteView?.passwordFile ?? "" },
        ConfigOption.bool("remote.vnc.view-only", "viewers only watch: no keys or pointer reach the kiosk (default true)") {
            configurator, viewOnly in configurator.remoteView { $0.viewOnly = viewOnly }
        }.localOnly().printable { $0.remoteView.map { $0.viewOnly ? "true" : "false" } ?? "" },
    ]
}
