import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// A kiosk's edges on real pages: top-level documents without an origin of their own,
    /// `<iframe srcdoc>` and the app's own `blob:` downloads, gesture-less `window.open`,
    /// and the window capability's windows and fullscreen. 127.0.0.1 is the kiosk's origin.
    @Suite @MainActor
    struct KioskEdgeWindowTests {
        typealias Kiosk = KioskTests.Kiosk

        static let srcdocPage = """
            <!doctype html><html><head><title>kiosk</title></head><body>
            <iframe id="doc" srcdoc="<p id='inner'>written by the app</p>"></iframe>
            <iframe id="blank"></iframe></body></html>
            """
        /// A script's own `window.open`, no tap before it.
        static let popupPage = """
            <!doctype html><html><head><title>kiosk</title></head><body>
            <script>setTimeout(() => { window.opened = window.open('/allowed.html'); window.asked = true; }, 0);</script>
            </body></html>
            """

        func refusals(_ kiosk: Kiosk, _ prefix: String) -> [(handler: String, phase: ContainerEvent.NavigationPhase)] {
            kiosk.events.events.compactMap {
                if case let .navigation(url, handler, .cancel, _, _, phase) = $0, url.hasPrefix(prefix) { return (handler, phase) }
                return nil
            }
        }

        /// `location.href` to a document without an origin: refused by the kiosk itself,
        /// even when its chain allows everything, and the app's page is still there.
        @Test(arguments: ["about:blank", "data:text/html,<title>escaped</title>", "blob"])
        func aTopLevelDocumentWithoutAnOriginIsRefusedAndThePageStays(target: String) async throws {
            let kiosk = try Kiosk(refine: { c, _ in c.navigationHandlers([DefaultAllowHandler()]) })
            defer { kiosk.close() }
            try await kiosk.open()
            _ = try await kiosk.container.evaluate("window.marker = 42; 1")
            let script = target == "blob"
                ? "URL.createObjectURL(new Blob(['<title>escaped</title>'], {type: 'text/html'}))"
                : JSONValue.string(target).jsonText
            _ = try await kiosk.container.evaluate("location.href = \(script); 1")
            let prefix = target == "blob" ? "blob:" : String(target.prefix(6))
            #expect(await TestLoop.wait(timeout: .seconds(10)) { !refusals(kiosk, prefix).isEmpty }, "no refusal of \(target)")
            #expect(refusals(kiosk, prefix).allSatisfy { $0.handler == "kiosk-top-level" }, "\(refusals(kiosk, prefix))")
            if target == "about:blank" {
                // Refused as it commits: the page before it comes back.
                #expect(refusals(kiosk, prefix).map(\.phase) == [.commit])
                #expect(await kiosk.waitForLoad(kiosk.start, count: 2), "the page came back")
                // (about:blank's own `finished` may come under the start page's URL: wait for the document.)
                for _ in 0..<100 where try await kiosk.container.evaluate("document.title") != "kiosk" {
                    try await kiosk.fixture.next(where: { if case .load(.finished, _, _, _, _) = $0 { return true }; return false })
                }
            } else {
                // Refused before it replaced anything: the page never left.
                try await kiosk.fixture.roundTrip()
                #expect(try await kiosk.container.evaluate("window.marker") == 42)
            }
            #expect(try await kiosk.container.evaluate("document.title") == "kiosk")
            #expect(kiosk.container.currentURL == kiosk.start)
        }

        /// Remote control or Swift asking a kiosk for such a document: refused before WebKit.
        @Test func aLoadOfAboutBlankHandedToTheKioskIsRefused() async throws {
            let kiosk = try Kiosk()
            defer { kiosk.close() }
            try await kiosk.open()
            let outcome = await kiosk.container.load(URL(string: "about:blank")!)
            #expect(outcome == .decided(NavigationDecision(policy: .cancel, handler: "kiosk-top-level")))
            #expect(refusals(kiosk, "about:blank").map(\.handler) == ["kiosk-top-level"])
            try await kiosk.fixture.roundTrip()
            #expect(kiosk.container.currentURL == kiosk.start)
        }

        @Test func aSrcdocFrameRendersAndABlankFrameStaysInAKiosk() async throws {
            let kiosk = try Kiosk(pages: ["start.html": Self.srcdocPage])
            defer { kiosk.close() }
            try await kiosk.open()
            let inner = try await kiosk.container.evaluate(
                "document.getElementById('doc').contentDocument?.getElementById('inner')?.textContent ?? null")
            #expect(inner == "written by the app")
            #expect(try await kiosk.container.evaluate("document.getElementById('blank').contentDocument !== null") == true)
            #expect(refusals(kiosk, "about:").isEmpty, "\(refusals(kiosk, "about:"))")
            // A blob the page made is of its origin in a frame too; one of another origin is not.
            let framed = try await kiosk.container.evaluateAsync("""
                const frame = document.createElement('iframe');
                frame.src = URL.createObjectURL(new Blob(['<p id="b">blob frame</p>'], {type: 'text/html'}));
                document.body.append(frame);
                await new Promise((resolve) => frame.onload = resolve);
                return frame.contentDocument?.getElementById('b')?.textContent ?? null;
                """)
            #expect(framed == "blob frame")
            #expect(kiosk.events.events.contains {
                if case let .navigation(url, _, .allow, _, _, .request) = $0 { return url.hasPrefix("blob:") }
                return false
            }, "the blob frame went through the chain")
        }

        @Test func anExportLinkToTheAppsOwnBlobDownloadsInAKioskWithADownloadFolder() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-kiosk-dl-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let kiosk = try Kiosk(refine: { c, _ in c.downloadDirectory(folder) })
            defer { kiosk.close() }
            try await kiosk.open()
            _ = try await kiosk.container.evaluate("""
                const a = document.createElement('a');
                a.href = URL.createObjectURL(new Blob(['id,name\\n1,Ada\\n'], {type: 'text/csv'}));
                a.download = 'export.csv';
                document.body.append(a);
                a.click();
                1
                """)
            try await kiosk.fixture.next(where: {
                if case .native(.downloadFinished, _) = $0 { return true }
                return false
            })
            let file = folder.appendingPathComponent("export.csv")
            #expect((try? String(contentsOf: file, encoding: .utf8)) == "id,name\n1,Ada\n")
            #expect(kiosk.container.currentURL == kiosk.start, "the page stayed")
        }

        @Test func aWindowOpenWithoutAGestureIsRefusedAndOneWithAGestureLoads() async throws {
            let kiosk = try Kiosk(pages: ["start.html": Self.popupPage])
            defer { kiosk.close() }
            try await kiosk.open()
            let allowed = kiosk.server.url("allowed.html")
            #expect(await TestLoop.wait(timeout: .seconds(10)) { !kiosk.decisions(allowed.absoluteString).isEmpty })
            #expect(kiosk.decisions(allowed.absoluteString).map(\.handler) == ["popup-blocker"])
            try await kiosk.fixture.roundTrip()
            #expect(try await kiosk.container.evaluate("window.asked === true") == true)
            #expect(kiosk.container.currentURL == kiosk.start, "the app was not replaced")
            // A tap's window.open (a script the program runs counts as one) still loads.
            _ = try await kiosk.container.evaluate("window.open('/allowed.html'); 1")
            #expect(await kiosk.waitForLoad(allowed))
        }

        @Test func aKioskStaysFullscreenAndItsOtherWindowsAreKiosks() async throws {
            let kiosk = try Kiosk(refine: { c, server in c.grantCapabilities([.window], to: Origin(server.url(""))!) })
            defer { kiosk.close() }
            try await kiosk.open()
            let answers = try await kiosk.container.evaluateAsync("""
                const out = [];
                for (const call of [() => vitrine.window.fullscreen(false), () => vitrine.window.minimize()]) {
                  try { await call(); out.push('done'); } catch (e) { out.push(e.message); }
                }
                return out;
                """)
            #expect(answers == ["window: fullscreen: a kiosk's window stays fullscreen", "window: minimize: a kiosk's window stays shown"])

            let opened = try await kiosk.container.evaluateAsync("return await vitrine.window.open('allowed.html');")
            #expect(opened == ["id": 2])
            #expect(await kiosk.waitForLoad(kiosk.server.url("allowed.html")))
            let second = try #require(kiosk.container.windows.windows.last)
            #expect(second.configuration.isLockedDown)
            // Its script dialogs are answered at once, as the kiosk's own: nothing blocks it.
            _ = try await second.evaluate("setTimeout(() => { window.answer = confirm('sure?'); }, 0); 1")
            #expect(await TestLoop.wait(timeout: .seconds(10)) { kiosk.natives(.blockedDialog).contains("confirm: sure?") })
            #expect(try await second.evaluate("window.answer") == false)
            // Its pages go by the kiosk's rules too.
            await second.load(URL(string: "about:blank")!)
            #expect(refusals(kiosk, "about:blank").map(\.handler) == ["kiosk-top-level"])
            #expect(try await second.evaluate("window.close(); 1") == 1)
            try await kiosk.fixture.roundTrip()
            #expect(kiosk.container.windows.windows.count == 2, "a page cannot close a kiosk's window")
            second.close()
        }
    }
}
