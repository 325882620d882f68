import CGcrypt

/// Ed25519 (RFC 8032) through libgcrypt, which WebKit already links: the signature of an
/// update's manifest. Keys and signatures are raw bytes (a 32-byte seed, a 32-byte public
/// key, a 64-byte signature), the forms openssl and minisign use too.
public enum Ed25519 {
    public static let seedLength = 32
    public static let publicKeyLength = 32
    public static let signatureLength = 64

    /// A fresh secret seed from libgcrypt's strongest random source.
    public static func randomSeed() -> [UInt8] {
        Gcrypt.initialize()
        var seed = [UInt8](repeating: 0, count: seedLength)
        seed.withUnsafeMutableBytes { gcry_randomize($0.baseAddress, seedLength, GCRY_VERY_STRONG_RANDOM) }
        return seed
    }

    /// The public key of `seed`: libgcrypt derives the point from the secret.
    public static func publicKey(seed: [UInt8]) throws(SigningError) -> [UInt8] {
        guard seed.count == seedLength else { throw .badLength("seed", seed.count) }
        let key = try SExpression(canonical: [.text("private-key"), .list([.text("ecc"), curve, flags, .pair("d", seed)])])
        var context: gcry_ctx_t?
        guard gcry_mpi_ec_new(&context, key.handle, nil) == 0, let context else { throw .library("gcry_mpi_ec_new") }
        defer { gcry_ctx_release(context) }
        guard let point = gcry_mpi_ec_get_mpi("q@eddsa", context, 1) else { throw .library("q@eddsa") }
        defer { gcry_mpi_release(point) }
        var bits: UInt32 = 0
        guard let raw = gcry_mpi_get_opaque(point, &bits) else { throw .library("gcry_mpi_get_opaque") }
        return compactPoint(Array(UnsafeRawBufferPointer(start: raw, count: Int(bits + 7) / 8)))
    }

    /// The signature of `message` by the key whose secret is `seed`.
    public static func sign(_ message: [UInt8], seed: [UInt8]) throws(SigningError) -> [UInt8] {
        let q = try publicKey(seed: seed)
        let key = try SExpression(canonical: [.text("private-key"), .list([.text("ecc"), curve, flags, .pair("q", q), .pair("d", seed)])])
        let data = try dataExpression(message)
        var result: gcry_sexp_t?
        guard gcry_pk_sign(&result, data.handle, key.handle) == 0, let result else { throw .library("gcry_pk_sign") }
        let signature = SExpression(owning: result)
        guard let r = signature.value(of: "r"), let s = signature.value(of: "s") else { throw .library("sig-val") }
        return leftPadded(r, to: 32) + leftPadded(s, to: 32)
    }

    /// Whether `signature` is `publicKey`'s over exactly `message`. Anything malformed is invalid.
    public static func isValid(signature: [UInt8], message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == signatureLength, publicKey.count == publicKeyLength,
              let key = try? SExpression(canonical: [.text("public-key"), .list([.text("ecc"), curve, flags, .pair("q", publicKey)])]),
              let data = try? dataExpression(message),
              let sig = try? SExpression(canonical: [.text("sig-val"), .list([.text("eddsa"),
                                         .pair("r", Array(signature[0..<32])), .pair("s", Array(signature[32...]))])])
        else { return false }
        return gcry_pk_verify(sig.handle, data.handle, key.handle) == 0
    }

    private static let curve = SExpression.Item.list([.text("curve"), .text("Ed25519")])
    private static let flags = SExpression.Item.list([.text("flags"), .text("eddsa")])

    private static func dataExpression(_ message: [UInt8]) throws(SigningError) -> SExpression {
        Gcrypt.initialize()
        var made: gcry_sexp_t?
        guard message.withUnsafeBytes({ vitrine_gcry_eddsa_data(&made, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), $0.count) }) == 0,
              let made else { throw .library("gcry_sexp_build") }
        return SExpression(owning: made)
    }

    /// libgcrypt may mark a compact point with a 0x40 prefix byte.
    private static func compactPoint(_ bytes: [UInt8]) -> [UInt8] {
        bytes.count == publicKeyLength + 1 && bytes[0] == 0x40 ? Array(bytes.dropFirst()) : bytes
    }

    private static func leftPadded(_ bytes: [UInt8], to length: Int) -> [UInt8] {
        bytes.count >= length ? Array(bytes.suffix(length)) : [UInt8](repeating: 0, count: length - bytes.count) + bytes
    }
}

/// Why a signing operation could not run (never why a signature is invalid: that is `false`).
public enum SigningError: Error, Equatable, CustomStringConvertible {
    case badLength(String, Int)
    case library(String)

    public var description: String {
        switch self {
        case .badLength(let what, let count): "the \(what) has \(count) bytes, not the length Ed25519 needs"
        case .library(let call): "libgcrypt failed in \(call)"
        }
    }
}

enum Gcrypt {
    static func initialize() {
        _ = once
    }

    private static let once: Bool = vitrine_gcry_initialize() != 0
}
