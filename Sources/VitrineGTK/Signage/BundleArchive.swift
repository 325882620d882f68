import CArchive
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// A downloaded bundle archive (zip, or tar with any compression) read with libarchive:
/// first its headers only (`entries`), judged by the core's `BundleArchiveRules`; then,
/// once accepted, its files written by `BundleFolderWriter`. libarchive never writes to
/// the disk itself, so its own extraction rules play no part.
struct BundleArchive {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let file: URL

    /// Every entry's header, in order.
    func entries() throws -> [BundleArchiveEntry] {
        var entries: [BundleArchiveEntry] = []
        try read { archive, header in
            entries.append(Self.describe(header))
            archive_read_data_skip(archive)
        }
        return entries
    }

    /// Writes the accepted entries (`plan`, in the archive's order) into `writer`'s folder.
    func unpack(_ plan: [BundleArchiveEntry], into writer: BundleFolderWriter) throws {
        var index = 0
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        try read { archive, header in
            guard index < plan.count else { throw Failure(description: "the archive changed while it was read") }
            let entry = plan[index]
            index += 1
            guard Self.describe(header).kind == entry.kind else { throw Failure(description: "the archive changed while it was read") }
            if entry.kind == .directory {
                try writer.makeFolder(entry.path)
                return
            }
            try writer.startFile(entry.path)
            while true {
                let count = buffer.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, $0.count) }
                if count < 0 { throw Failure(description: "cannot read '\(entry.path)': \(Self.error(archive))") }
                if count == 0 { break }
                try buffer.withUnsafeBytes { try writer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            }
            try writer.finishFile()
        }
    }

    /// Opens the archive and calls `body` for each header.
    private func read(_ body: (OpaquePointer, OpaquePointer) throws -> Void) throws {
        if let missing = vitrine_archive_unavailable() {
            throw Failure(description: "bundles need libarchive (Debian's libarchive13): \(String(cString: missing))")
        }
        guard let archive = archive_read_new() else { throw Failure(description: "libarchive is out of memory") }
        defer { archive_read_free(archive) }
        archive_read_support_format_zip(archive)
        archive_read_support_format_tar(archive)
        archive_read_support_filter_all(archive)
        guard archive_read_open_filename(archive, file.path, 64 * 1024) == ARCHIVE_OK else {
            throw Failure(description: "not a zip or tar archive: \(Self.error(archive))")
        }
        var header: OpaquePointer?
        while true {
            let status = archive_read_next_header(archive, &header)
            if status == ARCHIVE_EOF { return }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let header else {
                throw Failure(description: "a damaged archive: \(Self.error(archive))")
            }
            try body(archive, header)
        }
    }

    private static func describe(_ header: OpaquePointer) -> BundleArchiveEntry {
        let path = (archive_entry_pathname_utf8(header) ?? archive_entry_pathname(header)).map { String(cString: $0) } ?? ""
        let kind: BundleArchiveEntry.Kind
        if archive_entry_hardlink(header) != nil {
            kind = .hardlink
        } else {
            // AE_IFREG, AE_IFDIR, AE_IFLNK (casts in C, so not imported).
            switch archive_entry_filetype(header) {
            case 0o100000: kind = .file
            case 0o040000: kind = .directory
            case 0o120000: kind = .symlink
            default: kind = .special
            }
        }
        return BundleArchiveEntry(path: path, kind: kind, size: archive_entry_size_is_set(header) != 0 ? archive_entry_size(header) : 0)
    }

    private static func error(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "unknown error"
    }
}
