#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// How the manual and the command line's help show a type: what it expects, a value's name
/// and an example, each accepted by the type's own rule (a test writes every example into a
/// file and checks it).
extension OptionType {
    /// What a value must be, as the file's messages say it.
    var expectation: String {
        switch self {
        case .bool: "true or false"
        case .string(let expected, _, _), .integer(let expected, _, _): expected
        case .choice(let names, _): "one of " + names.map { "\"\($0)\"" }.joined(separator: ", ")
        case .seconds(let allowsZero, let zeroMeaning):
            allowsZero ? "a number of seconds, 0 or more" + (zeroMeaning.map { " (0: \($0))" } ?? "") : "a positive number of seconds"
        case .url: "an absolute URL with a scheme"
        case .path(nil): "a path (relative to the configuration file)"
        case .path(.folder?): "an existing folder (relative to the configuration file)"
        case .path(.file?): "an existing file (relative to the configuration file)"
        case .path(.output(let suffix, _)?): "a file name ending in \(suffix)"
        case .origins: "an array of origins (" + Origin.serializedExpectation + ")"
        case .timeOfDay: TimeOfDay.expectation
        case .timesOfDay: "an array of " + TimeOfDay.expectation.replacing("a local time", with: "local times")
        case .weekdays: #"a non-empty array of days, "mon" to "sun""#
        case .monitor: MonitorSelector.expectation
        case .zoneLength: ZoneLength.expectation
        case .originGrants(let names): "a table of origin = [names], names from: " + names.joined(separator: ", ")
        case .strings(let expected, _): "an array of distinct strings, each " + expected
        }
    }

    /// The name of a value on the command line: `--width <n>`; nil for text, which the
    /// flag names best (`--app-id <app-id>`).
    var valueName: String? {
        switch self {
        case .bool: "bool"
        case .string, .choice: nil
        case .integer: "n"
        case .seconds: "seconds"
        case .url: "url"
        case .path(.folder?): "folder"
        case .path: "file"
        case .origins: "origin"
        case .timeOfDay, .timesOfDay: "time"
        case .weekdays: "days"
        case .monitor: "monitor"
        case .zoneLength: "length"
        case .originGrants: "grants"
        case .strings: "names"
        }
    }

    /// A value of the type as written in a file; nil where only the option knows one.
    var example: String? {
        switch self {
        case .bool: "true"
        case .string: nil
        case .choice(let names, _): names.first.map { "\"\($0)\"" }
        case .integer(_, _, let isValid):
            // The first round number the option accepts.
            [1, 8, 90, 100, 4096, 65536, 1_048_576].first(where: isValid).map(String.init)
        case .seconds: "30"
        case .url: #""https://example.org/""#
        case .path(nil): #""/var/lib/vitrine""#
        case .path(.folder?): #""web""#
        case .path(.file?): #""/etc/vitrine/kiosk.pem""#
        case .path(.output(let suffix, _)?): "\"/var/lib/vitrine/vitrine\(suffix)\""
        case .origins: #"["https://example.org"]"#
        case .timeOfDay: #""07:00""#
        case .timesOfDay: #"["03:00"]"#
        case .weekdays: #"["mon", "tue"]"#
        case .monitor: #""HDMI-1""#
        case .zoneLength: #""25%""#
        case .originGrants(let names): names.first.map { #""https://example.org" = [""# + $0 + #""]"# }
        case .strings: nil
        }
    }
}
