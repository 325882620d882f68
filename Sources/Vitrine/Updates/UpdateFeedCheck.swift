#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A verified offer: a strictly newer version of this app on its channel, with the one file
/// that updates this installation.
public struct UpdateOffer: Sendable, Equatable {
    public let version: UpdateVersion
    public let notes: String
    public let package: String
    public let format: UpdateFormat
    public let file: UpdateFile
}

/// Decides whether a downloaded `update.json` is an update to install, checking, in order:
/// the key, the signature over the manifest's exact bytes, the app, the channel, that the
/// version is strictly newer, and the file's URL, size and hash format.
public struct UpdateFeedCheck: Sendable {
    public typealias SignatureCheck = @Sendable (_ signature: [UInt8], _ message: [UInt8], _ publicKey: [UInt8]) -> Bool

    public let appID: String
    public let running: UpdateVersion
    public let channel: String
    public let publicKey: UpdatePublicKey
    public let format: UpdateFormat
    public let signatureIsValid: SignatureCheck

    /// A feed larger than this is no update.json.
    public static let feedLimit = 256 * 1024

    public init(appID: String, running: UpdateVersion, channel: String, publicKey: UpdatePublicKey,
                format: UpdateFormat, signatureIsValid: @escaping SignatureCheck) {
        self.appID = appID
        self.running = running
        self.channel = channel
        self.publicKey = publicKey
        self.format = format
        self.signatureIsValid = signatureIsValid
    }

    public func verify(_ feedBytes: [UInt8]) -> Result<UpdateOffer, UpdateRefusal> {
        Result { () throws(UpdateRefusal) in try offer(feedBytes) }
    }

    private func offer(_ feedBytes: [UInt8]) throws(UpdateRefusal) -> UpdateOffer {
        guard feedBytes.count <= Self.feedLimit else { throw .malformedFeed("larger than \(Self.feedLimit) bytes") }
        guard let feed = try? JSONDecoder().decode(UpdateFeed.self, from: Data(feedBytes)) else {
            throw .malformedFeed("not JSON with manifest, signature and public-key")
        }
        guard UpdatePublicKey(feed.publicKey) == publicKey else { throw .wrongKey }
        guard let signature = Data(base64Encoded: feed.signature) else { throw .badSignature }
        let signed = Array(feed.manifest.utf8)
        guard signatureIsValid(Array(signature), signed, publicKey.bytes) else { throw .badSignature }

        guard let manifest = try? JSONDecoder().decode(UpdateManifest.self, from: Data(signed)) else {
            throw .malformedFeed("the signed manifest lacks a field")
        }
        guard manifest.appID == appID else { throw .otherApp(manifest.appID) }
        guard manifest.channel == channel else { throw .otherChannel(manifest.channel) }
        guard let offered = UpdateVersion(manifest.version) else { throw .malformedFeed("version \(manifest.version) is not a version") }
        guard offered > running else { throw .notNewer(offered: offered.description, running: running.description) }
        guard let file = manifest.files[format.rawValue] else { throw .noFile(format) }
        guard let url = URL(string: file.url), BundleSource.acceptsArchiveURL(url) else { throw .insecureURL(file.url) }
        guard file.size > 0, BundleSource.acceptsSHA256(file.sha256) else { throw .malformedFeed("the \(format.rawValue) file's size or sha256") }
        guard UpdatePackageName.accepts(manifest.package) else { throw .malformedFeed("package \(manifest.package) is not a package name") }
        return UpdateOffer(version: offered, notes: manifest.notes, package: manifest.package, format: format, file: file)
    }

    /// The feed's own URL: https, or http to a loopback host only.
    public static func checkFeedURL(_ text: String) -> Result<URL, UpdateRefusal> {
        guard let url = URL(string: text), BundleSource.acceptsArchiveURL(url) else { return .failure(.insecureURL(text)) }
        return .success(url)
    }
}

/// A package name that may name a folder: Debian's rule (lower case letters, digits, `+-.`).
public enum UpdatePackageName {
    public static func accepts(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count >= 2, name.utf8.count <= 64,
              (97...122).contains(first) || (48...57).contains(first) else { return false }
        return name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 43 || $0 == 45 || $0 == 46 }
    }
}

/// The download's running checks: never more than the manifest's size, and at the end
/// exactly that size with the manifest's SHA-256. Nothing is replaced before `finish` says nil.
public struct UpdateDownloadCheck: Sendable, Equatable {
    public let file: UpdateFile

    public init(file: UpdateFile) {
        self.file = file
    }

    /// After `received` bytes so far: an oversize download stops here.
    public func check(received: Int) -> UpdateRefusal? {
        received > file.size ? .oversize(limit: file.size) : nil
    }

    /// When the transfer ended (`completed` false when it failed on the way).
    public func finish(received: Int, completed: Bool, sha256: [UInt8]) -> UpdateRefusal? {
        if let oversize = check(received: received) { return oversize }
        guard completed, received == file.size else { return .interrupted(received: received, expected: file.size) }
        let hex = sha256.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        return hex == file.sha256.lowercased() ? nil : .hashMismatch
    }
}
