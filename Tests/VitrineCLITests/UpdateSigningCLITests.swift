import Foundation
import Testing
import VitrineTestSupport

/// `vitrine bundle --new-key` and `--sign-key … --sign-only` as processes, and openssl's
/// Ed25519 checking what they wrote: the key pair is the one openssl derives from the same
/// seed, and openssl verifies update.json's signature over the manifest's exact bytes.
@Suite("vitrine bundle: update keys and update.json")
struct UpdateSigningCLITests {
    static func vitrine(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess("/usr/bin/env", ["-u", "DISPLAY", "DEBEMAIL=ada@example.com", "DEBFULLNAME=Ada", try BuiltProducts.path("vitrine")] + arguments,
                       timeout: 30)
    }

    static func keyLine(_ path: String) throws -> Data {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let line = text.split(separator: "\n").last { !$0.hasPrefix("untrusted comment:") }.map(String.init) ?? ""
        return try #require(Data(base64Encoded: line))
    }

    static func pem(_ label: String, _ der: Data) -> String {
        "-----BEGIN \(label)-----\n\(der.base64EncodedString())\n-----END \(label)-----\n"
    }

    static func openssl(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess("/usr/bin/openssl", arguments, timeout: 20)
    }

    /// A project `vitrine bundle --sign-only` signs: its config and icon, and two packages in dist/.
    static func project(in folder: borrowing ConfigFolder) throws -> (deb: String, tarball: String) {
        try folder.write("Package.swift", "// swift-tools-version:6.0\n")
        try folder.write("Sources/shop/main.swift", "\n")
        try folder.write("vitrine.toml", "app-id = \"org.example.Shop\"\ntitle = \"Shop\"\n")
        try folder.write("icon.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n")
        let arch = try runProcess("/usr/bin/dpkg", ["--print-architecture"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let machine = try runProcess("/usr/bin/uname", ["-m"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return (try folder.write("dist/shop_1.1.0_\(arch).deb", "a deb's bytes"),
                try folder.write("dist/shop-1.1.0-\(machine).tar.gz", "a tarball's bytes"))
    }

    @Test func keysAreOpensslsAndItVerifiesTheSignedManifest() throws {
        let folder = try ConfigFolder()
        let keyPath = folder.url.appendingPathComponent("keys/update.key").path
        try FileManager.default.createDirectory(atPath: folder.url.appendingPathComponent("keys").path, withIntermediateDirectories: true)
        let made = try Self.vitrine(["bundle", "--new-key", keyPath])
        try #require(made.status == 0, "\(made.stderr)")
        let attributes = try FileManager.default.attributesOfItem(atPath: keyPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let publicKey = try Self.keyLine(keyPath + ".pub")
        #expect(made.stdout.contains("public-key = \"\(publicKey.base64EncodedString())\""), "\(made.stdout)")
        let again = try Self.vitrine(["bundle", "--new-key", keyPath])
        #expect(again.status != 0 && again.stderr.contains("exists"), "a second --new-key replaced the key")

        // openssl derives the same public key from the seed (PKCS#8 and SPKI wrappers of RFC 8410).
        let seed = try Self.keyLine(keyPath)
        let privatePEM = try folder.write("keys/private.pem", Self.pem("PRIVATE KEY", Data([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70,
                                                                                          0x04, 0x22, 0x04, 0x20]) + seed))
        let derived = try Self.openssl(["pkey", "-in", privatePEM, "-pubout", "-outform", "PEM"])
        let publicPEM = Self.pem("PUBLIC KEY", Data([0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00]) + publicKey)
        #expect(derived.status == 0 && derived.stdout == publicPEM, "\(derived.stdout)\(derived.stderr)")
        let publicPath = try folder.write("keys/public.pem", publicPEM)

        let project = try Self.project(in: folder)
        let signed = try Self.vitrine(["bundle", "--sign-only", "--sign-key", keyPath, "--update-url", "https://updates.example/shop",
                                       "--app-version", "1.1.0", "--notes", "Faster checkout", folder.path])
        try #require(signed.status == 0, "\(signed.stdout)\(signed.stderr)")
        let feed = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appendingPathComponent("dist/update.json"))) as? [String: Any])
        let manifestText = try #require(feed["manifest"] as? String)
        let signature = try #require(Data(base64Encoded: feed["signature"] as? String ?? ""))
        #expect(feed["public-key"] as? String == publicKey.base64EncodedString())

        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(manifestText.utf8)) as? [String: Any])
        #expect(manifest["app-id"] as? String == "org.example.Shop" && manifest["version"] as? String == "1.1.0")
        #expect(manifest["notes"] as? String == "Faster checkout" && manifest["channel"] as? String == "stable")
        let files = try #require(manifest["files"] as? [String: [String: Any]])
        let deb = try #require(files["deb"]), tarball = try #require(files["tarball"])
        #expect(deb["url"] as? String == "https://updates.example/shop/" + URL(fileURLWithPath: project.deb).lastPathComponent)
        #expect(tarball["size"] as? Int == "a tarball's bytes".utf8.count)
        let sha = try runProcess("/usr/bin/sha256sum", [project.tarball]).stdout.prefix(64)
        #expect(tarball["sha256"] as? String == String(sha))

        let signatureFile = folder.url.appendingPathComponent("sig.bin")
        try signature.write(to: signatureFile)
        let manifestFile = try folder.write("manifest.json", manifestText)
        let verified = try Self.openssl(["pkeyutl", "-verify", "-pubin", "-inkey", publicPath, "-rawin", "-in", manifestFile,
                                         "-sigfile", signatureFile.path])
        #expect(verified.status == 0 && verified.stdout.contains("Signature Verified Successfully"), "\(verified.stdout)\(verified.stderr)")
        let tampered = try folder.write("tampered.json", manifestText.replacingOccurrences(of: "1.1.0", with: "1.1.1"))
        let refused = try Self.openssl(["pkeyutl", "-verify", "-pubin", "-inkey", publicPath, "-rawin", "-in", tampered, "-sigfile", signatureFile.path])
        #expect(refused.status != 0)
    }

    @Test func aReadableKeyOrAPlainHTTPURLIsRefused() throws {
        let folder = try ConfigFolder()
        let keyPath = folder.url.appendingPathComponent("update.key").path
        try #require(try Self.vitrine(["bundle", "--new-key", keyPath]).status == 0)
        _ = try Self.project(in: folder)
        let base = ["bundle", "--sign-only", "--sign-key", keyPath, "--app-version", "1.1.0", folder.path]
        let plain = try Self.vitrine(base + ["--update-url", "http://updates.example/shop"])
        #expect(plain.status != 0 && plain.stderr.contains("neither https nor http to a loopback host"), "\(plain.stderr)")
        let noURL = try Self.vitrine(base)
        #expect(noURL.status != 0 && noURL.stderr.contains("--update-url"), "\(noURL.stderr)")
        chmod(keyPath, 0o644)
        let open = try Self.vitrine(base + ["--update-url", "https://updates.example/shop"])
        #expect(open.status != 0 && open.stderr.contains("chmod 600"), "\(open.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("dist/update.json").path))
    }
}
