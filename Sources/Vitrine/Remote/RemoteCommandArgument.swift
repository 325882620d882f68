/// What a remote command takes after its name. Every argument is UTF-8 text without NUL
/// (a D-Bus string, an MQTT payload), trimmed of surrounding white space before it is
/// checked — except a configuration, which is kept as sent.
public enum RemoteCommandArgument: Sendable, Equatable {
    /// Nothing: an argument that is not empty is refused.
    case none
    /// An absolute URL with a scheme, without spaces or control characters.
    case url
    /// `on` or `off`, in any case.
    case onOff
    /// On the session bus an absolute path ending in `.png` (the local user's own file);
    /// over MQTT nothing: a remote never names a file on the kiosk.
    case pngFile
    /// A whole TOML configuration, not empty.
    case configuration
    /// On the session bus an absolute path ending in `.tar.gz` that the instance creates
    /// (never overwrites, never follows a symbolic link); over MQTT nothing.
    case bundleFile
    /// A JSON object `{"url": "…", "seconds": N}`: an absolute URL and 1 to 86400 seconds.
    case alert

    /// How help shows the argument; nil for none.
    public var valueName: String? {
        switch self {
        case .none: nil
        case .url: "URL"
        case .onOff: "on|off"
        case .pngFile: "FILE.png"
        case .configuration: "TOML"
        case .bundleFile: "FILE.tar.gz"
        case .alert: #"{"url":URL,"seconds":N}"#
        }
    }

}
