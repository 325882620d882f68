#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a release offers, the text its signature covers: the app, its version and channel,
/// the notes, and one file per format (its URL, size and SHA-256).
public struct UpdateManifest: Sendable, Equatable, Codable {
    public var appID: String
    public var package: String
    public var version: String
    public var channel: String
    public var notes: String
    /// By `UpdateFormat`'s raw value (`tarball`, `deb`, `rpm`).
    public var files: [String: UpdateFile]

    public init(appID: String, package: String, version: String, channel: String, notes: String, files: [UpdateFormat: UpdateFile]) {
        self.appID = appID
        self.package = package
        self.version = version
        self.channel = channel
        self.notes = notes
        self.files = Dictionary(uniqueKeysWithValues: files.map { ($0.key.rawValue, $0.value) })
    }

    enum CodingKeys: String, CodingKey {
        case appID = "app-id", package, version, channel, notes, files
    }

    /// The manifest's bytes as signed: JSON with sorted keys, so that the same release
    /// signs the same bytes. The verifier never re-serialises: it reads the signed bytes.
    public var signedText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, numbers and dictionaries of them always encode.
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }
}

public struct UpdateFile: Sendable, Equatable, Codable {
    public var url: String
    public var size: Int
    /// Lower-case hex.
    public var sha256: String

    public init(url: String, size: Int, sha256: String) {
        self.url = url
        self.size = size
        self.sha256 = sha256
    }
}

/// `update.json`: the manifest's exact signed text, its signature and the key that made it
/// (base64). Nothing outside `manifest` is trusted.
public struct UpdateFeed: Sendable, Equatable, Codable {
    public var manifest: String
    public var signature: String
    public var publicKey: String

    public init(manifest: String, signature: [UInt8], publicKey: UpdatePublicKey) {
        self.manifest = manifest
        self.signature = Data(signature).base64EncodedString()
        self.publicKey = publicKey.description
    }

    enum CodingKeys: String, CodingKey {
        case manifest, signature, publicKey = "public-key"
    }

    /// The file's text: readable, one key a line.
    public var fileText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(self), as: UTF8.self) + "\n"
    }
}
