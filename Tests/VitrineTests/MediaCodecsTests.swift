import Foundation
import Testing
import Vitrine

/// GStreamer's decoder caps read as formats, the warnings a playlist gets, and the
/// rendering policy chosen for a renderer.
@Suite("Media codecs and rendering")
struct MediaCodecsTests {
    @Test func capsNameTheirFormats() {
        #expect(MediaCodecs.formats(inCaps: "video/x-h264, stream-format=(string)avc, alignment=(string)au; video/x-h264, stream-format=(string)byte-stream") == [.h264])
        #expect(MediaCodecs.formats(inCaps: "video/x-vp9") == [.vp9])
        #expect(MediaCodecs.formats(inCaps: "audio/mpeg, mpegversion=(int)1, layer=(int)[ 1, 3 ]") == [.mp3])
        #expect(MediaCodecs.formats(inCaps: "audio/mpeg, mpegversion=(int)4, stream-format=(string)raw") == [.aac])
        #expect(MediaCodecs.formats(inCaps: "audio/mpeg, mpegversion=(int){ 2, 4 }") == [.aac])
        #expect(MediaCodecs.formats(inCaps: "video/x-raw, format=(string){ I420, YV12 }, width=(int)[ 1, 2147483647 ]").isEmpty,
                "a decoder's raw output is no format")
    }

    @Test func debiansDefaultSetMissesTheLicensedFormats() {
        let codecs = MediaCodecs(decoderCaps: ["video/x-vp8", "video/x-vp9", "audio/x-opus, channel-mapping-family=(int)0",
                                               "audio/x-vorbis", "video/x-raw, format=(string)I420"])
        #expect(codecs.playable == [.vp8, .vp9, .opus, .vorbis])
        #expect(codecs.missing.contains(.h264) && codecs.missing.contains(.aac) && codecs.missing.contains(.av1))
        #expect(codecs.report.contains("H.264: no (install gstreamer1.0-libav)"))
        #expect(codecs.report.contains("VP9: yes"))
    }

    @Test func aPlaylistNamingAnUndecodableFormatIsWarned() throws {
        let webmOnly = MediaCodecs(decodable: [.vp8, .vp9, .opus, .vorbis])
        let configuration = try Configurator()
            .preference(\.schedule, Schedule(playlist: [
                PlaylistEntry(url: URL(string: "https://cms.example/clips/lobby.mp4?v=3")!, duration: .seconds(30)),
                PlaylistEntry(url: URL(string: "https://cms.example/clips/lobby.webm")!, duration: .seconds(30)),
                PlaylistEntry(url: URL(string: "https://cms.example/menu")!, duration: .seconds(30)),
            ]))
            .build()
        #expect(configuration.playlistMediaURLs.map(\.lastPathComponent) == ["lobby.mp4", "lobby.webm"])
        let warnings = configuration.mediaWarnings(webmOnly)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("lobby.mp4 needs H.264 or HEVC or AV1") == true, "\(warnings)")
        #expect(warnings.first?.contains("gstreamer1.0-libav") == true)
        #expect(configuration.mediaWarnings(MediaCodecs(decodable: Set(MediaCodecs.Format.allCases))).isEmpty)
        // An MP4 with H.264 but no AAC decoder still plays no sound: warned too.
        #expect(MediaCodecs(decodable: [.h264]).problem(playing: URL(string: "https://a/b.mp4")!)?.contains("AAC") == true)
    }

    @Test func aSoftwareRendererGetsNoAccelerationUnlessConfigured() {
        let llvmpipe = "llvmpipe (LLVM 15.0.6, 256 bits)"
        #expect(RenderingChoice(configured: nil, renderer: llvmpipe) == .init(configured: nil, renderer: llvmpipe))
        let software = RenderingChoice(configured: nil, renderer: llvmpipe)
        #expect(software.policy == .never && software.reason == .softwareRenderer)
        for name in ["softpipe", "Software Rasterizer", "SwiftShader Device (Subzero)", "swrast"] {
            #expect(RenderingChoice.isSoftware(name), "\(name)")
        }
        let gpu = RenderingChoice(configured: nil, renderer: "Mesa Intel(R) UHD Graphics 620 (KBL GT2)")
        #expect(gpu.policy == nil && gpu.reason == .gpuRenderer, "a GPU: WebKit's own choice")
        for configured in HardwareAcceleration.allCases {
            let chosen = RenderingChoice(configured: configured, renderer: llvmpipe)
            #expect(chosen.reason == .configured)
            #expect(chosen.policyName == configured.rawValue, "the file wins: \(configured)")
        }
        #expect(RenderingChoice(configured: nil, renderer: nil).policy == nil)
    }

    static let llvmpipe = "llvmpipe (LLVM 15.0.6, 256 bits)", gpu = "Mesa Intel(R) UHD Graphics 620 (KBL GT2)"
    /// Every choice that leaves compositing to WebKit (any policy but never).
    static let compositingOn = [RenderingChoice(configured: nil, renderer: gpu), RenderingChoice(configured: .auto, renderer: llvmpipe),
                                RenderingChoice(configured: .always, renderer: llvmpipe), RenderingChoice(configured: nil, renderer: nil),
                                RenderingChoice(configured: nil, renderer: llvmpipe, automation: true)]

    /// Compositing off: WebKit's DMA-BUF renderer is never drawn with, so it is not looked for,
    /// and GDK sets up no OpenGL. Any other policy keeps both, and a variable the user set is theirs.
    @Test func compositingOffTurnsTheDMABUFRendererAndGDKsGLOff() {
        let llvmpipe = Self.llvmpipe, gpu = Self.gpu
        let off = [RenderingChoice.dmabufRendererVariable: "1", RenderingChoice.gdkGLVariable: "disable"]
        #expect(RenderingChoice(configured: nil, renderer: llvmpipe).firstContextEnvironment(given: [:]) == off)
        #expect(RenderingChoice(configured: .never, renderer: gpu).firstContextEnvironment(given: ["PATH": "/usr/bin"]) == off)
        for kept in Self.compositingOn {
            #expect(kept.firstContextEnvironment(given: [:]).isEmpty, "\(kept.policyName) (\(kept.reason.rawValue))")
        }
        // Without the DMA-BUF renderer WebKitGTK 2.50 never composites, whatever was configured.
        for configured in [nil] + HardwareAcceleration.allCases.map(Optional.some) {
            let off = RenderingChoice(configured: configured, renderer: llvmpipe, automation: configured == nil, dmabufRenderer: false)
            #expect(off.policy == .never && off.reason == .dmabufRendererOff, "\(String(describing: configured))")
        }
        let users = [RenderingChoice.dmabufRendererVariable: "0", RenderingChoice.gdkGLVariable: "gles"]
        #expect(RenderingChoice(configured: nil, renderer: llvmpipe).firstContextEnvironment(given: users).isEmpty)
        #expect(RenderingChoice(configured: nil, renderer: llvmpipe).firstContextEnvironment(given: [RenderingChoice.gdkGLVariable: "gles"])
                == [RenderingChoice.dmabufRendererVariable: "1"], "the user's GDK_GL is theirs")
    }

    /// Compositing off: no web process draws through a GPU's render node, so WebKit is given
    /// none rather than initialise EGL in the program to look one up. Any other policy looks,
    /// and a node the user named is theirs.
    @Test func compositingOffNamesNoRenderDevice() {
        let llvmpipe = Self.llvmpipe, gpu = Self.gpu
        let none = [RenderingChoice.renderDeviceVariable: "/dev/null"]
        #expect(RenderingChoice(configured: nil, renderer: llvmpipe).firstWebProcessEnvironment(given: [:]) == none)
        #expect(RenderingChoice(configured: .never, renderer: gpu).firstWebProcessEnvironment(given: ["PATH": "/usr/bin"]) == none)
        #expect(RenderingChoice(configured: nil, renderer: llvmpipe, dmabufRenderer: false).firstWebProcessEnvironment(given: [:]) == none)
        for kept in Self.compositingOn {
            #expect(kept.firstWebProcessEnvironment(given: [:]).isEmpty, "\(kept.policyName) (\(kept.reason.rawValue))")
        }
        let users = [RenderingChoice.renderDeviceVariable: "/dev/dri/renderD129"]
        #expect(RenderingChoice(configured: nil, renderer: llvmpipe).firstWebProcessEnvironment(given: users).isEmpty)
    }
}
