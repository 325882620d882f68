#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The key an app trusts its updates from (`[update] public-key`): an Ed25519 public key,
/// written as one line of base64 (44 characters), as minisign and Tauri write theirs.
public struct UpdatePublicKey: Sendable, Hashable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init?(_ text: String) {
        guard let data = Data(base64Encoded: text.trimmingWhitespace), data.count == 32 else { return nil }
        bytes = Array(data)
    }

    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// The one-line form, for `public-key` and `update.json`.
    public var description: String { Data(bytes).base64EncodedString() }

    /// The `.pub` file `vitrine bundle --new-key` writes beside the secret one.
    public var fileText: String { "untrusted comment: vitrine update public key\n\(description)\n" }

    /// The key in a `.pub` file (its last non-comment line) or a bare line.
    public static func parse(fileText text: String) -> UpdatePublicKey? {
        UpdateSigningKey.keyLine(of: text).flatMap(UpdatePublicKey.init)
    }
}

/// The secret half: a 32-byte Ed25519 seed. A credential, so its every printed form is
/// `<redacted>`; its file must be readable by its owner only.
public struct UpdateSigningKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The seed's base64, as in the file.
    public let secret: Credential

    public init?(seed: [UInt8]) {
        guard seed.count == 32 else { return nil }
        secret = Credential(Data(seed).base64EncodedString())
    }

    public init?(fileText text: String) {
        guard let line = Self.keyLine(of: text), let data = Data(base64Encoded: line), data.count == 32 else { return nil }
        secret = Credential(line)
    }

    /// The seed: only for signing.
    public var seed: [UInt8] { Data(base64Encoded: secret.revealed).map(Array.init) ?? [] }

    public var fileText: String {
        "untrusted comment: vitrine update signing key: keep it secret (mode 0600)\n\(secret.revealed)\n"
    }

    /// Reads a key file written by `vitrine bundle --new-key`, refusing one that the group or
    /// others may read (ssh's rule: a readable secret is no longer one).
    public static func read(path: String) throws(UpdateKeyFileError) -> UpdateSigningKey {
        guard let mode = FileSystem.permissions(path), FileSystem.isRegularFile(path) else { throw .unreadable(path) }
        guard mode & 0o077 == 0 else { throw .tooOpen(path, mode: mode & 0o777) }
        guard let text = FileSystem.contents(of: path, limit: 4096), let key = UpdateSigningKey(fileText: text) else { throw .notAKey(path) }
        return key
    }

    public var description: String { Redaction.mark }
    public var debugDescription: String { Redaction.mark }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    static func keyLine(of text: String) -> String? {
        text.split(whereSeparator: \.isNewline).map { String($0).trimmingWhitespace }
            .filter { !$0.isEmpty && !$0.hasPrefix("untrusted comment:") && !$0.hasPrefix("#") }.last
    }
}

public enum UpdateKeyFileError: Error, Equatable, CustomStringConvertible {
    case unreadable(String)
    case tooOpen(String, mode: UInt32)
    case notAKey(String)

    public var description: String {
        switch self {
        case .unreadable(let path): "\(path) cannot be read"
        case .tooOpen(let path, let mode): "\(path) may be read by others (mode \(String(mode, radix: 8))): chmod 600 it"
        case .notAKey(let path): "\(path) is not an update signing key (vitrine bundle --new-key FILE makes one)"
        }
    }
}
