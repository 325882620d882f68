#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// What a configuration file says, checked and typed, before it meets a preset and the
/// command line. Absent keys are nil (or empty): the preset's value stays.
struct ConfigSettings: Sendable {
    var preset: Preset?
    var startURL: URL?
    var title: String?
    var allowedOrigins: [Origin] = []
    var appDirectory: URL?
    var userAgent: String?
    var developerTools: Bool?
    var disablesZoom: Bool?
    var titleFollowsPage: Bool?
    var showsErrorPages: Bool?
    var recoversFromCrashes: Bool?
    var downloadDirectory: URL?

    var width: Int?
    var height: Int?
    var fullscreen: Bool?

    var decisionTimeout: Duration?
    /// Replaces the preset's chain when present.
    var handlers: [HandlerSetting]?

    /// Replaces the preset's strategies when present, in this order.
    var strategies: [String]?
    var strategyOrigins: [(identifier: String, origins: Set<Origin>)] = []

    var tabs: [Tab]?
    var kiosk: KioskSetting?
    var permissions: [PermissionGrant] = []
    var trustedCertificates: [TLSException] = []
}

/// One `[[navigation.handlers]]` entry.
struct HandlerSetting: Sendable {
    enum Kind: Sendable {
        case deepLink(schemes: Set<String>)
        /// Nil: the start URL, known only once the command line has been applied.
        case home(url: URL?)
        case nativeRoute(routes: [RoutePattern], origins: Set<Origin>)
        case payment(pathPrefixes: [String]?, timeout: Duration?)
        case externalBrowser(origins: Set<Origin>?, schemes: Set<String>?)
        case originAllowlist(origins: Set<Origin>?)
        /// Nil: download exactly when a download directory is configured.
        case defaultAllow(downloads: Bool?)
    }

    var kind: Kind
    /// Where the entry starts, for problems found once the command line has been applied.
    var position: TOMLSourceMap.Position
    /// `navigation.handlers[N]`, for messages.
    var displayPath: String

    /// The handler names the file accepts in `type`, as the chain reports them.
    static let types = ["deep-link", "home", "native-route", "payment", "external-browser", "origin-allowlist", "default-allow"]
}

/// The `[kiosk]` table: each key refines the preset's (or the default) kiosk options.
struct KioskSetting: Sendable {
    enum ExternalLinks: String, Sendable, CaseIterable {
        /// The chain decides (the kiosk preset's origin-allowlist cancels them).
        case block
        /// Open them in the desktop's browser: an external-browser handler goes before the
        /// chain's origin-allowlist.
        case browser
    }

    var lockdown: Bool?
    var hidesCursor: Bool?
    /// `.some(nil)`: never (the file said 0).
    var idleReset: Duration??
    var clearsDataOnIdleReset: Bool?
    var inhibitsScreenBlanking: Bool?
    var crashLoopLimit: Int?
    var crashLoopWindow: Duration?
    var crashLoopBackoff: Duration?
    var unresponsiveTimeout: Duration?
    var externalLinks: ExternalLinks?

    func applied(to base: KioskOptions) -> KioskOptions {
        var options = base
        if let lockdown { options.lockdown = lockdown }
        if let hidesCursor { options.hidesCursor = hidesCursor }
        if let idleReset { options.idleReset = idleReset }
        if let clearsDataOnIdleReset { options.clearsDataOnIdleReset = clearsDataOnIdleReset }
        if let inhibitsScreenBlanking { options.inhibitsScreenBlanking = inhibitsScreenBlanking }
        if let crashLoopLimit { options.crashLoopLimit = crashLoopLimit }
        if let crashLoopWindow { options.crashLoopWindow = crashLoopWindow }
        if let crashLoopBackoff { options.crashLoopBackoff = crashLoopBackoff }
        if let unresponsiveTimeout { options.unresponsiveTimeout = unresponsiveTimeout }
        return options
    }
}
