#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a kiosk needs beyond an ordinary window: lockdown, idle reset, recovery.
public struct KioskOptions: Sendable, Equatable {
    /// No context menu, no developer tools, no zoom or history key shortcuts.
    public var lockdown: Bool
    /// Hide the mouse pointer over the window (touch screens).
    public var hidesCursor: Bool
    /// Back to the start page after this long without input; nil: never.
    public var idleReset: Duration?
    /// On idle reset, also clear cookies, storage and caches.
    public var clearsDataOnIdleReset: Bool
    /// Keep the screen from blanking while the window runs.
    public var inhibitsScreenBlanking: Bool
    /// More web-process crashes than this within `crashLoopWindow` show the error page
    /// with a countdown instead of restarting at once.
    public var crashLoopLimit: Int
    public var crashLoopWindow: Duration
    /// How long the crash-loop page waits before trying again.
    public var crashLoopBackoff: Duration
    /// A page whose web process stops answering for this long is terminated and reloaded.
    public var unresponsiveTimeout: Duration
    /// A web process using more than this many megabytes is killed and recovered like a
    /// crash; nil: WebKit's own handling of memory pressure.
    public var webMemoryLimit: Int?
    /// A page whose server has not begun to answer after this long is given up on, shown
    /// as the error page and tried again like any failed load (a backend that accepts
    /// connections but hangs); nil: WebKit waits as long as the connection lives.
    public var loadTimeout: Duration? = .seconds(30)
    /// Degrees clockwise the kiosk session turns the output (cage's `-r`, once per 90°).
    public var rotation = 0
    /// Vitrine's own on-screen keyboard, below the page, for touch screens without a
    /// keyboard (cage has no input-method protocol for a system keyboard).
    public var onScreenKeyboard = false

    public init(
        lockdown: Bool = true, hidesCursor: Bool = false, idleReset: Duration? = nil,
        clearsDataOnIdleReset: Bool = false, inhibitsScreenBlanking: Bool = true,
        crashLoopLimit: Int = 3, crashLoopWindow: Duration = .seconds(60), crashLoopBackoff: Duration = .seconds(30),
        unresponsiveTimeout: Duration = .seconds(10)
    ) {
        self.lockdown = lockdown
        self.hidesCursor = hidesCursor
        self.idleReset = idleReset
        self.clearsDataOnIdleReset = clearsDataOnIdleReset
        self.inhibitsScreenBlanking = inhibitsScreenBlanking
        self.crashLoopLimit = crashLoopLimit
        self.crashLoopWindow = crashLoopWindow
        self.crashLoopBackoff = crashLoopBackoff
        self.unresponsiveTimeout = unresponsiveTimeout
        webMemoryLimit = nil
        rotation = 0
    }

    /// Whether `limit` can be a crash-loop limit: the one rule the builder and a
    /// configuration file apply.
    public static func acceptsCrashLoopLimit(_ limit: Int) -> Bool { limit >= 1 }

    /// Whether `megabytes` can be a web memory limit (WebKit's own start needs some 50 MB).
    public static func acceptsWebMemoryLimit(_ megabytes: Int) -> Bool { (64...1_048_576).contains(megabytes) }
    public static let rotations = [0, 90, 180, 270]
}
