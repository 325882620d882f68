import Foundation
import Testing
import Vitrine
import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// `app://` serving, seen from a real page's `fetch`.
    @Suite
    @MainActor
    struct AppSchemeTests {
        @Test func servesFilesWithGLibsMimeTypesAndRefusesEveryWayOut() async throws {
            let outside = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-secret-\(UUID().uuidString).txt")
            try "secret".write(to: outside, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: outside) }
            let harness = try WebTestHarness(pages: [
                "index.html": "<!doctype html><title>t</title>",
                "style.css": "body{}", "app.js": "export const x = 1;", "data.json": "{}",
                "sub/index.html": "<p>sub</p>",
            ])
            defer { harness.close() }
            try FileManager.default.createSymbolicLink(
                at: harness.directory.appendingPathComponent("link.txt"), withDestinationURL: outside)
            try await harness.open("index.html")

            func fetch(_ path: String) async throws -> JSONValue {
                try await harness.container.evaluateAsync("""
                    const r = await fetch('\(path)');
                    return {status: r.status, type: (r.headers.get('content-type') || '').split(';')[0], body: await r.text()};
                    """)
            }
            #expect(try await fetch("style.css")["type"] == "text/css")
            #expect(try await fetch("app.js")["type"]?.stringValue?.hasSuffix("javascript") == true)
            #expect(try await fetch("data.json")["type"] == "application/json")
            #expect(try await fetch("sub/")["body"] == "<p>sub</p>", "a directory serves its index.html")
            #expect(try await fetch("missing.html")["status"] == 404)
            for attack in ["%2e%2e/%2e%2e/%2e%2e/etc/passwd", "..%2f..%2f..%2fetc%2fpasswd", "sub/%2e%2e%2f%2e%2e%2fetc/passwd", "link.txt"] {
                let response = try await fetch(attack)
                #expect(response["status"] == 403 || response["status"] == 404, "\(attack) → \(response)")
                #expect(response["body"] != "secret")
                #expect(response["body"]?.stringValue?.contains("root:") != true)
            }
            let module = try await harness.container.evaluateAsync("return (await import('./app.js')).x;")
            #expect(module == 1, "ES modules load from app://")
        }
    }
}
