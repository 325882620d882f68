import CWebKitGTK
import Vitrine

/// What this machine offers WebKit to draw and play with, read once per process: the GL
/// renderer (through EGL, see `vitrine_egl_renderer`) and GStreamer's decoders. The core
/// decides from them (`RenderingChoice`, `MediaCodecs`).
///
/// Both are plain C calls with no GTK state: any thread may ask (`check-config` does,
/// without a display).
public enum ProcessRendering {
    /// The GL renderer's name; nil where EGL gives none.
    public static let glRenderer: String? = {
        guard let name = vitrine_egl_renderer() else { return nil }
        defer { g_free(name) }
        return String(cString: name)
    }()

    /// The views' hardware-acceleration policy for `configuration`: the renderer is read
    /// only when the configuration leaves the choice open.
    public static func choice(for configuration: Configuration) -> RenderingChoice {
        RenderingChoice(configured: configuration.hardwareAcceleration,
                        renderer: configuration.hardwareAcceleration == nil ? glRenderer : nil)
    }

    /// The formats GStreamer decodes here, or why it could not be asked.
    public static let codecs: Result<MediaCodecs, GStreamerError> = {
        var error: UnsafeMutablePointer<GError>?
        guard let caps = vitrine_gst_decoder_caps(&error) else {
            defer { if error != nil { g_error_free(error) } }
            return .failure(GStreamerError(message: error.map { String(cString: $0.pointee.message) } ?? "GStreamer did not start"))
        }
        defer { g_free(caps) }
        return .success(MediaCodecs(decoderCaps: String(cString: caps).split(separator: "\n").map(String.init)))
    }()

    public struct GStreamerError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { "GStreamer: \(message)" }
    }
}
