#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The WebKit settings a configuration asks for, decided once here; the adapter copies
/// them onto each view's `WebKitSettings` (with the hardware-acceleration policy of
/// `RenderingChoice`, which needs the machine's renderer).
public struct WebViewSettings: Sendable, Equatable {
    /// The inspector (developer extras): only when asked for, and never under kiosk lockdown.
    public var developerExtras: Bool
    /// Whether `window.open` without a user gesture reaches the chain. Under lockdown it
    /// does, so the chain judges and logs every one (an allowed one loads in the kiosk's
    /// own view) rather than WebKit's popup blocker dropping it silently.
    public var javascriptCanOpenWindows: Bool
    /// Replaces WebKit's user agent when set.
    public var userAgent: String?
    /// Whether media may start by itself (WebKit's website policies, fixed when the view is made).
    public var autoplay: AutoplayPolicy
}

extension Configuration {
    public var webViewSettings: WebViewSettings {
        let lockdown = kiosk?.lockdown == true
        return WebViewSettings(
            developerExtras: self.developerTools && !lockdown,
            javascriptCanOpenWindows: lockdown,
            userAgent: self.userAgent,
            autoplay: autoplayPolicy)
    }
}

extension Configuration {
    /// Environment variables WebKit reads once per process, before its first web context, and
    /// its web processes after it: set by the adapter before GTK and WebKit start, for the
    /// life of the process (see also `RenderingChoice.firstContextEnvironment`).
    public var webKitEnvironment: [String: String] {
        self.dmabufRenderer ? [:] : [RenderingChoice.dmabufRendererVariable: "1"]
    }
}

extension Configuration {
    /// The web processes' memory settings: a kiosk's `web-memory-limit`, or nil (WebKit's
    /// own handling). Checked every 2 s: a kiosk should not wait WebKit's default 30 s.
    public var webProcessMemory: WebProcessMemory? {
        kiosk?.webMemoryLimit.map { WebProcessMemory(limit: $0, pollInterval: .seconds(2), killThreshold: 1) }
    }
}

extension Configuration {
    public var websiteDataStorage: WebsiteDataStorage {
        (self.persistentStorage ?? (kiosk == nil)) ? .persistent(directory: self.dataDirectory) : .ephemeral
    }
}
