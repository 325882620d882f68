#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// The credentials this process holds (configuration passwords, tokens, a secret upload
/// URL), masked in every text it shows: the way a CI system masks its secrets in every log
/// line, whichever path the value took to get there. `Redaction.text(_:)` applies it;
/// the program registers its configuration's `Configuration.credentials` at start and at
/// every accepted push. Masks are only added: a secret once held stays masked.
public final class SecretMask: Sendable {
    /// The process's mask, which every output reads.
    public static let shared = SecretMask()

    /// Shorter values are not masked: replacing every "ab" in every line would make the
    /// logs unreadable, and a credential that short protects nothing.
    public static let minimumLength = 4

    private let known = Mutex(Forms())

    /// The masked forms, longest first (a secret that contains another is replaced whole),
    /// with the bytes that can start one: every output line is scanned once, byte by byte,
    /// rather than searched once per form.
    private struct Forms: Sendable {
        var texts: [String] = []
        var bytes: [[UInt8]] = []
        var startsOne = [Bool](repeating: false, count: 256)
    }

    public init() {}

    /// Masks `secrets` from now on, each as is, URL-encoded, base64 and hex.
    public func add(_ secrets: [Credential]) {
        let new = secrets.map(\.revealed).filter { $0.utf8.count >= Self.minimumLength }.flatMap(Self.forms(of:))
        guard !new.isEmpty else { return }
        known.withLock { known in
            var texts = known.texts
            for form in new where !texts.contains(form) { texts.append(form) }
            texts.sort { $0.utf8.count > $1.utf8.count }
            known.texts = texts
            known.bytes = texts.map { Array($0.utf8) }
            for form in known.bytes { known.startsOne[Int(form[0])] = true }
        }
    }

    /// `text` with every masked form replaced by `Redaction.mark`.
    public func masked(_ text: String) -> String {
        let forms = known.withLock { $0 }
        guard !forms.texts.isEmpty, Self.holdsAny(of: forms, text) else { return text }
        var result = text
        for form in forms.texts where result.contains(form) {
            result = result.replacing(form, with: Redaction.mark)
        }
        return result
    }

    private static func holdsAny(of forms: Forms, _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for start in bytes.indices where forms.startsOne[Int(bytes[start])] {
                for form in forms.bytes where form[0] == bytes[start] && form.count <= bytes.count - start {
                    if (1..<form.count).allSatisfy({ bytes[start + $0] == form[$0] }) { return true }
                }
            }
            return false
        }
    }

    /// The forms a secret takes in text: as is, URL-encoded (a userinfo, a query), base64
    /// (Basic authentication, an archive's header) and hex.
    static func forms(of secret: String) -> [String] {
        let bytes = Array(secret.utf8)
        func percentEncoded(uppercase: Bool) -> String {
            secret.utf8.map { byte -> String in
                let character = Character(Unicode.Scalar(byte))
                let unreserved = byte < 0x80 && (character.isLetter || character.isNumber || "-._~".contains(character))
                return unreserved ? String(character) : "%" + hex(byte, uppercase: uppercase)
            }.joined()
        }
        let base64 = Data(bytes).base64EncodedString()
        // Base64's last quantum depends on what follows it: match the full groups only.
        let base64Stem = String(base64.prefix(base64.count - (base64.hasSuffix("=") ? 4 : 0)))
        let lowerHex = bytes.map { hex($0, uppercase: false) }.joined()
        let forms = [secret, percentEncoded(uppercase: true), percentEncoded(uppercase: false), lowerHex, lowerHex.uppercased()]
            .filter { $0.utf8.count >= minimumLength } + (base64Stem.count >= 8 ? [base64Stem] : [])
        return Array(Set(forms))
    }

    private static func hex(_ byte: UInt8, uppercase: Bool) -> String {
        let digits = Array(uppercase ? "0123456789ABCDEF" : "0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
