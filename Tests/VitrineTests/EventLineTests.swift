import Foundation
import Testing
import Vitrine

/// The events log's lines, byte for byte: monitoring reads them, so a line's spelling is
/// part of the product and must not move when the Swift types behind it do.
@Suite("Event lines")
struct EventLineTests {
    static let pinned: [(ContainerEvent, String)] = [
        (.print(queue: "Tickets", job: 2, outcome: .failed, error: "printer 'Tickets' not found"),
         #"{"error":"printer 'Tickets' not found","job":2,"outcome":"failed","queue":"Tickets","type":"print"}"#),
        (.navigation(url: "https://a.test/", handler: "origin-allowlist", policy: .cancel, navigationType: .linkActivated,
                     target: .currentView, phase: .request),
         #"{"handler":"origin-allowlist","navigationType":"linkActivated","phase":"request","policy":"cancel","target":"currentView","type":"navigation","url":"https://a.test/"}"#),
        (.navigation(url: "about:blank", handler: "kiosk-top-level", policy: .cancel, navigationType: .other,
                     target: .currentView, phase: .commit),
         #"{"handler":"kiosk-top-level","navigationType":"other","phase":"commit","policy":"cancel","target":"currentView","type":"navigation","url":"about:blank"}"#),
        (.navigation(url: "https://a.test/f.pdf", handler: "download", policy: .download, navigationType: .other,
                     target: .newWindow, phase: .response),
         #"{"handler":"download","navigationType":"other","phase":"response","policy":"download","target":"newWindow","type":"navigation","url":"https://a.test/f.pdf"}"#),
        (.message(name: "page", outcome: .resolved, error: nil, origin: "app://demo"),
         #"{"name":"page","origin":"app://demo","outcome":"resolved","type":"message"}"#),
        (.message(name: "camera", outcome: .rejected, error: "no \"camera\"", origin: nil, code: "CameraError.denied"),
         #"{"code":"CameraError.denied","error":"no \"camera\"","name":"camera","outcome":"rejected","type":"message"}"#),
        (.load(event: .finished, url: "app://demo/index.html", error: nil),
         #"{"event":"finished","shown":"live","type":"load","url":"app://demo/index.html"}"#),
        (.load(event: .tlsError, url: "https://x.test/", error: "untrusted certificate"),
         #"{"error":"untrusted certificate","event":"tls-error","shown":"live","type":"load","url":"https://x.test/"}"#),
        (.native(action: .webProcessTerminated, detail: "crashed"),
         #"{"action":"web-process-terminated","detail":"crashed","type":"native"}"#),
        (.native(action: .displayOff, detail: "schedule"),
         #"{"action":"display-off","detail":"schedule","type":"native"}"#),
        (.native(action: .cursorHidden, detail: ""),
         #"{"action":"cursor-hidden","detail":"","type":"native"}"#),
        (.permission(kind: "geolocation", origin: "https://a.test", granted: false),
         #"{"granted":false,"kind":"geolocation","origin":"https://a.test","type":"permission"}"#),
    ]

    @Test func linesAreWrittenAsBefore() throws {
        for (event, line) in Self.pinned {
            let encoded = try JSONEncoder.compactSorted.encode(event)
            #expect(String(decoding: encoded, as: UTF8.self) == line)
        }
    }

    @MainActor
    @Test func theLogWritesThePinnedLines() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-lines-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("events.jsonl").path
        do {
            let log = try JSONLinesEventLog(path: path, rateLimits: nil)
            for (event, _) in Self.pinned { log.record(event) }
        }
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == Self.pinned.map { $0.1 + "\n" }.joined())
    }
}
