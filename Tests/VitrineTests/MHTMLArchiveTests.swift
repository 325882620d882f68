import Foundation
import Testing
@testable import Vitrine

/// Kept pages read back (`MHTMLArchive`) and made self-contained (`SnapshotContent`): the
/// archive WebKit writes, and hostile ones (the file is on disk, anyone may have put it there).
@Suite struct MHTMLArchiveTests {
    /// An archive WebKitGTK 2.50 saved (`webkit_web_view_save`, MHTML) of a page with a style
    /// sheet (whose `url()` is relative), two images (one with `&` in its query) and scripts
    /// (the saver drops them), CRLF line ends as written.
    static let saved = Data("""
        From: <Saved by WebKit>
        Subject: inline ran
        Date: Sat, 27 Nov 2026 09:54:32 -0000
        MIME-Version: 1.0
        Content-Type: multipart/related;
        	type="text/html";
        	boundary="----=_NextPart_000_B7E8_559AF4BA.8A3E9F6A"

        ------=_NextPart_000_B7E8_559AF4BA.8A3E9F6A
        Content-Type: text/html
        Content-Transfer-Encoding: quoted-printable
        Content-Location: http://127.0.0.1:18777/index.html

        <html><head><meta charset=3D"UTF-8"><title>inline ran</title><link rel=3D"s=
        tylesheet" href=3D"http://127.0.0.1:18777/style.css"></head><body><h1 id=3D=
        "b">h=C3=A9llo =3D =E2=80=9Cquotes=E2=80=9D xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx=
        xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx</h1><=
        img id=3D"i" src=3D"http://127.0.0.1:18777/red.png"><div class=3D"b" style=
        =3D"width:10px;height:10px"></div><img src=3D"http://127.0.0.1:18777/red.pn=
        g?x=3D1&amp;y=3D2"></body></html>
        ------=_NextPart_000_B7E8_559AF4BA.8A3E9F6A
        Content-Type: image/png
        Content-Transfer-Encoding: base64
        Content-Location: http://127.0.0.1:18777/bg.png?a=1&b=2

        iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGNgYPiPhIjiAACOsw/x
        s6MvMwAAAABJRU5ErkJggg==
        ------=_NextPart_000_B7E8_559AF4BA.8A3E9F6A
        Content-Type: text/css
        Content-Transfer-Encoding: base64
        Content-Location: http://127.0.0.1:18777/style.css

        Ym9keSB7IGJhY2tncm91bmQ6IHJnYigwLCAyNTUsIDApOyB9CgouYiB7IGJhY2tncm91bmQtaW1h
        Z2U6IHVybCgiYmcucG5nP2E9MSZiPTIiKTsgfQ==
        ------=_NextPart_000_B7E8_559AF4BA.8A3E9F6A
        Content-Type: image/png
        Content-Transfer-Encoding: base64
        Content-Location: http://127.0.0.1:18777/red.png

        iVBORw0KGgoAAAANSUhEUgAAADIAAAAoCAIAAAAzED4bAAAAO0lEQVR4nO3OMQ0AMAwDsPAnvYHo
        kRyWDMB5yaD+QEtLS0tLa0N/oKWlpaWltaE/0NLS0tLS2tAfaJ19187ImtGFuc8AAAAASUVORK5C
        YII=
        ------=_NextPart_000_B7E8_559AF4BA.8A3E9F6A
        Content-Type: image/png
        Content-Transfer-Encoding: base64
        Content-Location: http://127.0.0.1:18777/red.png?x=1&y=2

        iVBORw0KGgoAAAANSUhEUgAAADIAAAAoCAIAAAAzED4bAAAAO0lEQVR4nO3OMQ0AMAwDsPAnvYHo
        kRyWDMB5yaD+QEtLS0tLa0N/oKWlpaWltaE/0NLS0tLS2tAfaJ19187ImtGFuc8AAAAASUVORK5C
        YII=
        ------=_NextPart_000_B7E8_559AF4BA.8A3E9F6A--

        """.replacing("\n", with: "\r\n").utf8)

    static let address = URL(string: "vitrine-snapshot://" + String(repeating: "ab", count: 32) + "/")!

    static func archive(_ parts: [(headers: String, body: String)], boundary: String = "B0UND") -> Data {
        var text = "MIME-Version: 1.0\r\nContent-Type: multipart/related;\r\n\tboundary=\"\(boundary)\"\r\n\r\n"
        for part in parts { text += "--\(boundary)\r\n\(part.headers)\r\n\r\n\(part.body)\r\n" }
        return Data((text + "--\(boundary)--\r\n").utf8)
    }

    static func html(_ body: String, location: String = "http://site.example/index.html") -> (headers: String, body: String) {
        ("Content-Type: text/html\r\nContent-Location: \(location)", body)
    }

    static func part(_ type: String, _ location: String, _ body: String = "x") -> (headers: String, body: String) {
        ("Content-Type: \(type)\r\nContent-Transfer-Encoding: 8bit\r\nContent-Location: \(location)", body)
    }

    func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test func webKitsArchiveIsReadIntoItsDecodedParts() throws {
        let archive = try MHTMLArchive(Self.saved)
        #expect(archive.parts.map(\.mediaType) == ["text/html", "image/png", "text/css", "image/png", "image/png"])
        #expect(archive.parts.map(\.location) == ["http://127.0.0.1:18777/index.html", "http://127.0.0.1:18777/bg.png?a=1&b=2",
                                                  "http://127.0.0.1:18777/style.css", "http://127.0.0.1:18777/red.png",
                                                  "http://127.0.0.1:18777/red.png?x=1&y=2"])
        // Quoted-printable: soft line breaks joined, =XX decoded (UTF-8 bytes).
        let document = text(archive.parts[0].body)
        #expect(document.contains("<h1 id=\"b\">h\u{e9}llo = \u{201c}quotes\u{201d} xxxx"))
        #expect(document.contains("src=\"http://127.0.0.1:18777/red.png?x=1&amp;y=2\""))
        // Base64.
        #expect(archive.parts[1].body.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(text(archive.parts[2].body).contains("url(\"bg.png?a=1&b=2\")"))
    }

    @Test func lineFeedsAloneAndQuotedPrintableEdgesAreRead() throws {
        let text = "Content-Type: Multipart/Related; boundary=xyz\n\npreamble\n--xyz\nContent-Type: text/html\n"
            + "Content-Transfer-Encoding: Quoted-Printable\n\na=3Db=\nc =ZZ =4\n--xyz--\n"
        let data = Data(text.utf8)
        let archive = try MHTMLArchive(data)
        #expect(archive.parts.count == 1)
        #expect(self.text(archive.parts[0].body) == "a=bc =ZZ =4")
    }

    @Test(arguments: [
        ("", MHTMLError.truncated),
        ("garbage \u{0}\u{1} not mime at all\r\n\r\nbody", .notMultipart),
        ("Content-Type: text/html\r\n\r\n<p>hi", .notMultipart),
        ("Content-Type: multipart/related\r\n\r\n--x\r\n", .missingBoundary),
        ("Content-Type: multipart/related; boundary=\"\"\r\n\r\n--\r\n", .missingBoundary),
        ("Content-Type: multipart/related; boundary=x\r\n\r\nno delimiter here", .missingBoundary),
        ("Content-Type: multipart/related; boundary=x\r\n\r\n--x\r\nContent-Type: text/html\r\n\r\n<p>cut", .truncated),
        ("Content-Type: multipart/related; boundary=x\r\n\r\n--x\r\nContent-Type: text/html", .truncated),
        ("Content-Type: multipart/related; boundary=x\r\n\r\n--x--\r\n", .noParts),
        ("Content-Type: multipart/related; boundary=x\r\n\r\n--x\r\nContent-Transfer-Encoding: base64\r\n\r\n%%%=\r\n--x--",
         .badEncoding("base64")),
        ("Content-Type: multipart/related; boundary=x\r\n\r\n--x\r\nContent-Transfer-Encoding: x-uuencode\r\n\r\nabc\r\n--x--",
         .unknownEncoding("x-uuencode")),
    ])
    func malformedArchivesAreClearErrors(_ input: String, _ error: MHTMLError) {
        #expect(throws: error) { try MHTMLArchive(Data(input.utf8)) }
        #expect(!error.description.isEmpty)
    }

    @Test func limitsBoundPartsHeadersAndSize() throws {
        let many = Self.archive(Array(repeating: Self.part("image/png", "http://a.example/x.png"), count: 1001))
        #expect(throws: MHTMLError.tooManyParts(1000)) { try MHTMLArchive(many) }
        #expect(try MHTMLArchive(many, limits: .init(maximumParts: 1001)).parts.count == 1001)
        let longHeader = Self.archive([("X-Pad: " + String(repeating: "a", count: 20000), "body")])
        #expect(throws: MHTMLError.headerTooLarge(16384)) { try MHTMLArchive(longHeader) }
        // A header block that never ends is as bad as a long one.
        let endless = Data(("Content-Type: multipart/related; boundary=x\r\n" + String(repeating: "X: y\r\n", count: 5000)).utf8)
        #expect(throws: MHTMLError.headerTooLarge(16384)) { try MHTMLArchive(endless) }
        #expect(throws: MHTMLError.tooLarge(Self.saved.count, 100)) { try MHTMLArchive(Self.saved, limits: .init(maximumBytes: 100)) }
    }

    /// Every truncation and thousands of byte flips of a real archive: an archive or an
    /// error, never a crash.
    @Test func damagedArchivesNeverCrash() {
        let bytes = [UInt8](Self.saved)
        for length in stride(from: 0, to: bytes.count, by: 7) { _ = try? MHTMLArchive(Data(bytes[..<length])) }
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<3000 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if let archive = try? MHTMLArchive(Data(damaged)) { _ = try? SnapshotContent(archive: archive, address: Self.address) }
        }
    }
}

struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state ^ (state >> 29)
    }
}
