import Foundation
import Testing
import Vitrine
import VitrineSigning

/// Ed25519 and SHA-256 through libgcrypt, against RFC 8032's and FIPS 180's own vectors.
@Suite("Update signing: Ed25519 and SHA-256 vectors")
struct UpdateSigningTests {
    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    /// RFC 8032 section 7.1, tests 1 and 2.
    static let vectors: [(seed: String, publicKey: String, message: String, signature: String)] = [
        ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
         "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
         "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
        ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
         "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
         "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
    ]

    @Test(arguments: 0..<2) func rfc8032Vectors(index: Int) throws {
        let vector = Self.vectors[index]
        let seed = Self.bytes(vector.seed), message = Self.bytes(vector.message)
        #expect(try Ed25519.publicKey(seed: seed) == Self.bytes(vector.publicKey))
        #expect(try Ed25519.sign(message, seed: seed) == Self.bytes(vector.signature))
        #expect(Ed25519.isValid(signature: Self.bytes(vector.signature), message: message, publicKey: Self.bytes(vector.publicKey)))
    }

    @Test func anyChangedByteInvalidates() throws {
        let vector = Self.vectors[1]
        let signature = Self.bytes(vector.signature), key = Self.bytes(vector.publicKey)
        #expect(!Ed25519.isValid(signature: signature, message: [0x73], publicKey: key))
        var flipped = signature
        flipped[40] ^= 1
        #expect(!Ed25519.isValid(signature: flipped, message: [0x72], publicKey: key))
        #expect(!Ed25519.isValid(signature: signature, message: [0x72], publicKey: Self.bytes(Self.vectors[0].publicKey)))
        #expect(!Ed25519.isValid(signature: Array(signature.prefix(63)), message: [0x72], publicKey: key))
        #expect(!Ed25519.isValid(signature: signature, message: [0x72], publicKey: []))
    }

    @Test func freshSeedsSignAndVerify() throws {
        let seed = Ed25519.randomSeed()
        #expect(seed.count == 32 && seed != Ed25519.randomSeed())
        let message = Array("a manifest".utf8)
        let signature = try Ed25519.sign(message, seed: seed)
        #expect(Ed25519.isValid(signature: signature, message: message, publicKey: try Ed25519.publicKey(seed: seed)))
        #expect(throws: SigningError.self) { try Ed25519.sign(message, seed: [1, 2, 3]) }
    }

    @Test func sha256Vectors() {
        #expect(SHA256.hash([]) == Self.bytes("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
        let hasher = SHA256()
        hasher.update(Array("a".utf8))
        hasher.update(Array("bc".utf8))
        #expect(hasher.digest() == Self.bytes("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
    }
}
