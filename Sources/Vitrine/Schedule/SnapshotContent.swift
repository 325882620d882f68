#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A kept page made self-contained: its document and the parts it uses, each at an
/// address of the snapshot's own (`vitrine-snapshot://<key>/` for the document,
/// `vitrine-snapshot://<key>/part/<n>` for part `n`), so that showing it asks nothing of
/// the network.
///
/// The document (the archive's first part, HTML) and its style sheets have each part's
/// `Content-Location` — written out, HTML-escaped (`&amp;`) or, in `url(…)`, relative to
/// the sheet — replaced by the part's address. Anything else keeps its http(s) address,
/// which the snapshot's policy (`PageSnapshots.contentSecurityPolicy`) refuses.
///
/// Only parts a document uses as resources are served (images, style sheets, fonts,
/// media): never an HTML or script part, so frames and scripts a hostile archive carries
/// stay unserved.
public struct SnapshotContent: Sendable {
    public struct Resource: Sendable, Equatable {
        public let body: Data
        public let contentType: String
    }

    public let address: URL
    public let document: Resource
    private let parts: [Int: Resource]

    /// `archive` as shown at `address` (`PageSnapshots.snapshotURL(for:)`).
    public init(archive: MHTMLArchive, address: URL) throws(MHTMLError) {
        guard let main = archive.parts.first, main.mediaType == "text/html" else { throw .noDocument }
        self.address = address
        let base = Self.partsPrefix(of: address)
        var locations: [String: Int] = [:]
        for (index, part) in archive.parts.enumerated().dropFirst() where Self.isServed(part.mediaType) {
            guard let location = part.location.flatMap(Self.webAddress) else { continue }
            if locations[location] == nil { locations[location] = index }
        }
        let rewriter = SnapshotRewriter(locations: locations, partsPrefix: base)
        var parts: [Int: Resource] = [:]
        for index in Set(locations.values) {
            let part = archive.parts[index]
            let body = part.mediaType == "text/css"
                ? rewriter.rewrite(part.body, base: part.location.flatMap(Self.webAddress), isHTML: false)
                : part.body
            parts[index] = Resource(body: body, contentType: part.contentType)
        }
        self.parts = parts
        let charset = MIMEHeader.parameter("charset", in: main.contentType) ?? Self.declaredCharset(main.body) ?? "utf-8"
        document = Resource(body: rewriter.rewrite(main.body, base: main.location.flatMap(Self.webAddress), isHTML: true),
                            contentType: "text/html; charset=\(charset)")
    }

    /// What answers `url`: the document at the snapshot's address, a served part at its
    /// part address; nil for anything else (another snapshot, an unknown or unserved part,
    /// a query).
    public func resource(at url: URL) -> Resource? {
        guard url.scheme?.lowercased() == PageSnapshots.scheme, url.host?.lowercased() == address.host?.lowercased(),
              url.query == nil else { return nil }
        if url.path.isEmpty || url.path == "/" { return document }
        let prefix = "/part/"
        guard url.path.hasPrefix(prefix), let index = Int(url.path.dropFirst(prefix.count)),
              String(index) == url.path.dropFirst(prefix.count) else { return nil }
        return parts[index]
    }

    /// How many parts are served.
    public var servedPartCount: Int { parts.count }

    /// The address of part `index` of the snapshot at `address`.
    public static func partAddress(_ index: Int, of address: URL) -> String { partsPrefix(of: address) + String(index) }

    private static func partsPrefix(of address: URL) -> String {
        "\(PageSnapshots.scheme)://\(address.host ?? "")/part/"
    }

    /// Resources a document shows: never a document or a script of its own.
    static func isServed(_ mediaType: String) -> Bool {
        if ["image/", "font/", "audio/", "video/"].contains(where: mediaType.hasPrefix) { return true }
        return ["text/css", "application/font-woff", "application/font-woff2", "application/font-sfnt",
                "application/x-font-ttf", "application/x-font-otf", "application/x-font-woff",
                "application/vnd.ms-fontobject"].contains(mediaType)
    }

    /// An http(s) address in its normal form, or nil.
    static func webAddress(_ text: String) -> String? {
        guard var components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.percentEncodedHost, !host.isEmpty else { return nil }
        // Scheme and host are compared without case, as URLs' are.
        components.scheme = scheme
        components.percentEncodedHost = host.lowercased()
        return components.string
    }

    /// The `<meta charset>` WebKit writes at the top of a saved page.
    static func declaredCharset(_ body: Data) -> String? {
        let head = String(decoding: body.prefix(2048), as: UTF8.self).lowercased()
        guard let range = head.firstRange(of: "charset=") else { return nil }
        let name = head[range.upperBound...].drop { $0 == "\"" || $0 == "'" }
            .prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        return name.isEmpty ? nil : String(name)
    }
}
