import CWebKitGTK
import Dispatch
import Vitrine

/// What this machine offers WebKit to draw and play with, read once per process: the GL
/// renderer (through EGL, see `vitrine_egl_renderer`) and GStreamer's decoders. The core
/// decides from them (`RenderingChoice`, `MediaCodecs`).
///
/// Both are plain C calls with no GTK state: any thread may ask (`check-config` does,
/// without a display).
public enum ProcessRendering {
    /// The renderer the views' policy is chosen for. A machine whose EGL devices are all
    /// Mesa's software one renders on the CPU whatever its driver's name: listing devices
    /// tells that without making a GL context, which on llvmpipe costs the first window
    /// about 100 ms (`vitrine_egl_software_only`). A machine with a GPU is asked its name.
    public static let renderer: String? = vitrine_egl_software_only() == 1 ? softwareDevice : glRenderer

    /// The renderer's name on a machine with only Mesa's software EGL device.
    public static let softwareDevice = "Mesa software rasterizer (EGL_MESA_device_software)"

    /// The GL renderer's name as the driver gives it (a GL context is made to read it); nil
    /// where EGL gives none.
    public static let glRenderer: String? = {
        guard let name = vitrine_egl_renderer() else { return nil }
        defer { g_free(name) }
        return String(cString: name)
    }()

    /// The views' hardware-acceleration policy for `configuration`: the renderer is read
    /// only when the configuration leaves the choice open.
    public static func choice(for configuration: Configuration) -> RenderingChoice {
        RenderingChoice(configured: configuration.hardwareAcceleration,
                        renderer: configuration.hardwareAcceleration == nil ? renderer : nil,
                        automation: configuration.drivenByAutomation,
                        dmabufRenderer: configuration.dmabufRenderer)
    }

    /// The formats GStreamer decodes here, or why it could not be asked.
    public static let codecs: Result<MediaCodecs, GStreamerError> = decoderCaps.map(MediaCodecs.init(decoderCaps:))

    /// The sink caps of GStreamer's decoders here, one per pad template, or why GStreamer
    /// could not be asked (what `vitrine media-decoders` prints).
    public static var decoderCaps: Result<[String], GStreamerError> {
        var error: UnsafeMutablePointer<GError>?
        guard let caps = vitrine_gst_decoder_caps(&error) else {
            defer { if error != nil { g_error_free(error) } }
            return .failure(GStreamerError(message: error.map { String(cString: $0.pointee.message) } ?? "GStreamer did not start"))
        }
        defer { g_free(caps) }
        return .success(String(cString: caps).split(separator: "\n").map(String.init))
    }

    /// The command that lists the decoders in a process of its own (`vitrine media-decoders`),
    /// if this program has one: GStreamer's registry, read to list them, then never enters
    /// this long-lived process (about 1.7 MB). Set by the program before the first window.
    @MainActor public static var decoderLister: [String]?

    /// Lists the decoders without holding up the main loop (GStreamer reads its plugin
    /// registry: tens of milliseconds the first window need not wait for): through
    /// `decoderLister` when there is one, else on another thread. Hands them to `listed` on
    /// the main thread, once.
    @MainActor
    public static func listCodecs(then listed: @escaping @MainActor @Sendable (Result<MediaCodecs, GStreamerError>) -> Void) {
        if let decoderLister { return DecoderListing.start(decoderLister, then: listed) }
        DispatchQueue.global(qos: .utility).async {
            let codecs = Self.codecs
            DispatchQueue.main.async { listed(codecs) }
        }
    }

    public struct GStreamerError: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { "GStreamer: \(message)" }
    }
}
