import Foundation
import Testing
import VitrineTestSupport

/// The shipped program uses FoundationEssentials only. A single call of an API that only
/// full Foundation has (a `String` method of its `StringProtocol` extension, `FileHandle`,
/// `DateFormatter`…) makes the static release link pull in all of Foundation and, through
/// its internationalization, ICU: 34 MB of data (`make size-check` measures the release
/// program itself; this is the quick check on the debug build).
@Suite
struct FoundationUseTests {
    /// The Swift modules whose symbols must not be referenced, as they appear in mangled names.
    static let modulesBringingICU = ["10Foundation", "30FoundationInternationalization", "20FoundationNetworking",
                                     "13FoundationXML", "14_FoundationICU"]

    @Test func theProgramReferencesNoSymbolOfFullFoundation() throws {
        let program = try BuiltProducts.path("vitrine")
        let undefined = try runProcess("/usr/bin/env", ["nm", "--undefined-only", program], timeout: 60)
        #expect(undefined.status == 0, "\(undefined.stderr)")
        let symbols = undefined.stdout.split(separator: "\n").map { $0.split(separator: " ").last.map(String.init) ?? "" }
        #expect(symbols.count > 100, "nm listed too few symbols to judge: \(symbols.count)")
        let offending = symbols.filter { symbol in Self.modulesBringingICU.contains { symbol.contains($0) } }
        #expect(offending.isEmpty, """
            `vitrine` calls full Foundation (and so links ICU into the release build): \
            \(offending.prefix(5).joined(separator: ", ")) (demangle with swift demangle)
            """)
    }

    /// FoundationEssentials holds a file's `.size` attribute as `UInt`; `as? Int` finds it only
    /// where full Foundation is loaded (which bridges through NSNumber): in the debug program
    /// and every test process, never in the release program, where `vitrine bundle` printed
    /// every file as "0 KiB". So the shipped sources read sizes with stat (`FileSystem.size`).
    @Test func noSourceCastsASizeAttributeToAnotherType() throws {
        let sources = Documentation.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(files.count > 50, "too few sources found to judge: \(files.count)")
        let casting = try files.filter { file in
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            return text.range(of: #"\[\.size\]\s*as\?\s*(?!UInt\b)"#, options: .regularExpression) != nil
        }
        #expect(casting.isEmpty, "a size attribute cast to a type FoundationEssentials does not hold: \(casting)")
    }
}
