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
}
