import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// `[media] autoplay` reaches each view's website policies: under `allow` an unmuted
    /// `<audio autoplay>` and `<video autoplay>` play with sound, into a private PulseAudio
    /// null sink, with no gesture; under `deny` (and WebKit's default, `muted`) `play()` is
    /// refused. The media are made by GStreamer's test sources for each run and served over
    /// loopback HTTP: WebKitGTK's media player loads http(s), blob and file URLs only, so a
    /// file of the app folder (`app://`) never plays (MEDIA_ERR_SRC_NOT_SUPPORTED).
    @Suite(.serialized)
    @MainActor
    struct MediaAutoplayTests {
        /// A page that writes what its media element did into the document (the facts the
        /// test waits for): `playing` (ms after the navigation started), `played` (a second
        /// in), `play` (play()'s outcome), `error` (the element's MediaError).
        private static func page(_ element: String) -> String {
            """
            <!doctype html><title>media</title><body>
            \(element)
            <script>
            const media = document.querySelector('audio, video');
            media.addEventListener('playing', () => { document.body.dataset.playing = String(Math.round(performance.now())); });
            media.addEventListener('error', () => { document.body.dataset.error = 'MediaError ' + media.error.code; });
            media.addEventListener('timeupdate', () => { if (media.currentTime >= 1) document.body.dataset.played = 'yes'; });
            const audio = new AudioContext();
            const report = () => { document.body.dataset.audioContext = audio.state; };
            audio.addEventListener('statechange', report);
            report();
            if (!media.autoplay) media.play().then(() => { document.body.dataset.play = 'resolved'; },
                                                   (error) => { document.body.dataset.play = error.name; });
            </script>
            """
        }

        /// A view with `autoplay` on `page`, its media beside it, all served by a loopback
        /// HTTP server (see above), loaded and finished.
        private func open(_ autoplay: AutoplayPolicy?, page: String) async throws -> (WebTestHarness, LoopbackHTTPServer) {
            let harness = try WebTestHarness(pages: ["media.html": page]) { configurator in
                autoplay.map { configurator.preference(\.autoplay, $0) } ?? configurator
            }
            try TestMedia.tone(into: harness.directory)
            try TestMedia.video(into: harness.directory)
            let server = try LoopbackHTTPServer(pages: [:], directory: harness.directory)
            let url = server.url("media.html")
            harness.container.start()
            harness.container.startLoading(url)
            try await harness.fixture.nextLoad(of: url)
            return (harness, server)
        }

        @Test(arguments: [#"<audio src="tone.ogg" autoplay></audio>"#, #"<video src="clip.webm" autoplay></video>"#])
        func allowPlaysUnmutedMediaWithSoundAndNoGesture(_ element: String) async throws {
            let sink = try PulseAudioSink()
            defer { sink.stop() }
            try sink.startRecording()
            let (harness, server) = try await open(.allow, page: Self.page(element))
            defer { server.stop(removingFiles: false); harness.close() }
            let playing = await harness.container.valueInPage("document.body.dataset.playing || document.body.dataset.error")?.stringValue
            let startedAfter = try #require(playing.flatMap(Double.init), "the media started by itself: \(playing ?? "no event")")
            print("autoplay with sound: \(element.prefix(6)) playing \(Int(startedAfter)) ms after the navigation started")
            #expect(await harness.container.valueInPage("document.body.dataset.played") == "yes")
            let rms = sink.recordedRMS(reaching: 0.02)
            #expect(rms > 0.02, "the tone reached the sink (RMS \(rms); silence is 0)")
            #expect(await harness.container.valueInPage("!document.querySelector('audio, video').muted && 'unmuted'") == "unmuted")
        }

        @Test(arguments: [AutoplayPolicy.deny, .muted, nil])
        func playWithoutAGestureIsRefusedUnlessAllowed(_ autoplay: AutoplayPolicy?) async throws {
            let (harness, server) = try await open(autoplay, page: Self.page(#"<audio src="tone.ogg"></audio>"#))
            defer { server.stop(removingFiles: false); harness.close() }
            #expect(await harness.container.valueInPage("document.body.dataset.play")?.stringValue == "NotAllowedError")
            #expect(await harness.container.valueInPage("document.querySelector('audio').paused && 'paused'") == "paused")
            #expect(await harness.container.valueInPage("document.body.dataset.audioContext")?.stringValue == "suspended",
                    "an AudioContext waits for a gesture")
        }

        @Test func allowResolvesPlayWithoutAGesture() async throws {
            let sink = try PulseAudioSink()
            defer { sink.stop() }
            let (harness, server) = try await open(.allow, page: Self.page(#"<audio src="tone.ogg"></audio>"#))
            defer { server.stop(removingFiles: false); harness.close() }
            #expect(await harness.container.valueInPage("document.body.dataset.play")?.stringValue == "resolved")
            #expect(await harness.container.valueInPage("document.body.dataset.audioContext === 'running' && 'running'") == "running",
                    "an AudioContext runs without a gesture")
        }

        @Test func denyKeepsEvenMutedVideoStill() async throws {
            let (harness, server) = try await open(.deny, page: Self.page(#"<video src="clip.webm" muted></video>"#))
            defer { server.stop(removingFiles: false); harness.close() }
            #expect(await harness.container.valueInPage("document.body.dataset.play")?.stringValue == "NotAllowedError")
        }
    }
}
