import Foundation
import Testing
@testable import VitrineGTK

extension WebKitTests {
    /// The start-up memory release drops only the program file's read-only mappings, never
    /// one holding pages of its own (relocated data), and the program runs on after it.
    @Suite
    struct ProcessMemoryTests {
        /// The program file's resident kilobytes in mappings of `permissions`, from smaps.
        private static func residentKiB(permissions: Set<String>) throws -> Int {
            let program = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
            var counting = false, total = 0
            for line in String(decoding: procFile("/proc/self/smaps"), as: UTF8.self).split(separator: "\n") {
                let fields = line.split(separator: " ")
                if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
                    counting = fields.count >= 6 && fields[5...].joined(separator: " ") == program && permissions.contains(String(fields[1]))
                } else if counting, fields.first == "Rss:", fields.count >= 2 {
                    total += Int(fields[1]) ?? 0
                }
            }
            return total
        }

        @Test func onlyTheProgramsReadOnlyMappingsAreReleased() throws {
            let mappings = ProcessMemory.programMappings()
            #expect(!mappings.isEmpty, "the program file's code is mapped")
            // A function of this program lies in one of them.
            let function: @convention(c) () -> Void = {}
            let code = unsafeBitCast(function, to: UInt.self)
            #expect(mappings.contains { $0.contains(code) })
            let before = try Self.residentKiB(permissions: ["r-xp", "r--p"])
            let writable = try Self.residentKiB(permissions: ["rw-p"])
            ProcessMemory.releaseStartupMemory()
            let after = try Self.residentKiB(permissions: ["r-xp", "r--p"])
            #expect(after < before, "resident \(before) KiB before, \(after) KiB after")
            #expect(try Self.residentKiB(permissions: ["rw-p"]) >= writable, "written data stays")
        }
    }
}
