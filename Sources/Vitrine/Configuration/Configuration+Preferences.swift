#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The simple settings, read as the configuration's own properties (`configuration.title`):
/// each declared here, so a reader (and the compiler) sees every one; a new field of
/// `Preferences` gets its line here too. `applicationID` is the configuration's own
/// (never nil: see `Configuration.applicationID`).
extension Configuration {
    public var title: String { preferences.title }
    public var disablesZoom: Bool { preferences.disablesZoom }
    public var titleFollowsPage: Bool { preferences.titleFollowsPage }
    public var windowSize: WindowSize { preferences.windowSize }
    public var fullscreen: Bool { preferences.fullscreen }
    public var userAgent: String? { preferences.userAgent }
    public var developerTools: Bool { preferences.developerTools }
    public var downloadDirectory: URL? { preferences.downloadDirectory }
    public var showsErrorPages: Bool { preferences.showsErrorPages }
    public var recoversFromCrashes: Bool { preferences.recoversFromCrashes }
    public var hardwareAcceleration: HardwareAcceleration? { preferences.hardwareAcceleration }
    public var persistentStorage: Bool? { preferences.persistentStorage }
    public var dataDirectory: URL? { preferences.dataDirectory }
    public var dmabufRenderer: Bool { preferences.dmabufRenderer }
    public var autoplay: AutoplayPolicy? { preferences.autoplay }
    public var colorScheme: ColorSchemeChoice { preferences.colorScheme }
    public var sandboxesWebProcesses: Bool { preferences.sandboxesWebProcesses }
    public var allowsAutomation: Bool { preferences.allowsAutomation }
    public var drivenByAutomation: Bool { preferences.drivenByAutomation }
    public var schedule: Schedule { preferences.schedule }
    public var displays: [DisplaySetting] { preferences.displays }
    public var zones: [Zone] { preferences.zones }
    public var sidecars: [SidecarDeclaration] { preferences.sidecars }
    public var keyboardLayout: String { preferences.keyboardLayout }
    public var metricsTextfile: URL? { preferences.metricsTextfile }
    public var metricsInterval: Duration { preferences.metricsInterval }
    public var supportUpload: SecretURL? { preferences.supportUpload }
    public var keepsReports: Bool { preferences.keepsReports }
    public var reportsUpload: SecretURL? { preferences.reportsUpload }
    public var applicationIDIsDerived: Bool { preferences.applicationIDIsDerived }
    public var remembersWindowState: Bool { preferences.remembersWindowState }
    public var decorated: Bool { preferences.decorated }
    /// `[window] close-to-tray`: closing the last window while a tray icon shows hides it.
    public var closesToTray: Bool { preferences.closesToTray }
    public var mqtt: MQTTSettings? { preferences.mqtt }
    public var printing: PrintSettings? { preferences.printing }
    public var remoteView: RemoteViewSettings? { preferences.remoteView }
    public var update: UpdateSettings { preferences.update }
    public var maxWindows: Int { preferences.maxWindows }
    public var backgroundClipboard: Bool { preferences.backgroundClipboard }
    public var urlSchemes: [String] { preferences.urlSchemes }
    public var eventsLogMaxSize: Int { preferences.eventsLogMaxSize }
    public var tracesStartup: Bool { preferences.tracesStartup }
}
