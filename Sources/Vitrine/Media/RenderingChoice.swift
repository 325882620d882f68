#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which of WebKit's hardware-acceleration policies the views get, and why. On a software
/// OpenGL renderer (Mesa's llvmpipe, softpipe, swrast) "acceleration" composites on the
/// CPU twice over: under Xvfb a WebGL animation runs at ~30 fps accelerated and ~60 fps
/// with the policy `never`. So unless `[rendering] hardware-acceleration` says otherwise,
/// a software renderer gets `never`.
///
/// Under automation (`--automation`) WebKit's own choice holds unless the file says `always`:
/// with compositing off, WebKitGTK 2.50 never answers WebDriver's Take Screenshot on a page
/// that stands still. Before it snapshots the view it waits for the web process to report a
/// drawn frame (`callAfterNextPresentationUpdate`), and the non-composited path reports one
/// only while the page keeps repainting (a page redrawn every frame is answered at once).
/// MiniBrowser hangs the same way under `WEBKIT_DISABLE_COMPOSITING_MODE=1`: WebKit's, not
/// the embedder's, so a session keeps compositing on rather than let a test suite that takes
/// a screenshot on failure hang on every machine without a GPU.
public struct RenderingChoice: Sendable, Equatable {
    /// Why the policy is what it is.
    public enum Reason: String, Sendable, CaseIterable {
        /// `[rendering] hardware-acceleration` chose.
        case configured
        /// The GL renderer is software: compositing without it is faster.
        case softwareRenderer = "software-renderer"
        /// A GPU renderer: WebKit's own choice.
        case gpuRenderer = "gpu-renderer"
        /// No renderer could be read (no EGL): WebKit's own choice.
        case unknownRenderer = "unknown-renderer"
        /// A WebDriver session: WebKit's own choice, so that screenshots are answered.
        case automation
        /// `[rendering] dmabuf-renderer = false`: WebKitGTK 2.50 composites only through that
        /// renderer, so never.
        case dmabufRendererOff = "dmabuf-renderer-off"
    }

    /// The policy; nil leaves WebKit's own.
    public let policy: HardwareAcceleration?
    /// The GL renderer's name as the driver gives it, when it was read.
    public let renderer: String?
    public let reason: Reason

    /// The choice for a configured policy (nil: none configured), the machine's renderer,
    /// whether a WebDriver session drives the views, and whether WebKit may use its DMA-BUF
    /// renderer.
    public init(configured: HardwareAcceleration?, renderer: String?, automation: Bool = false, dmabufRenderer: Bool = true) {
        self.renderer = renderer
        if !dmabufRenderer {
            policy = .never
            reason = .dmabufRendererOff
        } else if automation, configured != .always {
            policy = nil
            reason = .automation
        } else if let configured {
            policy = configured == .auto ? nil : configured
            reason = .configured
        } else if let renderer {
            let software = Self.isSoftware(renderer)
            policy = software ? .never : nil
            reason = software ? .softwareRenderer : .gpuRenderer
        } else {
            policy = nil
            reason = .unknownRenderer
        }
    }

    /// Whether a GL renderer string names a CPU rasterizer (Mesa's llvmpipe, softpipe and
    /// swrast, Google's SwiftShader).
    public static func isSoftware(_ renderer: String) -> Bool {
        let name = renderer.lowercased()
        return ["llvmpipe", "softpipe", "swrast", "swiftshader", "software rasterizer"].contains { name.contains($0) }
    }

    /// What a WebDriver session's program says at start when its environment turns
    /// compositing off whatever the policy: WebKit reads `WEBKIT_DISABLE_COMPOSITING_MODE`
    /// (any value but `0`) over it, and WebKitGTK 2.50 composites only through its DMA-BUF
    /// renderer, so `WEBKIT_DISABLE_DMABUF_RENDERER` (`dmabuf-renderer = false` sets it) does
    /// the same. The program inherits the driver's environment, so Take Screenshot would not
    /// answer. Nil when nothing stands in the way.
    public static func automationWarning(environment: [String: String]) -> String? {
        for name in [compositingModeVariable, dmabufRendererVariable] {
            guard let value = environment[name], value != "0" else { continue }
            return "\(name)=\(value) turns WebKit's compositing off: "
                + "WebDriver's Take Screenshot will not answer on a still page; unset it for the session"
        }
        return nil
    }

    /// What GTK and WebKit must find in the environment while GTK starts and WebKit makes its
    /// first web context, for this choice; taken out again after it, so that the programs this
    /// one starts (an update's new version, a WebDriver session's) choose for themselves. With
    /// compositing off this process draws no page with OpenGL, yet both would set it up:
    /// - WebKit's first context checks for its DMA-BUF renderer, which it never draws through
    ///   then: it initialises an EGL display (on llvmpipe about 30 ms before the first load,
    ///   and 6 MB of the UI process);
    /// - GDK opens GLX with the display, which loads Mesa's driver and LLVM (GDK's
    ///   `GDK_GL=disable` skips it; no widget of Vitrine's draws with GL).
    /// A variable the environment already has (the user's, or `dmabuf-renderer = false`'s) is
    /// left as it is.
    public func firstContextEnvironment(given environment: [String: String]) -> [String: String] {
        guard policy == .never else { return [:] }
        return [Self.dmabufRendererVariable: "1", Self.gdkGLVariable: "disable"].filter { environment[$0.key] == nil }
    }

    /// What WebKit must find in the environment when it starts this process's first web
    /// process, for this choice; taken out again after the first load request (which starts
    /// it). WebKit then looks up the GPU's render node for its web processes, and to find it,
    /// it initialises an EGL display in this process: on llvmpipe that loads Mesa's driver and
    /// LLVM, 20 MB of the UI process. With compositing off no web process draws through that
    /// node, so the variable names a file that is no GPU device, which gives the web processes
    /// none: what WebKit finds by itself on a machine without a GPU. A value the environment
    /// already has is the user's.
    public func firstWebProcessEnvironment(given environment: [String: String]) -> [String: String] {
        guard policy == .never, environment[Self.renderDeviceVariable] == nil else { return [:] }
        return [Self.renderDeviceVariable: Self.noRenderDevice]
    }

    /// WebKit's switch for compositing, read over any policy (any value but `0` turns it off).
    public static let compositingModeVariable = "WEBKIT_DISABLE_COMPOSITING_MODE"

    /// WebKitGTK's switch for its DMA-BUF renderer (any value but `0` turns it off).
    public static let dmabufRendererVariable = "WEBKIT_DISABLE_DMABUF_RENDERER"

    /// GDK's OpenGL switches (`disable`: no GL context in this process).
    public static let gdkGLVariable = "GDK_GL"

    /// The render node WebKit gives its web processes, when set (WebKit looks it up otherwise).
    public static let renderDeviceVariable = "WEBKIT_WEB_RENDER_DEVICE_FILE"

    /// A file that is no GPU device, for `renderDeviceVariable`.
    public static let noRenderDevice = "/dev/null"

    /// The policy's name as the events log and `check-config` show it (`auto`: WebKit's own).
    public var policyName: String { (policy ?? .auto).rawValue }
}
