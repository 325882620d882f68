import Foundation
import Testing
import VitrineTestSupport

/// `vitrine-types`: the page's declarations from an app's Swift sources.
@Suite
struct VitrineTypesTests {
    static let checkout = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func generate(root: String, _ inputs: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess(try Self.generator.get(), ["--root", root] + inputs, timeout: 30)
    }

    /// The generator is a package of its own (Tools/vitrine-types, swift-syntax), which the
    /// checkout's `swift build` does not build: built here once. Its sources are compiled
    /// against the toolchain's own swift-syntax (`lib/swift/host`, what compiler plugins
    /// link) where the toolchain has it: seconds, where building the package's swift-syntax
    /// took minutes of a fresh clone's test run. Elsewhere, as `make vitrine-types` does.
    static let generator = Result<String, any Error> {
        if let built = try buildAgainstToolchainSwiftSyntax() { return built }
        let package = checkout.appendingPathComponent("Tools/vitrine-types").path
        let build = ["swift", "build", "--package-path", package, "--product", "vitrine-types"]
        let built = try runProcess("/usr/bin/env", build, timeout: 1800)
        guard built.status == 0 else { throw GeneratorBuildFailed(output: built.stdout + built.stderr) }
        let binPath = try runProcess("/usr/bin/env", Array(build.dropLast(2)) + ["--show-bin-path"], timeout: 120)
        return binPath.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + "/vitrine-types"
    }

    /// The generator compiled with `swiftc` against the toolchain's SwiftSyntax and
    /// SwiftParser, into the checkout's `.build`; nil when the toolchain has none.
    static func buildAgainstToolchainSwiftSyntax() throws -> String? {
        let info = try runProcess("/usr/bin/env", ["swiftc", "-print-target-info"], timeout: 60)
        guard let object = try? JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any],
              let paths = object["paths"] as? [String: Any], let resources = paths["runtimeResourcePath"] as? String
        else { return nil }
        let host = resources + "/host"
        guard ["libSwiftSyntax.so", "libSwiftParser.so", "SwiftSyntax.swiftmodule", "SwiftParser.swiftmodule"]
            .allSatisfy({ FileManager.default.fileExists(atPath: host + "/" + $0) }) else { return nil }
        let sources = checkout.appendingPathComponent("Tools/vitrine-types/Sources/vitrine-types")
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".swift") }.sorted()
        let folder = checkout.appendingPathComponent(".build/vitrine-types-host")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("vitrine-types").path
        let built = try runProcess("/usr/bin/env", ["swiftc", "-Onone", "-module-name", "vitrine_types", "-I", host, "-L", host,
                                                    "-lSwiftSyntax", "-lSwiftParser", "-Xlinker", "-rpath", "-Xlinker", host]
                                   + files.map { sources.appendingPathComponent($0).path } + ["-o", output], timeout: 600)
        guard built.status == 0 else { throw GeneratorBuildFailed(output: built.stdout + built.stderr) }
        return output
    }

    struct GeneratorBuildFailed: Error, CustomStringConvertible {
        let output: String
        var description: String { "swift build of Tools/vitrine-types failed:\n\(output)" }
    }

    /// The template's web/strategies.d.ts is exactly what the generator writes for the
    /// template's main.swift (and types.test.js checks it with tsc).
    @Test func theTemplatesDeclarationsAreTheGeneratorsOutput() throws {
        let app = Self.checkout.appendingPathComponent("Resources/templates/app")
        let run = try generate(root: app.path, ["Sources"])
        #expect(run.status == 0, "\(run.stderr)")
        let expected = try String(contentsOf: app.appendingPathComponent("web/strategies.d.ts"), encoding: .utf8)
        #expect(run.stdout == expected)
    }

    /// The SDK's vitrine.d.ts declares the built-in typed strategies (`page`, the
    /// capabilities, `page-error`) as the generator writes them from the Makefile's
    /// SDK_TYPE_SOURCES: run `make sdk-types` when this fails.
    @Test func theSDKsBuiltInStrategiesAreTheGeneratorsOutput() throws {
        let declarations = "Resources/sdk/vitrine.d.ts"
        let makefile = try String(contentsOf: Self.checkout.appendingPathComponent("Makefile"), encoding: .utf8)
        let sources = try #require(makefile.firstMatch(of: /\nSDK_TYPE_SOURCES = ([^\n]+)/)?.1, "the Makefile names them")
            .split(separator: " ").map(String.init)
        #expect(sources.contains("Sources/Vitrine/Reports/PageErrorStrategy.swift"))
        let run = try generate(root: Self.checkout.path, ["--into", declarations] + sources)
        #expect(run.status == 0, "\(run.stderr)")
        let committed = try String(contentsOf: Self.checkout.appendingPathComponent(declarations), encoding: .utf8)
        #expect(run.stdout == committed, "Resources/sdk/vitrine.d.ts is stale: run make sdk-types")
        // Each is its own enum's union (not another strategy's `Request` of the same name).
        let firstActions = ["app": "setAutostart", "clipboard": "readText", "dialog": "open", "menu": "set", "notification": "show",
                            "page": "close", "print": "dialog", "shell": "open", "shortcuts": "register", "storage": "get",
                            "tray": "set", "window": "state"]
        let lines = committed.split(separator: "\n")
        for (strategy, action) in firstActions {
            let line = lines.first { $0.hasPrefix("    \"\(strategy)\": { payload: ") } ?? ""
            #expect(line.contains(#"{ action: "\#(action)""#), "\(strategy) is typed by its own request: \(line)")
        }
        #expect(lines.contains { $0.hasPrefix(#"    "clipboard": { payload: VitrineBytes | "#) }, "a clipboard image is bytes")
        // What page-errors.js sends: typed, though no page calls it by hand.
        #expect(lines.contains { $0.hasPrefix(#"    "page-error": { payload: { kind: "error" | "unhandledrejection"; message: string; "#) })
    }

    @Test func anActionEnumBecomesAUnionOfItsActionsAndBytesOrAddsBytes() throws {
        let folder = try ConfigFolder()
        try folder.write("Sources/Pad/Pad.swift", """
            import Vitrine
            struct Pad: TypedScriptMessageStrategy {
                static let identifier = "pad"
                enum Form: String, Decodable { case text, bytes }
                enum Action: ActionRequest {
                    case clear
                    case write(text: String, as: Form?)
                    static let actions = ["clear", "write"]
                }
                typealias Request = BytesOr<Action>
                func respond(to request: Request, context: ScriptMessageContext) async throws -> Bool { true }
            }
            """)
        let run = try generate(root: folder.path, ["Sources"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#"    "pad": { payload: VitrineBytes | { action: "clear" } | { action: "write"; text: string; as?: "text" | "bytes" | null }; result: boolean };"#),
                "\(run.stdout)")
    }

    @Test func nestedTypesEnumsOptionalsAndCodingKeysBecomeTheirJSONShapes() throws {
        let folder = try ConfigFolder()
        try folder.write("Sources/Shop/Cart.swift", """
            import Vitrine
            enum Size: String, Codable { case small, large = "XL" }
            struct Line: Codable { var sku: Int; var size: Size; var note: String? }
            struct AddToCart: TypedScriptMessageStrategy {
                static let identifier = "cart.add"
                struct Request: Decodable {
                    var lines: [Line]
                    var express: Bool?
                    var tags: Set<String>
                    var extra: [String: Double]
                    static var ignored = 1
                    var computed: Int { 3 }
                }
                struct Total: Encodable {
                    var amount: Double
                    var currencyCode: String
                    enum CodingKeys: String, CodingKey { case amount, currencyCode = "currency" }
                }
                func respond(to request: Request, context: ScriptMessageContext) async throws -> Total { fatalError() }
            }
            """)
        try folder.write("Sources/Shop/More.swift", """
            import Vitrine
            struct NoName: TypedScriptMessageStrategy {
                func respond(to request: Int, context: ScriptMessageContext) async throws -> [String?] { [] }
            }
            final class Echo: TypedScriptMessageStrategy {
                static let identifier = "echo"
                func respond(to request: JSONValue, context: ScriptMessageContext) async throws -> [Line] { [] }
            }
            """)
        let run = try generate(root: folder.path, ["Sources"])
        #expect(run.status == 0, "\(run.stderr)")
        let entries = run.stdout.split(separator: "\n").map(String.init).filter { $0.hasPrefix("    \"") }
        #expect(entries == [
            #"    "cart.add": { payload: { lines: { sku: number; size: "small" | "XL"; note?: string | null }[]; express?: boolean | null; tags: string[]; extra: { [key: string]: number } }; result: { amount: number; currency: string } };"#,
            #"    "echo": { payload: VitrineJSON; result: { sku: number; size: "small" | "XL"; note?: string }[] };"#,
        ])
        #expect(run.stdout.contains("/** `AddToCart` in Sources/Shop/Cart.swift. */"))
        #expect(run.stderr.contains("NoName has no `static let identifier"), "\(run.stderr)")
    }

    @Test func aMissingSourceIsAnError() throws {
        let run = try generate(root: "/", ["/nonexistent/Sources"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("does not exist"))
    }
}
