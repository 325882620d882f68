#if canImport(Glibc)
import Glibc
#endif
import CWebKitGTK

/// Memory of this process that the page never needs once it has loaded.
///
/// The program's own code is one file of about 12 MB (the Swift runtime and Foundation linked
/// in): the kernel maps it in 64 KB runs around each page run, so parsing options, reading
/// the configuration and building the first window leave megabytes of it mapped that no
/// later event runs. Once the first page has loaded, the read-only mappings of the program
/// file are dropped from this process (`MADV_DONTNEED`; the pages stay in the page cache and
/// come back with a minor fault where code runs again), and malloc's free memory goes back
/// to the system (`malloc_trim`).
enum ProcessMemory {
    /// Releases what the start used; once per process is enough.
    static func releaseStartupMemory() {
        for mapping in programMappings() {
            _ = madvise(UnsafeMutableRawPointer(bitPattern: mapping.lowerBound), Int(mapping.upperBound - mapping.lowerBound), MADV_DONTNEED)
        }
        _ = malloc_trim(0)
    }

    /// The program file's mappings that hold nothing of this process's own: read-only or
    /// executable, private, with no page copied on write (relocated data is, and must stay).
    static func programMappings() -> [Range<UInt>] {
        guard let program = realPath("/proc/self/exe"), let smaps = readText("/proc/self/smaps") else { return [] }
        var ranges: [Range<UInt>] = []
        var candidate: Range<UInt>?
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
                // "start-end perms offset dev inode path"
                candidate = nil
                guard fields.count >= 6, String(fields[5...].joined(separator: " ")) == program,
                      fields[1] == "r-xp" || fields[1] == "r--p" else { continue }
                let bounds = first.split(separator: "-").compactMap { UInt($0, radix: 16) }
                if bounds.count == 2, bounds[0] < bounds[1] { candidate = bounds[0]..<bounds[1] }
            } else if let range = candidate, fields.first == "Anonymous:" {
                if fields.count >= 2, fields[1] == "0" { ranges.append(range) }
                candidate = nil
            }
        }
        return ranges
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func readText(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
