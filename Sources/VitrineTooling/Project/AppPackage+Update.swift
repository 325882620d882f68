#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// One package file `vitrine bundle` wrote, as an update offers it.
public struct ReleasedFile: Sendable, Equatable {
    public let format: UpdateFormat
    public let fileName: String
    public let size: Int
    public let sha256: [UInt8]

    public init(format: UpdateFormat, fileName: String, size: Int, sha256: [UInt8]) {
        self.format = format
        self.fileName = fileName
        self.size = size
        self.sha256 = sha256
    }
}

extension AppPackage {
    /// The manifest `update.json` signs: this package's version, its files under `baseURL`
    /// (where dist/ is published), the channel and the notes.
    public func updateManifest(files: [ReleasedFile], baseURL: String, channel: String, notes: String) throws(AppPackageError) -> UpdateManifest {
        guard case .success = UpdateFeedCheck.checkFeedURL(baseURL) else {
            throw AppPackageError("--update-url \(baseURL) is neither https nor http to a loopback host: apps refuse to download from it")
        }
        guard UpdateVersion(metadata.version) != nil else {
            throw AppPackageError("the version \(metadata.version) cannot be compared for updates: write it as numbers, 1.2.0 or 1.2.0-beta.1")
        }
        let base = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        let entries = files.map { file in
            (file.format, UpdateFile(url: base + file.fileName, // package names, versions and machines: no character to escape
                                     size: file.size, sha256: file.sha256.map { byte in
                                         let digits = String(byte, radix: 16)
                                         return digits.count == 1 ? "0" + digits : digits
                                     }.joined()))
        }
        return UpdateManifest(appID: metadata.appID, package: metadata.packageName, version: metadata.version, channel: channel,
                              notes: notes, files: Dictionary(uniqueKeysWithValues: entries))
    }

    /// The file `vitrine bundle --sign-key` writes beside the packages.
    public static let updateFeedName = "update.json"
}
