#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The media formats this machine's GStreamer can decode, read from its decoders' sink caps
/// (the adapter lists them; the core names the formats). WebKitGTK plays what GStreamer
/// decodes: Debian's default set has VP8, VP9, Opus and Vorbis; H.264, HEVC, AAC and AV1
/// need `gstreamer1.0-libav` and `gstreamer1.0-plugins-bad`, which a kiosk installed
/// without recommended packages lacks.
public struct MediaCodecs: Sendable, Equatable {
    /// A format a signage screen is likely to be given, by the caps its decoders accept.
    public enum Format: String, Sendable, CaseIterable, Comparable {
        case vp8 = "VP8", vp9 = "VP9", h264 = "H.264", hevc = "HEVC", av1 = "AV1", theora = "Theora"
        case opus = "Opus", vorbis = "Vorbis", aac = "AAC", mp3 = "MP3", flac = "FLAC"

        public static func < (lhs: Format, rhs: Format) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }

        /// The Debian package that brings its decoder when it is missing.
        public var package: String {
            switch self {
            case .vp8, .vp9: "gstreamer1.0-plugins-good"
            case .opus, .vorbis, .theora: "gstreamer1.0-plugins-base"
            case .flac, .mp3: "gstreamer1.0-plugins-good"
            case .h264, .hevc, .aac: "gstreamer1.0-libav"
            case .av1: "gstreamer1.0-plugins-bad (or gstreamer1.0-libav)"
            }
        }
    }

    /// What one decoder accepts: a caps string as GStreamer prints it, such as
    /// `video/x-h264, stream-format=(string)avc; video/x-h264, …`. Read as bytes: a machine
    /// with libav has thousands of structures, and only each one's media type (and an MPEG
    /// audio's version) matters.
    public static func formats(inCaps caps: String) -> Set<Format> {
        var formats = Set<Format>()
        for structure in caps.utf8.split(separator: UInt8(ascii: ";")) {
            let fields = structure.split(separator: UInt8(ascii: ",")).map(trimmingSpaces)
            guard let media = fields.first else { continue }
            switch String(decoding: media, as: UTF8.self) {
            case "video/x-vp8": formats.insert(.vp8)
            case "video/x-vp9": formats.insert(.vp9)
            case "video/x-h264": formats.insert(.h264)
            case "video/x-h265": formats.insert(.hevc)
            case "video/x-av1": formats.insert(.av1)
            case "video/x-theora": formats.insert(.theora)
            case "audio/x-opus": formats.insert(.opus)
            case "audio/x-vorbis": formats.insert(.vorbis)
            case "audio/x-flac": formats.insert(.flac)
            case "audio/mpeg":
                // mpegversion 1 is MP1–3 (MP3 when layer 3 or unspecified), 2 and 4 are AAC.
                let version = fields.first { $0.starts(with: "mpegversion=".utf8) }
                let digits = version.map { field in
                    Set(field.drop { $0 != UInt8(ascii: ")") && $0 != UInt8(ascii: "=") }.filter { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
                } ?? []
                if version == nil || digits.contains(UInt8(ascii: "1")) { formats.insert(.mp3) }
                if version == nil || digits.contains(UInt8(ascii: "2")) || digits.contains(UInt8(ascii: "4")) { formats.insert(.aac) }
            default: break
            }
        }
        return formats
    }

    private static func trimmingSpaces(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return bytes[bytes.endIndex...]
        }
        return bytes[first...last]
    }

    /// The formats some decoder accepts.
    public let decodable: Set<Format>

    /// The machine's decoders' sink caps, one string per pad template.
    public init(decoderCaps: [String]) {
        // Many pads share their caps (every libav video decoder's raw output, say): read each once.
        decodable = Set(decoderCaps).reduce(into: Set<Format>()) { $0.formUnion(Self.formats(inCaps: $1)) }
    }

    public init(decodable: Set<Format>) {
        self.decodable = decodable
    }

    /// The formats nothing decodes.
    public var missing: [Format] { Format.allCases.filter { !decodable.contains($0) } }

    /// The formats that play, in `Format`'s order.
    public var playable: [Format] { decodable.sorted() }

    /// What `check-config --media` prints: one line per format.
    public var report: String {
        Format.allCases.map { format in
            decodable.contains(format) ? "\(format.rawValue): yes" : "\(format.rawValue): no (install \(format.package))"
        }.joined(separator: "\n")
    }
}

extension MediaCodecs {
    /// The formats a media file's name suggests (its extension), for a warning when a
    /// playlist names one nothing here decodes. Containers hold several codecs: an `.mp4`
    /// is taken as H.264 with AAC (what nearly every one holds), a `.webm` as VP8/VP9 with
    /// Opus/Vorbis (either is enough).
    public static func likelyFormats(ofFileNamed name: String) -> [Set<Format>] {
        let path = name.split(separator: "?").first.map(String.init) ?? ""
        let ext = path.lastIndex(of: ".").map { path[path.index(after: $0)...].lowercased() } ?? ""
        switch ext {
        case "mp4", "m4v", "mov": return [[.h264, .hevc, .av1], [.aac]]
        case "mkv": return [[.h264, .hevc, .vp9, .vp8, .av1]]
        case "webm": return [[.vp8, .vp9, .av1]]
        case "ogv": return [[.theora, .vp8]]
        case "m4a", "aac": return [[.aac]]
        case "mp3": return [[.mp3]]
        case "ogg", "oga", "opus": return [[.opus, .vorbis]]
        case "flac": return [[.flac]]
        default: return []
        }
    }

    /// Why `url`'s media would not play here, or nil when it likely does (or its format is
    /// unknown): each needed stream needs one of its formats decodable.
    public func problem(playing url: URL) -> String? {
        let needs = Self.likelyFormats(ofFileNamed: url.lastPathComponent)
        let unmet = needs.filter { $0.isDisjoint(with: decodable) }
        guard let first = unmet.first else { return nil }
        let names = first.sorted().map(\.rawValue).joined(separator: " or ")
        let packages = Set(first.map(\.package)).sorted().joined(separator: ", ")
        return "\(url.lastPathComponent) needs \(names), which no GStreamer decoder here plays (install \(packages))"
    }
}

extension Configuration {
    /// The playlist items (`[schedule]`'s and each display's) whose URL names a media file.
    public var playlistMediaURLs: [URL] {
        (schedule.playlist + displays.flatMap(\.playlist)).map(\.url)
            .filter { !MediaCodecs.likelyFormats(ofFileNamed: $0.lastPathComponent).isEmpty }
    }

    /// A warning for each playlist item whose media nothing here decodes.
    public func mediaWarnings(_ codecs: MediaCodecs) -> [String] {
        playlistMediaURLs.compactMap { url in codecs.problem(playing: url).map { "playlist item \(url.absoluteString): \($0)" } }
    }
}
