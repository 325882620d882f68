#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Points a kept document's (or style sheet's) references to the archive's parts at the
/// parts' snapshot addresses (`SnapshotContent`), byte by byte: whatever the document's
/// encoding, its addresses are ASCII.
///
/// Two kinds of reference are seen: an http(s) address written out (WebKit writes a saved
/// page's `src`/`href` attributes absolute, `&` as `&amp;`), and CSS `url(…)`, which may be
/// relative to its sheet. Each is replaced only when it names a part, whole.
struct SnapshotRewriter: Sendable {
    /// Each served part's `Content-Location` (normal form) and index.
    let locations: [String: Int]
    let partsPrefix: String
    /// How far a `url(` argument is looked for: beyond that it is not one.
    private let longestReference = 8192

    func rewrite(_ body: Data, base: String?, isHTML: Bool) -> Data {
        guard !locations.isEmpty else { return body }
        let baseURL = base.flatMap { URL(string: $0) }
        let withFunctions = replacingURLFunctions([UInt8](body), base: baseURL, isHTML: isHTML)
        return Data(replacingAbsoluteAddresses(withFunctions, isHTML: isHTML))
    }

    /// The part address `reference` stands for, when it names a part.
    func partAddress(for reference: String, base: URL?, isHTML: Bool) -> String? {
        var text = isHTML ? reference.replacing("&amp;", with: "&") : reference
        var fragment = ""
        if let hash = text.firstIndex(of: "#") {
            fragment = String(text[hash...])
            text = String(text[..<hash])
        }
        guard !text.isEmpty, let url = base.flatMap({ URL(string: text, relativeTo: $0) }) ?? URL(string: text),
              let location = SnapshotContent.webAddress(url.absoluteString), let index = locations[location] else { return nil }
        return partsPrefix + String(index) + fragment
    }

    /// `url(…)`, quoted (`"`, `'`, or in HTML `&quot;`) or not, resolved against `base`.
    private func replacingURLFunctions(_ bytes: [UInt8], base: URL?, isHTML: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var copied = 0
        var index = 0
        while let found = Self.find(Array("url(".utf8), in: bytes, from: index) {
            var start = found + 4
            while start < bytes.count, Self.isSpace(bytes[start]) { start += 1 }
            var closing: [UInt8]?
            for quote in isHTML ? ["\"", "'", "&quot;", "&#39;"] : ["\"", "'"] where Self.matches(Array(quote.utf8), bytes, at: start) {
                closing = Array(quote.utf8)
                start += quote.utf8.count
                break
            }
            let limit = min(bytes.count, start + longestReference)
            var end = start
            if let closing {
                end = Self.find(closing, in: bytes, from: start, before: limit) ?? limit
            } else {
                while end < limit, bytes[end] != UInt8(ascii: ")"), !Self.isSpace(bytes[end]), bytes[end] != UInt8(ascii: "\"") { end += 1 }
            }
            index = max(end, found + 4)
            guard end < limit, let address = partAddress(for: String(decoding: bytes[start..<end], as: UTF8.self), base: base, isHTML: isHTML)
            else { continue }
            output += bytes[copied..<start]
            output += Array(address.utf8)
            copied = end
        }
        output += bytes[copied...]
        return output
    }

    /// Every `http://` and `https://` address written out, up to a quote, a space, a bracket
    /// (or in HTML an escaped quote); a `srcset` entry's trailing comma is not part of it.
    private func replacingAbsoluteAddresses(_ bytes: [UInt8], isHTML: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var copied = 0
        var index = 0
        while index < bytes.count {
            guard let found = Self.find(Array("http".utf8), in: bytes, from: index) else { break }
            index = found + 4
            guard Self.matches(Array("://".utf8), bytes, at: found + 4) || Self.matches(Array("s://".utf8), bytes, at: found + 4)
            else { continue }
            var end = found
            while end < bytes.count, !Self.endsAddress(bytes[end]),
                  !(isHTML && (Self.matches(Array("&quot;".utf8), bytes, at: end) || Self.matches(Array("&#39;".utf8), bytes, at: end))) {
                end += 1
            }
            index = end
            var reference = String(decoding: bytes[found..<end], as: UTF8.self)
            var address = partAddress(for: reference, base: nil, isHTML: isHTML)
            var replacedEnd = end
            while address == nil, reference.hasSuffix(",") {
                reference.removeLast()
                replacedEnd -= 1
                address = partAddress(for: reference, base: nil, isHTML: isHTML)
            }
            guard let address else { continue }
            output += bytes[copied..<found]
            output += Array(address.utf8)
            copied = replacedEnd
        }
        output += bytes[copied...]
        return output
    }

    private static func endsAddress(_ byte: UInt8) -> Bool {
        isSpace(byte) || "\"'<>()`".utf8.contains(byte)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }

    /// Whether `pattern` is at `index`, ASCII letters compared without case.
    private static func matches(_ pattern: [UInt8], _ bytes: [UInt8], at index: Int) -> Bool {
        guard index >= 0, bytes.count - index >= pattern.count else { return false }
        for offset in 0..<pattern.count where lowercase(bytes[index + offset]) != lowercase(pattern[offset]) { return false }
        return true
    }

    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int, before limit: Int? = nil) -> Int? {
        let last = (limit ?? bytes.count) - pattern.count
        guard start <= last else { return nil }
        let first = lowercase(pattern[0])
        var index = start
        while index <= last {
            if lowercase(bytes[index]) == first, matches(pattern, bytes, at: index) { return index }
            index += 1
        }
        return nil
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
