import Foundation
import Testing
import Vitrine
import VitrineSigning

/// What makes a feed an update to install, and each reason one is refused: every refusal
/// here fails when its check in `UpdateFeedCheck` / `UpdateDownloadCheck` is removed.
@Suite("Updates: feed verification, refusals, versions, keys")
struct UpdateCheckTests {
    static let seed = UpdateSigningTests.bytes("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
    static let otherSeed = UpdateSigningTests.bytes("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb")
    static let key = UpdatePublicKey(bytes: try! Ed25519.publicKey(seed: seed))!
    static let otherKey = UpdatePublicKey(bytes: try! Ed25519.publicKey(seed: otherSeed))!
    static let tarball = UpdateFile(url: "https://updates.example/shop-1.1.0.tar.gz", size: 5, sha256: hex(SHA256.hash(Array("hello".utf8))))

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func manifest(version: String = "1.1.0", app: String = "org.example.Shop", channel: String = "stable",
                         file: UpdateFile = tarball) -> UpdateManifest {
        UpdateManifest(appID: app, package: "shop", version: version, channel: channel, notes: "Faster checkout", files: [.tarball: file])
    }

    static func feed(_ manifest: UpdateManifest = manifest(), signedBy seed: [UInt8] = seed, naming key: UpdatePublicKey = key,
                     tamper: (String) -> String = { $0 }) -> [UInt8] {
        let text = manifest.signedText
        let signature = try! Ed25519.sign(Array(text.utf8), seed: seed)
        return Array(UpdateFeed(manifest: tamper(text), signature: signature, publicKey: key).fileText.utf8)
    }

    static let check = UpdateFeedCheck(appID: "org.example.Shop", running: UpdateVersion("1.0.0")!, channel: "stable",
                                       publicKey: key, format: .tarball, signatureIsValid: Ed25519.isValid)

    static func refusal(_ feed: [UInt8]) -> UpdateRefusal? {
        if case .failure(let refusal) = check.verify(feed) { return refusal }
        return nil
    }

    @Test func aGoodFeedIsAnOffer() throws {
        let offer = try Self.check.verify(Self.feed()).get()
        #expect(offer.version == UpdateVersion("1.1.0") && offer.notes == "Faster checkout" && offer.file == Self.tarball)
        #expect(offer.package == "shop" && offer.format == .tarball)
    }

    @Test func aTamperedManifestIsABadSignature() {
        let tampered = Self.feed { $0.replacingOccurrences(of: "shop-1.1.0", with: "evil-1.1.0") }
        #expect(Self.refusal(tampered) == .badSignature)
        #expect(Self.refusal(Self.feed { $0 + " " }) == .badSignature, "a byte added after the signed text")
    }

    @Test func anotherKeysSignatureIsRefused() {
        #expect(Self.refusal(Self.feed(signedBy: Self.otherSeed, naming: Self.otherKey)) == .wrongKey)
        // The feed claims the app's key, but another key signed it.
        #expect(Self.refusal(Self.feed(signedBy: Self.otherSeed)) == .badSignature)
    }

    @Test func downgradesAndTheSameVersionAreRefused() {
        #expect(Self.refusal(Self.feed(Self.manifest(version: "0.9.9"))) == .notNewer(offered: "0.9.9", running: "1.0.0"))
        #expect(Self.refusal(Self.feed(Self.manifest(version: "1.0.0"))) == .notNewer(offered: "1.0.0", running: "1.0.0"))
        #expect(Self.refusal(Self.feed(Self.manifest(version: "1.0"))) == .notNewer(offered: "1.0", running: "1.0.0"))
        #expect(Self.refusal(Self.feed(Self.manifest(version: "1.1.0-beta.1"))) == nil)
    }

    @Test func anotherAppOrChannelIsRefused() {
        #expect(Self.refusal(Self.feed(Self.manifest(app: "org.example.Other"))) == .otherApp("org.example.Other"))
        #expect(Self.refusal(Self.feed(Self.manifest(channel: "beta"))) == .otherChannel("beta"))
    }

    @Test func filesMustBeHTTPSOrLoopback() {
        var file = Self.tarball
        file.url = "http://updates.example/shop.tar.gz"
        #expect(Self.refusal(Self.feed(Self.manifest(file: file))) == .insecureURL(file.url))
        file.url = "http://127.0.0.1:8080/shop.tar.gz"
        #expect(Self.refusal(Self.feed(Self.manifest(file: file))) == nil)
        #expect(throws: UpdateRefusal.insecureURL("http://updates.example/update.json")) {
            try UpdateFeedCheck.checkFeedURL("http://updates.example/update.json").get()
        }
        #expect(throws: UpdateRefusal.insecureURL("file:///etc/passwd")) { try UpdateFeedCheck.checkFeedURL("file:///etc/passwd").get() }
        #expect((try? UpdateFeedCheck.checkFeedURL("https://updates.example/update.json").get()) != nil)
        #expect((try? UpdateFeedCheck.checkFeedURL("http://localhost:9/update.json").get()) != nil)
    }

    @Test func garbageFeedsAreMalformed() {
        for garbage in ["", "null", "[]", "{\"manifest\": 1}", String(repeating: "x", count: 300_000)] {
            guard case .malformedFeed = Self.refusal(Array(garbage.utf8)) else { Issue.record("\(garbage.prefix(20)) accepted"); continue }
        }
        #expect(Self.refusal(Self.feed(Self.manifest(file: UpdateFile(url: Self.tarball.url, size: 5, sha256: "zz")))) != nil)
        #expect(Self.refusal(Self.feed(Self.manifest(version: "1.x"))) == .malformedFeed("version 1.x is not a version"))
        let debOnly = UpdateManifest(appID: "org.example.Shop", package: "shop", version: "2.0.0", channel: "stable", notes: "",
                                     files: [.deb: Self.tarball])
        #expect(Self.refusal(Self.feed(debOnly)) == .noFile(.tarball))
    }

    @Test func downloadsAreCappedAndHashed() {
        let download = UpdateDownloadCheck(file: Self.tarball)
        let hash = SHA256.hash(Array("hello".utf8))
        #expect(download.check(received: 5) == nil)
        #expect(download.check(received: 6) == .oversize(limit: 5))
        #expect(download.finish(received: 5, completed: true, sha256: hash) == nil)
        #expect(download.finish(received: 3, completed: false, sha256: hash) == .interrupted(received: 3, expected: 5))
        #expect(download.finish(received: 3, completed: true, sha256: hash) == .interrupted(received: 3, expected: 5))
        // All bytes arrived but the transfer reported a failure: not trusted either.
        #expect(download.finish(received: 5, completed: false, sha256: hash) == .interrupted(received: 5, expected: 5))
        #expect(download.finish(received: 5, completed: true, sha256: SHA256.hash(Array("hellp".utf8))) == .hashMismatch)
    }

    @Test func versionsCompareAsNumbers() {
        func v(_ text: String) -> UpdateVersion { UpdateVersion(text)! }
        #expect(v("1.10.0") > v("1.9.9"))
        #expect(v("2") > v("1.99"))
        #expect(v("1.2.0-beta.2") < v("1.2.0") && v("1.2.0-beta.2") > v("1.2.0-beta.1") && v("1.2.0-beta.10") > v("1.2.0-beta.9"))
        #expect(v("1.2") == v("1.2.0"))
        for bad in ["", "1.", ".1", "v1.0", "1.0-", "1.0-be ta", "1..2", "1.2.3.4.5", "99999999999"] {
            #expect(UpdateVersion(bad) == nil, "\(bad)")
        }
    }

    @Test func keysHaveTextFormsAndTheSecretIsRedacted() throws {
        let signing = try #require(UpdateSigningKey(seed: Self.seed))
        #expect("\(signing)" == "<redacted>" && String(reflecting: signing) == "<redacted>")
        #expect(!String(describing: Mirror(reflecting: signing).children.map(\.value)).contains(signing.secret.revealed))
        #expect(UpdateSigningKey(fileText: signing.fileText)?.seed == Self.seed)
        #expect(UpdatePublicKey.parse(fileText: Self.key.fileText) == Self.key)
        #expect(UpdatePublicKey(Self.key.description) == Self.key && Self.key.description.count == 44)
        #expect(UpdatePublicKey("AAAA") == nil)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("update.key").path
        try signing.fileText.write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o640)
        #expect(throws: UpdateKeyFileError.tooOpen(path, mode: 0o640)) { try UpdateSigningKey.read(path: path) }
        chmod(path, 0o600)
        #expect(try UpdateSigningKey.read(path: path).seed == Self.seed)
    }
}
