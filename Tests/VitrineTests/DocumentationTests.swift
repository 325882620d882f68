import Foundation
import Testing
import VitrineTestSupport

/// The documents themselves: the README stays short and points one click away to each
/// reader's guide, every link between documents resolves, and no document tells the
/// history of its writing.
@Suite("Documentation: links, size, words")
struct DocumentationTests {
    let documentation: Documentation

    init() throws { documentation = try Documentation() }

    @Test func theReadmeIsShortAndLinksEachReadersGuide() throws {
        let readme = try #require(documentation.document("README.md"))
        let lines = readme.text.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines < 200, "README.md has \(lines) lines")
        let targets = Set(documentation.relativeLinks.filter { $0.document == "README.md" }.map(\.target))
        // "how do I lock a kiosk to two sites", "how do I call Swift from my page",
        // "how do I ship my app": one click each.
        for guide in ["docs/kiosk/lockdown-and-recovery.md", "docs/apps/javascript-api.md", "docs/apps/shipping.md",
                      "docs/kiosk/README.md", "docs/apps/README.md", "docs/reference/README.md",
                      "docs/architecture.md", "HACKING.md", "benchmarks/README.md"] {
            #expect(targets.contains(guide), "README.md does not link \(guide)")
        }
    }

    @Test func everyLinkBetweenDocumentsResolves() throws {
        let links = documentation.relativeLinks
        #expect(links.count > 40, "the documents link each other")
        for link in links {
            let (path, anchor) = split(link.target)
            let relative = path.isEmpty ? link.document : resolve(path, from: link.document)
            let file = Documentation.root.appendingPathComponent(relative)
            #expect(FileManager.default.fileExists(atPath: file.path), "\(link): no file \(relative)")
            guard let anchor, relative.hasSuffix(".md"),
                  let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            #expect(Documentation.anchors(of: text).contains(anchor), "\(link): no heading #\(anchor) in \(relative)")
        }
    }

    /// Anchors are the code host's: headings in code blocks are not headings.
    @Test func headingAnchorsAreTheCodeHostsOnes() throws {
        let anchors = Documentation.anchors(of: "# Fleets: MQTT\n```\n# not a heading\n```\n## The `[network]` table\n")
        #expect(anchors == ["fleets-mqtt", "the-network-table"])
    }

    @Test func documentsSpeakOfTheProductAsItIs() {
        let diary = [/\bthis session\b/, /\bearlier sessions?\b/, /\blast session\b/, /\bin this session\b/,
                     /\bthe previous build\b/, /\bbefore this change\b/]
        for document in documentation.documents {
            for pattern in diary {
                #expect(document.text.lowercased().firstMatch(of: pattern) == nil,
                        "\(document.path) tells the history of its writing")
            }
        }
    }

    /// `path` relative to `document`'s folder, as a path from the package root.
    private func resolve(_ path: String, from document: String) -> String {
        var components = document.split(separator: "/").dropLast().map(String.init)
        for component in path.split(separator: "/").map(String.init) {
            if component == ".." { if !components.isEmpty { components.removeLast() } }
            else if component != "." { components.append(component) }
        }
        return components.joined(separator: "/")
    }

    private func split(_ target: String) -> (path: String, anchor: String?) {
        guard let hash = target.firstIndex(of: "#") else { return (target, nil) }
        return (String(target[..<hash]), String(target[target.index(after: hash)...]))
    }
}
