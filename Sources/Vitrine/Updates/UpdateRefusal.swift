/// Why an update is not installed, said to the page, the events log and the person who
/// shipped it. Every check that guards the running version has its case; none leaves
/// anything replaced.
public enum UpdateRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The feed or a file is neither https nor http to a loopback host.
    case insecureURL(String)
    /// The feed is not an update.json this version can read.
    case malformedFeed(String)
    /// The manifest was signed by another key than the app's `public-key`.
    case wrongKey
    /// The signature does not match the manifest's bytes.
    case badSignature
    /// The manifest is another app's.
    case otherApp(String)
    /// The manifest is for another channel than the app's.
    case otherChannel(String)
    /// The offered version is not strictly newer than the running one.
    case notNewer(offered: String, running: String)
    /// The manifest has no file for this installation's format.
    case noFile(UpdateFormat)
    /// The download went past the manifest's size.
    case oversize(limit: Int)
    /// The download ended before the manifest's size (or failed on the way).
    case interrupted(received: Int, expected: Int)
    /// The downloaded file's SHA-256 is not the manifest's.
    case hashMismatch

    /// A short stable name for the page and the events log (`bad-signature`).
    public var code: String {
        switch self {
        case .insecureURL: "insecure-url"
        case .malformedFeed: "malformed-feed"
        case .wrongKey: "wrong-key"
        case .badSignature: "bad-signature"
        case .otherApp: "other-app"
        case .otherChannel: "other-channel"
        case .notNewer: "not-newer"
        case .noFile: "no-file"
        case .oversize: "oversize"
        case .interrupted: "interrupted"
        case .hashMismatch: "hash-mismatch"
        }
    }

    public var description: String {
        switch self {
        case .insecureURL(let url): "\(url) is neither https nor http to a loopback host"
        case .malformedFeed(let why): "the update feed is not a signed manifest: \(why)"
        case .wrongKey: "the manifest is signed by another key than the app's public-key"
        case .badSignature: "the manifest's signature is not valid"
        case .otherApp(let id): "the manifest is for another app (\(id))"
        case .otherChannel(let channel): "the manifest is for the channel \(channel)"
        case .notNewer(let offered, let running): "\(offered) is not newer than the running \(running)"
        case .noFile(let format): "the manifest has no \(format.rawValue) file"
        case .oversize(let limit): "the download is larger than the manifest's \(limit) bytes"
        case .interrupted(let received, let expected): "the download stopped at \(received) of \(expected) bytes"
        case .hashMismatch: "the downloaded file's SHA-256 is not the manifest's"
        }
    }
}

/// How an app is installed, and so which of the manifest's files updates it.
public enum UpdateFormat: String, Sendable, Hashable, Codable, CaseIterable {
    case tarball
    case deb
    case rpm
}
