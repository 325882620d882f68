import Foundation
import Testing
@testable import Vitrine

/// A kept page made self-contained (`SnapshotContent`): its references to the archive's
/// parts point at the snapshot's own part addresses, nothing else does, and only the
/// document and resource parts are served.
@Suite struct SnapshotContentTests {
    typealias Fixture = MHTMLArchiveTests
    let address = Fixture.address
    var parts: String { "vitrine-snapshot://" + address.host! + "/part/" }

    func content(_ data: Data) throws -> SnapshotContent { try SnapshotContent(archive: MHTMLArchive(data), address: address) }
    func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test func webKitsArchiveNeedsNoNetwork() throws {
        let content = try content(Fixture.saved)
        let document = text(content.document.body)
        #expect(content.document.contentType == "text/html; charset=utf-8")
        #expect(document.contains("href=\"\(parts)2\""))
        #expect(document.contains("<img id=\"i\" src=\"\(parts)3\">"))
        // The escaped form (`&amp;`) names its own part, not the one its address starts with.
        #expect(document.contains("<img src=\"\(parts)4\">"))
        #expect(!document.contains("http"))
        // The sheet's `url()` is relative to the sheet.
        let sheet = try #require(content.resource(at: URL(string: parts + "2")!))
        #expect(sheet.contentType == "text/css")
        #expect(text(sheet.body).contains("url(\"\(parts)1\")"))
        let image = try #require(content.resource(at: URL(string: parts + "3")!))
        #expect(image.contentType == "image/png" && image.body.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        #expect(content.resource(at: address) == content.document)
        #expect(content.resource(at: URL(string: "vitrine-snapshot://\(address.host!)")!) == content.document)
    }

    @Test func onlyTheSnapshotsOwnAddressesAnswer() throws {
        let content = try content(Fixture.saved)
        let other = "vitrine-snapshot://" + String(repeating: "cd", count: 32) + "/"
        for url in [other, other + "part/3", parts + "0", parts + "9", parts + "03", parts + "+3", parts + "3?x", parts + "-1",
                    "vitrine-snapshot://\(address.host!)/index.html", "http://\(address.host!)/part/3", address.absoluteString + "?q"] {
            #expect(content.resource(at: URL(string: url)!) == nil, "\(url)")
        }
    }

    @Test func referencesAreReplacedWholeAndOnlyWhenTheyNameAPart() throws {
        let page = """
            <img src="http://site.example/a.png"><img src="http://site.example/a.png2"><img src="HTTP://SITE.example/a.png">
            <img srcset="http://site.example/a.png 1x, http://site.example/b.png, http://elsewhere.example/a.png 2x">
            <div style="background:url(&quot;b.png&quot;)"></div><div style="background: url( ../b.png )"></div>
            <style>p { background: url('/b.png#frag') } q { background: url(http://site.example/missing.png) }</style>
            <a href="http://site.example/page.html">next</a><iframe src="http://site.example/frame.html"></iframe>
            """
        let data = Fixture.archive([Fixture.html(page), Fixture.part("image/png", "http://site.example/a.png"),
                                    Fixture.part("image/png", "http://site.example/b.png"),
                                    Fixture.html("<script>top.x=1</script>", location: "http://site.example/frame.html")])
        let document = try text(content(data).document.body)
        #expect(document.contains("<img src=\"\(parts)1\"><img src=\"http://site.example/a.png2\"><img src=\"\(parts)1\">"))
        #expect(document.contains("srcset=\"\(parts)1 1x, \(parts)2, http://elsewhere.example/a.png 2x\""))
        #expect(document.contains("url(&quot;\(parts)2&quot;)"))
        #expect(document.contains("url( \(parts)2 )"))
        #expect(document.contains("url('\(parts)2#frag')"))
        // What the archive does not have keeps its address (the policy refuses it), a
        // frame's document included: an HTML part is never served.
        #expect(document.contains("url(http://site.example/missing.png)"))
        #expect(document.contains("<iframe src=\"http://site.example/frame.html\">"))
        #expect(try content(data).resource(at: URL(string: parts + "3")!) == nil)
    }

    /// Hostile archives: a part claiming a local file's address, scripts and documents as
    /// parts, a first part that is not HTML. Nothing of them is served, no file is named.
    @Test func hostilePartsAreNeverServed() throws {
        let data = Fixture.archive([
            Fixture.html("<img src=\"file:///etc/passwd\"><script src=\"http://site.example/app.js\"></script>"
                + "<img src=\"http://site.example/page.svg\">"),
            Fixture.part("image/png", "file:///etc/passwd", "not the file"),
            Fixture.part("text/javascript", "http://site.example/app.js", "document.title='ran'"),
            Fixture.part("application/xhtml+xml", "http://site.example/page.svg", "<html/>"),
        ])
        let content = try content(data)
        let document = text(content.document.body)
        #expect(document.contains("src=\"file:///etc/passwd\""))
        #expect(document.contains("src=\"http://site.example/app.js\""))
        #expect(document.contains("src=\"http://site.example/page.svg\""))
        #expect(content.servedPartCount == 0)
        #expect(throws: MHTMLError.noDocument) {
            try SnapshotContent(archive: MHTMLArchive(Fixture.archive([Fixture.part("image/png", "http://site.example/a.png")])),
                                address: address)
        }
    }

    @Test func theDocumentsCharsetComesFromItsTypeOrItsMeta() throws {
        let declared = Fixture.archive([("Content-Type: text/html; charset=windows-1252", "<p>caf\u{e9}")])
        #expect(try content(declared).document.contentType == "text/html; charset=windows-1252")
        let meta = Fixture.archive([Fixture.html("<html><head><meta charset=\"ISO-8859-2\"><title>x</title>")])
        #expect(try content(meta).document.contentType == "text/html; charset=iso-8859-2")
    }

    @Test func theSnapshotsPolicyLetsNothingInFromElsewhere() {
        let policy = PageSnapshots.contentSecurityPolicy
        #expect(policy.hasPrefix("default-src 'none';"))
        #expect(!policy.contains("http") && !policy.contains("script") && !policy.contains("frame-src") && !policy.contains("file"))
        #expect(policy.contains("img-src vitrine-snapshot: data:") && policy.contains("form-action 'none'"))
    }
}
