#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A page kept as MHTML (`multipart/related`, RFC 2557), read into its parts: each part's
/// headers and its body decoded (base64, quoted-printable, 7bit/8bit/binary).
///
/// The file comes from disk, so it is read as hostile: bounded (`Limits`), and anything
/// that is not a whole archive — no boundary, no closing delimiter, an unknown encoding —
/// is an error, never a guess.
public struct MHTMLArchive: Sendable {
    public struct Part: Sendable, Equatable {
        /// Header names in lowercase, values unfolded and trimmed.
        public let headers: [String: String]
        public let body: Data

        /// The media type, lowercase, without parameters (`text/plain` when none, as MIME says).
        public var mediaType: String {
            let value = headers["content-type"].map { MIMEHeader.value($0) } ?? ""
            return value.isEmpty ? "text/plain" : value.lowercased()
        }

        /// The `Content-Type` as written (parameters included), or the default.
        public var contentType: String { headers["content-type"] ?? "text/plain" }

        /// The address the part was loaded from, when it says.
        public var location: String? { headers["content-location"] }
    }

    public struct Limits: Sendable, Equatable {
        public var maximumParts: Int
        /// One header block (the archive's or a part's).
        public var maximumHeaderBytes: Int
        public var maximumBytes: Int

        public init(maximumParts: Int = 1000, maximumHeaderBytes: Int = 16 << 10, maximumBytes: Int = SnapshotPolicy().maximumBytes) {
            self.maximumParts = maximumParts
            self.maximumHeaderBytes = maximumHeaderBytes
            self.maximumBytes = maximumBytes
        }
    }

    public let parts: [Part]

    public init(_ data: Data, limits: Limits = Limits()) throws(MHTMLError) {
        guard data.count <= limits.maximumBytes else { throw .tooLarge(data.count, limits.maximumBytes) }
        let bytes = [UInt8](data)
        var reader = LineReader(bytes: bytes)
        let top = try reader.headers(limit: limits.maximumHeaderBytes)
        guard let contentType = top["content-type"], MIMEHeader.value(contentType).lowercased() == "multipart/related" else {
            throw .notMultipart
        }
        guard let boundary = MIMEHeader.parameter("boundary", in: contentType), (1...70).contains(boundary.utf8.count) else {
            throw .missingBoundary
        }
        let delimiter = Array("--\(boundary)".utf8)
        // The preamble, up to the first delimiter.
        guard reader.skip(toDelimiter: delimiter) != nil else { throw .missingBoundary }
        var parts: [Part] = []
        while true {
            guard let closing = reader.afterDelimiter(delimiter.count) else { throw .truncated }
            if closing { break }
            guard parts.count < limits.maximumParts else { throw .tooManyParts(limits.maximumParts) }
            let headers = try reader.headers(limit: limits.maximumHeaderBytes)
            guard let body = reader.skip(toDelimiter: delimiter) else { throw .truncated }
            let encoding = headers["content-transfer-encoding"]?.lowercased() ?? "7bit"
            parts.append(Part(headers: headers, body: try Self.decode(bytes[body], encoding)))
        }
        guard !parts.isEmpty else { throw .noParts }
        self.parts = parts
    }

    static func decode(_ body: ArraySlice<UInt8>, _ encoding: String) throws(MHTMLError) -> Data {
        switch encoding {
        case "base64":
            guard let data = Data(base64Encoded: Data(body), options: .ignoreUnknownCharacters) else { throw .badEncoding("base64") }
            return data
        case "quoted-printable": return Data(QuotedPrintable.decode(body))
        case "7bit", "8bit", "binary": return Data(body)
        default: throw .unknownEncoding(String(encoding.prefix(40)))
        }
    }
}

public enum MHTMLError: Error, Sendable, Equatable, CustomStringConvertible {
    case tooLarge(Int, Int)
    case notMultipart
    case missingBoundary
    case truncated
    case tooManyParts(Int)
    case headerTooLarge(Int)
    case badEncoding(String)
    case unknownEncoding(String)
    case noParts
    case noDocument

    public var description: String {
        switch self {
        case let .tooLarge(size, limit): "the archive is \(size) bytes, more than \(limit)"
        case .notMultipart: "not an MHTML archive (no multipart/related content type)"
        case .missingBoundary: "the archive has no usable MIME boundary"
        case .truncated: "the archive is truncated (no closing boundary)"
        case let .tooManyParts(limit): "the archive has more than \(limit) parts"
        case let .headerTooLarge(limit): "a header block is longer than \(limit) bytes"
        case let .badEncoding(name): "a part's \(name) body is malformed"
        case let .unknownEncoding(name): "a part has an unknown transfer encoding \"\(name)\""
        case .noParts: "the archive has no parts"
        case .noDocument: "the archive's first part is not an HTML document"
        }
    }
}

/// MIME header values: `type/subtype; name="value"; …`.
enum MIMEHeader {
    /// The value before its parameters.
    static func value(_ header: String) -> String {
        String(header.prefix { $0 != ";" }).trimmedSpaces
    }

    /// Parameter `name` (case-insensitive), unquoted.
    static func parameter(_ name: String, in header: String) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmedSpaces.lowercased() == name else { continue }
            var value = pair[1].trimmedSpaces
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }
}

/// Quoted-printable (RFC 2045 §6.7), decoded leniently: an `=` not followed by two hex
/// digits or a line end stays as it is.
enum QuotedPrintable {
    static func decode(_ input: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = input.startIndex
        while index < input.endIndex {
            let byte = input[index]
            guard byte == UInt8(ascii: "=") else { output.append(byte); index += 1; continue }
            let next = index + 1
            if next < input.endIndex, input[next] == UInt8(ascii: "\n") { index = next + 1; continue }
            if next + 1 < input.endIndex, input[next] == UInt8(ascii: "\r"), input[next + 1] == UInt8(ascii: "\n") {
                index = next + 2
                continue
            }
            if next + 1 < input.endIndex, let high = hex(input[next]), let low = hex(input[next + 1]) {
                output.append(high << 4 | low)
                index = next + 2
                continue
            }
            output.append(byte)
            index += 1
        }
        return output
    }

    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

/// Walks an archive's lines (CRLF or LF).
private struct LineReader {
    let bytes: [UInt8]
    var position = 0

    /// The end of the line starting at `position` (its `\n`, or the end), and the start of the next.
    private func line(at start: Int) -> (end: Int, next: Int) {
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
        let next = min(end + 1, bytes.count)
        if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return (end, next)
    }

    /// A header block up to its empty line, continuation lines unfolded.
    mutating func headers(limit: Int) throws(MHTMLError) -> [String: String] {
        let start = position
        var headers: [String: String] = [:]
        var last: String?
        while true {
            guard position < bytes.count else { throw .truncated }
            let (end, next) = line(at: position)
            guard next - start <= limit else { throw .headerTooLarge(limit) }
            let text = String(decoding: bytes[position..<end], as: UTF8.self)
            position = next
            if text.isEmpty { return headers }
            if let first = text.first, first == " " || first == "\t", let name = last {
                headers[name, default: ""] += " " + text.trimmedSpaces
                continue
            }
            guard let colon = text.firstIndex(of: ":") else { continue }
            let name = text[..<colon].trimmedSpaces.lowercased()
            // The first of a repeated header counts.
            if headers[name] == nil { headers[name] = text[text.index(after: colon)...].trimmedSpaces }
            last = name
        }
    }

    /// Moves to the next line that starts with `delimiter`; returns what came before it
    /// (without the line break before the delimiter), or nil when there is none.
    mutating func skip(toDelimiter delimiter: [UInt8]) -> Range<Int>? {
        let start = position
        var lineStart = position
        while lineStart < bytes.count {
            if bytes.count - lineStart >= delimiter.count, bytes[lineStart] == delimiter[0],
               bytes[lineStart..<lineStart + delimiter.count].elementsEqual(delimiter) {
                var end = lineStart
                if end > start, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
                if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                position = lineStart
                return start..<max(start, end)
            }
            guard let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            lineStart = newline + 1
        }
        return nil
    }

    /// At a delimiter line: true for the closing one (`--` after it), false for a part's
    /// start (the reader then at the part's headers), nil when nothing follows.
    mutating func afterDelimiter(_ length: Int) -> Bool? {
        let after = position + length
        if after + 1 < bytes.count, bytes[after] == UInt8(ascii: "-"), bytes[after + 1] == UInt8(ascii: "-") { return true }
        let (_, next) = line(at: position)
        guard next < bytes.count else { return nil }
        position = next
        return false
    }
}

private extension StringProtocol {
    /// Without leading and trailing spaces and tabs (header values).
    var trimmedSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
