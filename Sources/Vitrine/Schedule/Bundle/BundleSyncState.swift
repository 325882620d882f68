#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a bundle's folder remembers between syncs (`state.json`): the validators of the
/// archive it holds, for a conditional request, and which unpacked version is current.
public struct BundleSyncState: Codable, Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?
    /// The archive's SHA-256 (hex) of the version on disk.
    public var sha256: String?
    /// The folder name of the current version under `versions/`.
    public var version: String?

    public init(etag: String? = nil, lastModified: String? = nil, sha256: String? = nil, version: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.sha256 = sha256
        self.version = version
    }

    /// The conditional request's headers: only when a version is on disk (without one,
    /// a 304 would leave nothing to show).
    public var requestHeaders: [(name: String, value: String)] {
        guard version != nil else { return [] }
        var headers: [(name: String, value: String)] = []
        if let etag { headers.append(("If-None-Match", etag)) }
        if let lastModified { headers.append(("If-Modified-Since", lastModified)) }
        return headers
    }

    /// What the server's answer means for this bundle.
    public func decide(_ answer: BundleAnswer, expectedSHA256: String?) -> BundleSyncDecision {
        switch answer {
        case .unreachable(let reason):
            return .failed(reason)
        case .status(304, _, _):
            guard version != nil else { return .failed("HTTP 304 but no version on disk") }
            return .unchanged(self)
        case .status(let status, _, _) where status != 200:
            return .failed("HTTP \(status)")
        case .tooLarge(let limit):
            return .failed("the archive is larger than \(limit) bytes")
        case .status(_, let validators, let sha256):
            let sha256 = sha256.lowercased()
            if let expected = expectedSHA256?.lowercased(), expected != sha256 {
                return .failed("sha256 mismatch: expected \(expected), got \(sha256)")
            }
            var next = self
            next.etag = validators.etag
            next.lastModified = validators.lastModified
            // The same archive under a new ETag: nothing to unpack.
            if version != nil, self.sha256 == sha256 { return .unchanged(next) }
            next.sha256 = sha256
            next.version = nil
            return .install(next)
        }
    }
}

/// A response's cache validators.
public struct BundleValidators: Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// The server's answer to a sync, as the adapter saw it.
public enum BundleAnswer: Sendable, Equatable {
    /// No answer (DNS, connection, TLS, timeout).
    case unreachable(String)
    /// The body went past the download limit and was dropped.
    case tooLarge(limit: Int)
    /// A status; for a 200, the downloaded archive's SHA-256 (hex).
    case status(Int, BundleValidators, sha256: String)
}

/// What a sync does.
public enum BundleSyncDecision: Sendable, Equatable {
    /// Keep the version on disk; store this state (new validators, perhaps).
    case unchanged(BundleSyncState)
    /// Unpack the downloaded archive into a new version and make it current; then store
    /// this state with its version.
    case install(BundleSyncState)
    /// Keep the version on disk; report why.
    case failed(String)
}

/// A sync's line in the events log (`bundle-sync`).
public struct BundleSyncReport: Sendable, Equatable {
    public enum Outcome: String, Sendable, CaseIterable {
        case updated, unchanged, failed
    }

    /// The archive URL.
    public var url: String
    public var outcome: Outcome
    /// The version current after the sync, if any.
    public var version: String?
    /// Why it failed.
    public var reason: String?

    public init(url: String, outcome: Outcome, version: String? = nil, reason: String? = nil) {
        self.url = url
        self.outcome = outcome
        self.version = version
        self.reason = reason
    }
}
