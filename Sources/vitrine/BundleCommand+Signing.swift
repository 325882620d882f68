#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Vitrine
import VitrineSigning
import VitrineTooling

/// `vitrine bundle --new-key FILE` and `--sign-key FILE`: the update signing key pair, and
/// dist/update.json, the manifest of the packages just written signed with it.
extension BundleCommand {
    /// Writes the key pair: FILE (the secret seed, mode 0600, never overwritten) and FILE.pub.
    func writeNewKey(at path: String) throws {
        let publicPath = path + ".pub"
        for existing in [path, publicPath] where FileManager.default.fileExists(atPath: existing) {
            throw RuntimeFailure("\(existing) exists: vitrine bundle --new-key never replaces a key (apps trust the old one)")
        }
        let seed = Ed25519.randomSeed()
        guard let secret = UpdateSigningKey(seed: seed), let key = UpdatePublicKey(bytes: try Ed25519.publicKey(seed: seed)) else {
            throw RuntimeFailure("libgcrypt made no key")
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw RuntimeFailure("cannot create \(path): \(String(cString: strerror(errno)))") }
        let bytes = Array(secret.fileText.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == bytes.count else { throw RuntimeFailure("cannot write \(path)") }
        try Data(key.fileText.utf8).write(to: URL(fileURLWithPath: publicPath))
        print("wrote \(path) (secret: keep it off the project and out of version control) and \(publicPath)")
        print("the app's vitrine.toml:\n[update]\npublic-key = \"\(key)\"")
    }

    /// The signing key and base URL, checked before the release build (which takes minutes).
    func signingKey() throws -> UpdateSigningKey? {
        guard let signKey else {
            if updateURL != nil { throw RuntimeFailure("--update-url needs --sign-key FILE (the key update.json is signed with)") }
            if signOnly { throw RuntimeFailure("--sign-only needs --sign-key FILE") }
            return nil
        }
        guard updateURL != nil else { throw RuntimeFailure("--sign-key needs --update-url URL: where dist/'s files will be published") }
        switch Result(catching: { () throws(UpdateKeyFileError) in try UpdateSigningKey.read(path: signKey) }) {
        case .success(let key): return key
        case .failure(let error): throw RuntimeFailure(error.description)
        }
    }

    /// Hashes the packages in `dist` and writes dist/update.json signed with `key`.
    func writeUpdateFeed(_ bundle: AppPackage, files: [(UpdateFormat, URL)], key: UpdateSigningKey, in dist: URL) throws -> URL {
        let released = try files.map { format, url in
            guard let bytes = FileManager.default.contents(atPath: url.path) else {
                throw RuntimeFailure("\(url.path) is missing: run vitrine bundle without --sign-only first")
            }
            return ReleasedFile(format: format, fileName: url.lastPathComponent, size: bytes.count, sha256: SHA256.hash(Array(bytes)))
        }
        let manifest: UpdateManifest
        do { manifest = try bundle.updateManifest(files: released, baseURL: updateURL ?? "", channel: channel, notes: notes) } catch {
            throw RuntimeFailure(error.description)
        }
        let text = manifest.signedText
        let publicKey = UpdatePublicKey(bytes: try Ed25519.publicKey(seed: key.seed))!
        let feed = UpdateFeed(manifest: text, signature: try Ed25519.sign(Array(text.utf8), seed: key.seed), publicKey: publicKey)
        let path = dist.appendingPathComponent(AppPackage.updateFeedName)
        try FileSystem.replaceAtomically(path.path, with: Array(feed.fileText.utf8))
        return path
    }
}
