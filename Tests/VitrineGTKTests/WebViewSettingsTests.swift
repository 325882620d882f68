import CWebKitGTK
import Foundation
import Testing
import Vitrine
@testable import VitrineGTK
import VitrineTestingGTK

extension WebKitTests {
    /// The core's `WebViewSettings` reach each real view's `WebKitSettings`.
    @Suite
    @MainActor
    struct WebViewSettingsTests {
        private func settings(_ refine: (Configurator) -> Configurator) throws -> UnsafeMutablePointer<WebKitSettings>? {
            TestLoop.start()
            let container = WebContainer(configuration: try refine(ConfiguratorFactory.make(for: .default)).build())
            defer { container.close() }
            return webkit_web_view_get_settings(try #require(container.stage.panes.first).webView).map { g_object_ref(gptr($0)); return $0 }
        }

        /// Configured, the file's policy; not configured, `never` on Xvfb's software renderer
        /// (llvmpipe), where WebKit's own choice composites on the CPU twice over.
        @Test func hardwareAccelerationIsTheFilesElseNeverOnASoftwareRenderer() throws {
            let defaults = webkit_settings_new()
            defer { g_object_unref(gptr(defaults!)) }
            try #require(ProcessRendering.glRenderer.map(RenderingChoice.isSoftware) == true,
                         "Xvfb renders with Mesa's llvmpipe: \(ProcessRendering.glRenderer ?? "no EGL renderer")")
            // The policy's renderer comes from listing EGL devices, not from a GL context: both agree.
            #expect(ProcessRendering.renderer == ProcessRendering.softwareDevice)
            let cases: [(HardwareAcceleration?, WebKitHardwareAccelerationPolicy)] = [
                (.never, WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER), (.always, WEBKIT_HARDWARE_ACCELERATION_POLICY_ALWAYS),
                (.auto, webkit_settings_get_hardware_acceleration_policy(defaults)), (nil, WEBKIT_HARDWARE_ACCELERATION_POLICY_NEVER),
            ]
            for (configured, expected) in cases {
                let viewSettings = try #require(try settings { $0.preference(\.hardwareAcceleration, configured) })
                defer { g_object_unref(gptr(viewSettings)) }
                #expect(webkit_settings_get_hardware_acceleration_policy(viewSettings) == expected, "\(String(describing: configured))")
            }
        }

        @Test func aDisabledDMABUFRendererReachesTheWebProcessesEnvironment() async throws {
            // Process-wide, like WebKit's own reading of it; this process's later views keep it.
            let before = Set(webProcessIDs())
            let harness = try WebTestHarness(pages: ["index.html": "<!doctype html><title>t</title>"]) {
                $0.preference(\.dmabufRenderer, false)
            }
            defer { harness.close() }
            try await harness.open("index.html")
            let started = Set(webProcessIDs()).subtracting(before)
            try #require(!started.isEmpty, "the page has a web process of its own")
            for pid in started {
                let environment = procFile("/proc/\(pid)/environ")
                let variables = environment.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                #expect(variables.contains("WEBKIT_DISABLE_DMABUF_RENDERER=1"), "web process \(pid)")
            }
        }

        @Test func developerToolsFollowTheConfigurationAndNeverUnderLockdown() throws {
            let open = try #require(try settings { $0.developerTools() })
            defer { g_object_unref(gptr(open)) }
            #expect(webkit_settings_get_enable_developer_extras(open) != 0)
            let locked = try #require(try settings { $0.developerTools().kiosk(KioskOptions(lockdown: true)).fullscreen(false) })
            defer { g_object_unref(gptr(locked)) }
            #expect(webkit_settings_get_enable_developer_extras(locked) == 0)
            #expect(webkit_settings_get_javascript_can_open_windows_automatically(locked) != 0)
        }
    }
}
