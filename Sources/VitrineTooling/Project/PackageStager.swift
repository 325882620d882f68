#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Writes `AppPackage` entries into a staging folder, with the modes a package wants (0755
/// for programs and folders, 0644 for the rest). A symbolic link or a special file inside
/// a copied folder is refused, not followed: a link in `web/` to `~/.ssh/id_ed25519` would
/// otherwise ship the developer's key to every machine that installs the app.
public struct PackageStager {
    public let root: URL
    /// Compresses a written file in place (`path` → `path.gz`, as `gzip -9n` does).
    let gzip: (URL) throws -> Void

    public init(root: URL, gzip: @escaping (URL) throws -> Void) {
        self.root = root
        self.gzip = gzip
    }

    /// Writes every entry under `root` (which must not exist yet: a stale file from an
    /// earlier run would ship too).
    public func stage(_ entries: [AppPackage.Entry]) throws(AppPackageError) {
        do {
            guard !FileManager.default.fileExists(atPath: root.path) else {
                throw AppPackageError("\(root.path) exists: remove it first")
            }
            try makeFolder(root)
            for entry in entries {
                let target = root.appendingPathComponent(entry.path)
                try makeFolder(target.deletingLastPathComponent())
                switch entry.source {
                case .file(let source, let executable):
                    try copyFile(source, to: target, mode: executable ? 0o755 : 0o644)
                case .folder(let source):
                    try copyFolder(source, to: target)
                case .text(let text):
                    try write(text, to: target)
                case .gzippedText(let text):
                    guard target.pathExtension == "gz" else { throw AppPackageError("\(entry.path) does not end in .gz") }
                    let plain = target.deletingPathExtension()
                    try write(text, to: plain)
                    try gzip(plain)
                    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path)
                case .symlink(let destination):
                    try FileManager.default.createSymbolicLink(atPath: target.path, withDestinationPath: destination)
                }
            }
        } catch let error as AppPackageError {
            throw error
        } catch {
            throw AppPackageError("cannot stage the bundle in \(root.path): \(error)")
        }
    }

    private func makeFolder(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
    }

    private func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
    }

    private func copyFile(_ source: URL, to target: URL, mode: Int) throws {
        guard kind(source) == .typeRegular else {
            throw AppPackageError("\(source.path) is not a regular file (a symbolic link or a special file is not bundled)")
        }
        try FileManager.default.copyItem(at: source, to: target)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: target.path)
    }

    /// Copies a folder's regular files (0644) and folders; refuses anything else inside it.
    private func copyFolder(_ source: URL, to target: URL) throws {
        guard kind(source) == .typeDirectory else {
            throw AppPackageError("\(source.path) is not a folder (a symbolic link to one is not followed)")
        }
        try makeFolder(target)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path).sorted() {
            let from = source.appendingPathComponent(name), to = target.appendingPathComponent(name)
            switch kind(from) {
            case .typeDirectory: try copyFolder(from, to: to)
            case .typeRegular: try copyFile(from, to: to, mode: 0o644) // web files are data, never run
            default:
                throw AppPackageError("\(from.path) is a symbolic link or a special file: a bundle ships only regular files and folders (copy the file it names into the folder instead)")
            }
        }
    }

    /// The item's own type (a symbolic link is not followed).
    private func kind(_ url: URL) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
    }
}
