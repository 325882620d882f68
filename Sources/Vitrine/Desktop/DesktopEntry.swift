#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The app's freedesktop desktop entry as text: its name, the command that starts it, its
/// window class and the URL schemes it handles (`MimeType=x-scheme-handler/…`, with `%u`
/// on the command line so the desktop passes the link). The autostart entry is the same
/// entry with `X-GNOME-Autostart-enabled`.
public struct DesktopEntry: Sendable, Equatable {
    public var name: String
    public var applicationID: String
    /// The program and its arguments, unquoted.
    public var command: [String]
    public var urlSchemes: [String]
    public var autostart: Bool

    public init(name: String, applicationID: String, command: [String], urlSchemes: [String] = [], autostart: Bool = false) {
        self.name = name
        self.applicationID = applicationID
        self.command = command
        self.urlSchemes = urlSchemes
        self.autostart = autostart
    }

    /// The entry for `configuration`'s app started by `command`.
    public init(_ configuration: Configuration, command: [String], autostart: Bool = false) {
        self.init(name: configuration.title, applicationID: configuration.applicationID, command: command,
                  urlSchemes: configuration.urlSchemes, autostart: autostart)
    }

    /// The running program's path (its `Exec`, unless an embedder names another command).
    public static var runningProgram: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// The file's text; throws when a field cannot be written in one (a line break in
    /// the name or the command).
    public func text() throws(ScriptMessageError) -> String {
        guard let program = command.first, !program.isEmpty else { throw ScriptMessageError("desktop entry: no program to start") }
        for field in [name, applicationID] + command where field.contains(where: \.isNewline) || field.unicodeScalars.contains(where: { $0.value < 0x20 }) {
            throw ScriptMessageError("desktop entry: a line break or control character in '\(field.prefix(80))'")
        }
        var exec = command.map(Self.quotedArgument).joined(separator: " ")
        if !urlSchemes.isEmpty { exec += " %u" }
        var lines = ["[Desktop Entry]", "Type=Application", "Name=\(Self.escapedValue(name))", "Exec=\(Self.escapedValue(exec))",
                     "Icon=\(applicationID)", "Terminal=false", "StartupWMClass=\(applicationID)"]
        if !urlSchemes.isEmpty {
            lines.append("MimeType=" + urlSchemes.map { "x-scheme-handler/\($0);" }.joined())
        }
        if autostart {
            lines.append("X-GNOME-Autostart-enabled=true")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One argument of `Exec`, quoted as the specification says: in double quotes when it
    /// holds a reserved character, with `"`, `` ` ``, `$` and `\` escaped; `%` doubled.
    static func quotedArgument(_ argument: String) -> String {
        let percentSafe = argument.replacing("%", with: "%%")
        let reserved = " \t\n\"'\\><~|&;$*?#()`="
        guard !percentSafe.isEmpty, percentSafe.contains(where: { reserved.contains($0) }) else {
            return percentSafe.isEmpty ? "\"\"" : percentSafe
        }
        var quoted = "\""
        for character in percentSafe {
            if "\"`$\\".contains(character) { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }

    /// A string value as a desktop file holds it: a backslash is written `\\`.
    static func escapedValue(_ value: String) -> String {
        value.replacing("\\", with: "\\\\")
    }
}

extension Configuration {
    /// This configuration with the command that starts its app again (its autostart and
    /// desktop entries' `Exec`).
    public func launched(by command: [String]) -> Configuration {
        var preferences = preferences
        preferences.launchCommand = command
        return refined(preferences: preferences, startURL: startURL)
    }
}
