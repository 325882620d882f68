#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a support bundle holds (`vitrine ctl support-bundle FILE`, MQTT `cmd/support`): one
/// file per part, in a fixed order, and `MANIFEST.txt` saying what each is and why a part
/// is missing. The adapter gathers the inputs (the window's PNG, WebKit's versions, the
/// journal) and packs `files` into a `.tar.gz`; what goes in, under which name, is decided here.
///
/// The configuration given here is already redacted (`ConfigFile.redacted`): nothing in
/// this type reads a password file.
public struct SupportArchive: Sendable, Equatable {
    /// One file of the bundle.
    public struct File: Sendable, Equatable {
        public let name: String
        public let bytes: [UInt8]

        public init(name: String, bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }
    }

    /// What the kiosk knows when a bundle is asked for; nil: not available (and why, in `missing`).
    public struct Inputs: Sendable {
        /// The configuration in force, secrets replaced by `<redacted>`.
        public var configuration: String?
        /// The last events-log lines, oldest first.
        public var events: [String]
        /// Component → version (`Vitrine`, `WebKitGTK`, `GTK`, `GStreamer`, `cage`, `kernel`).
        public var versions: [(String, String)]
        /// Renderer facts: the hardware-acceleration policy, the display backend, GPUs.
        public var renderer: [(String, String)]
        public var screenshot: [UInt8]?
        public var metrics: String?
        /// The unit's last journal lines.
        public var journal: String?
        /// Part name → why it is not in the bundle.
        public var missing: [String: String]

        public init(configuration: String? = nil, events: [String] = [], versions: [(String, String)] = [],
                    renderer: [(String, String)] = [], screenshot: [UInt8]? = nil, metrics: String? = nil,
                    journal: String? = nil, missing: [String: String] = [:]) {
            self.configuration = configuration
            self.events = events
            self.versions = versions
            self.renderer = renderer
            self.screenshot = screenshot
            self.metrics = metrics
            self.journal = journal
            self.missing = missing
        }

    }

    /// The parts' file names, in the bundle's order.
    public enum Part: String, CaseIterable, Sendable {
        case configuration = "configuration.toml"
        case events = "events.jsonl"
        case versions = "versions.txt"
        case renderer = "renderer.txt"
        case screenshot = "screenshot.png"
        case metrics = "metrics.prom"
        case journal = "journal.txt"

        var what: String {
            switch self {
            case .configuration: "the configuration in force, secrets and password files replaced by <redacted>"
            case .events: "the last events-log lines"
            case .versions: "versions of Vitrine, WebKitGTK, GTK, GStreamer, cage and the kernel"
            case .renderer: "how pages are drawn: acceleration policy, display backend, GPUs"
            case .screenshot: "the window as shown"
            case .metrics: "the Prometheus metrics"
            case .journal: "the systemd unit's last journal lines"
            }
        }
    }

    /// The manifest's name: the first file of every bundle.
    public static let manifestName = "MANIFEST.txt"
    /// Events-log lines a bundle keeps.
    public static let eventLines = 500
    /// Journal lines a bundle asks for.
    public static let journalLines = 200
    /// The largest bundle published over MQTT (brokers limit message sizes; many to a few MB).
    public static let mqttLimit = 4 << 20

    public let files: [File]

    public init(_ inputs: Inputs, createdAt: String) {
        // Every text part is redacted once more as it goes in: a log line written before
        // a credential was known, or the journal's lines of other programs, are caught here.
        let clean = Redaction.text
        var present: [Part: [UInt8]] = [:]
        present[.configuration] = inputs.configuration.map { Array(clean($0).utf8) }
        present[.events] = Array(inputs.events.suffix(Self.eventLines).map { clean($0) + "\n" }.joined().utf8)
        present[.versions] = Self.lines(inputs.versions)
        present[.renderer] = Self.lines(inputs.renderer)
        present[.screenshot] = inputs.screenshot
        present[.metrics] = inputs.metrics.map { Array(clean($0).utf8) }
        present[.journal] = inputs.journal.map { Array(clean($0).utf8) }
        var manifest = "Vitrine support bundle, made \(createdAt)\n\n"
        for part in Part.allCases {
            if present[part] != nil {
                manifest += "\(part.rawValue): \(part.what)\n"
            } else {
                manifest += "\(part.rawValue): missing: \(clean(inputs.missing[part.rawValue] ?? "not available"))\n"
            }
        }
        files = [File(name: Self.manifestName, bytes: Array(manifest.utf8))]
            + Part.allCases.compactMap { part in present[part].map { File(name: part.rawValue, bytes: $0) } }
    }

    /// `name: value` lines, a value's line breaks folded so each fact stays one line.
    private static func lines(_ facts: [(String, String)]) -> [UInt8] {
        Array(facts.map { "\($0.0): \(Redaction.text($0.1.split(whereSeparator: \.isNewline).joined(separator: " / ")))\n" }.joined().utf8)
    }

    /// The systemd unit a process runs in, from its `/proc/self/cgroup` text
    /// (`0::/system.slice/vitrine-kiosk.service` → `vitrine-kiosk.service`); nil outside a
    /// service (a user session scope, a container).
    public static func unit(fromCgroup text: String) -> String? {
        for line in text.split(separator: "\n") {
            guard let path = line.split(separator: ":", maxSplits: 2).last else { continue }
            // The innermost `.service` level: a user service sits under user@UID.service.
            if let service = path.split(separator: "/").last(where: { $0.hasSuffix(".service") }),
               service.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.@:\\".contains($0)) }) {
                return String(service)
            }
        }
        return nil
    }

    /// Whether `url` may receive bundles (`[remote] support-upload`): https, or http to a
    /// loopback host only (a collector on the kiosk itself, or a test's): a bundle is not
    /// sent in clear over a network.
    public static func acceptsUpload(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else { return false }
        if scheme == "https" { return true }
        return scheme == "http" && ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased())
    }

    /// Why `file` may not be a bundle's destination on the session bus (nil: fine): an
    /// absolute path ending in `.tar.gz`, without control characters.
    public static func destinationProblem(_ file: String) -> String? {
        guard file.hasPrefix("/"), file.hasSuffix(".tar.gz"), let name = file.split(separator: "/").last, name != ".tar.gz",
              !file.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return "support-bundle takes an absolute path ending in .tar.gz, got '\(String(file.prefix(200)))'" }
        return nil
    }
}
