#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A WebDriver session (`--automation`): WebKitWebDriver starts the program, and the views
/// it drives go through the same chain, strategies and origin rules as any other.
extension Configuration {
    /// Why this configuration refuses automation (`[security] allow-automation = false`,
    /// the kiosk preset's default); nil when it allows it.
    public var automationRefusal: String? {
        allowsAutomation ? nil
            : "automation is refused by this configuration ([security] allow-automation = false; the kiosk preset's default)"
    }

    /// This configuration as a session runs it: throwaway website data (nothing read from
    /// or left in the app's cookies and storage), the window's state neither restored nor
    /// saved, and compositing left on (see `RenderingChoice`).
    public func forAutomation() -> Configuration {
        var preferences = preferences
        preferences.drivenByAutomation = true
        preferences.persistentStorage = false
        preferences.dataDirectory = nil
        preferences.remembersWindowState = false
        return refined(preferences: preferences, startURL: startURL)
    }

    /// The browser name a session's `browserName` capability matches: the app's id when
    /// the app names one (`app-id`), else `vitrine` (the demo, a page or folder opened as is).
    public var automationBrowserName: String {
        applicationID == ApplicationID.stock || applicationIDIsDerived ? "vitrine" : applicationID
    }
}
