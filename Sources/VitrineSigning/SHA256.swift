import CGcrypt

/// SHA-256 through libgcrypt, fed in pieces: a download is hashed as it arrives.
public final class SHA256 {
    private let handle: gcry_md_hd_t

    public init() {
        Gcrypt.initialize()
        var opened: gcry_md_hd_t?
        // Fails only when libgcrypt lacks SHA-256, which no build of it does.
        precondition(gcry_md_open(&opened, Int32(GCRY_MD_SHA256.rawValue), 0) == 0 && opened != nil, "libgcrypt has no SHA-256")
        handle = opened!
    }

    deinit {
        gcry_md_close(handle)
    }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        gcry_md_write(handle, bytes.baseAddress, bytes.count)
    }

    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything fed so far.
    public func digest() -> [UInt8] {
        guard let raw = gcry_md_read(handle, Int32(GCRY_MD_SHA256.rawValue)) else { return [] }
        return Array(UnsafeBufferPointer(start: raw, count: 32))
    }

    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        let hasher = SHA256()
        hasher.update(bytes)
        return hasher.digest()
    }
}
