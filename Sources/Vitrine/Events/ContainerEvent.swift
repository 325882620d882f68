#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Something worth auditing: a navigation decision, a script message, a load event.
///
/// Every name an event line carries is a case of one of the enums below, spelled once
/// (their raw values): consumers switch over cases, so a renamed event cannot go unnoticed.
/// `Resources/events.schema.json` describes the lines they make.
public enum ContainerEvent: Sendable, Equatable {
    case navigation(url: String, handler: String, policy: NavigationPolicy, navigationType: NavigationAction.NavigationType,
                    target: NavigationAction.Target, phase: NavigationPhase)
    /// `origin` is the caller's origin as the bridge's isolated world saw it; `code` the
    /// strategy's own error (`TypeName.caseName`) when it threw one.
    case message(name: String, outcome: MessageOutcome, error: String?, origin: String? = nil, code: String? = nil)
    /// `status` is the main resource's HTTP status on `finished`, when it has one (a
    /// server's 404 page loads, and finishes, like any other); `shown` what the load
    /// shows: the live page, Vitrine's error page or a kept copy.
    case load(event: LoadEvent, url: String, error: String?, status: Int? = nil, shown: ShownPage = .live)
    /// Native work a handler or strategy asked for: a route shown, a URL opened outside.
    case native(action: NativeAction, detail: String)
    /// A page asked for a permission (camera, geolocation, …) and got this answer.
    case permission(kind: String, origin: String, granted: Bool)
    /// A print job (`[printing]`): its queue (`default`, a CUPS queue or the output file's
    /// URI), its number in this view, and how it ended; `error` says why it did not print.
    case print(queue: String, job: Int, outcome: PrintOutcome, error: String?)
    /// A playlist item's turn ended: shown, skipped, failed or stale (proof of play).
    case proofOfPlay(PlayRecord)
    /// At start: the media formats GStreamer decodes here and those it does not.
    case mediaCodecs(MediaCodecs)
    /// At start: the GL renderer and the hardware-acceleration policy chosen for it.
    case renderer(RenderingChoice)
    /// A playlist bundle's sync: updated, unchanged or failed (the version on disk stays).
    case bundleSync(BundleSyncReport)
    /// A start-up phase reached (`[events] startup-trace`).
    case startup(StartupTrace.Mark)
    /// A sidecar's life (`[[sidecars]]`): started (`port`, `pid`), ready, exited (`code` or
    /// `signal`), restarting (`detail`: the pause), failed (`detail`: why), stopped.
    case sidecar(SidecarRecord)
    /// A line a sidecar wrote on `stream` (`stdout`, `stderr`), bounded (`SidecarOutput`).
    case sidecarOutput(name: String, stream: String, line: String)

    /// An event line's `type`.
    public enum Kind: String, Sendable, CaseIterable {
        case navigation, message, load, native, permission, print
        case proofOfPlay = "proof-of-play"
        case mediaCodecs = "media-codecs"
        case renderer
        case bundleSync = "bundle-sync"
        case startup
        case sidecar
        case sidecarOutput = "sidecar-output"
    }

    /// How a print job ended.
    public enum PrintOutcome: String, Sendable, CaseIterable {
        case printed, failed, refused
    }

    /// When the navigation was judged: before its request, at its response, or once its
    /// document was committed (a kiosk refusing a top-level document it never shows).
    public enum NavigationPhase: String, Sendable, CaseIterable {
        case request, response, commit
    }

    /// A script message's fate: its strategy's reply, or an error.
    public enum MessageOutcome: String, Sendable, CaseIterable {
        case resolved, rejected
    }

    /// A page load's progress, after WebKit's `load-changed` (`started` … `finished`),
    /// `load-failed` (`failed`) and `load-failed-with-tls-errors` (`tls-error`). A failed
    /// load ends in `finished` too.
    public enum LoadEvent: String, Sendable, CaseIterable {
        case started, redirected, committed, finished, failed
        case tlsError = "tls-error"
    }

    /// What a load shows: the page itself, Vitrine's error page in its place, or its kept
    /// copy (`PageSnapshots`) shown while the page cannot be reached.
    public enum ShownPage: String, Sendable, CaseIterable {
        case live
        case errorPage = "error-page"
        case snapshot
    }

    /// What native work happened (`detail` says on what).
    public enum NativeAction: String, Sendable, CaseIterable {
        // Pages and windows
        case home
        case showHome = "show-home"
        case presentRoute = "present-route"
        case openExternally = "open-externally"
        case openWindow = "open-window"
        case emit
        case confirm
        case message
        case window
        case windowStateRestored = "window-state-restored"
        case blockedClose = "blocked-close"
        case clipboard
        case notification
        case notificationClicked = "notification-clicked"
        case notificationAction = "notification-action"
        case colorScheme = "color-scheme"
        case colorSchemeIgnored = "color-scheme-ignored"
        case deepLink = "deep-link"
        case deepLinkRefused = "deep-link-refused"
        case shortcut
        case fileDialog = "file-dialog"
        case menu
        case menuActivated = "menu-activated"
        case tray
        case trayActivated = "tray-activated"
        case printDialog = "print-dialog"
        case printPDF = "print-pdf"
        case filesDropped = "files-dropped"
        case filesDropRefused = "files-drop-refused"
        case devReload = "dev-reload"
        // Recovery: crashes, hangs, failed loads and their retries
        case webProcessTerminated = "web-process-terminated"
        case recover
        case crashLoop = "crash-loop"
        case unresponsive
        case loadFailure = "load-failure"
        case errorPage = "error-page"
        case retry
        case retryLoad = "retry-load"
        case recovered
        /// A kiosk's start page could not be reached: its kept copy is shown instead.
        case pageStale = "page-stale"
        // Network and certificates
        case proxy
        case ca
        case caFailed = "ca-failed"
        case caTrusted = "ca-trusted"
        case tlsException = "tls-exception"
        case tlsExceptionFailed = "tls-exception-failed"
        case clientCertificate = "client-certificate"
        case clientCertificateFailed = "client-certificate-failed"
        case credentials
        case authenticationRefused = "authentication-refused"
        // Downloads
        case downloadStarted = "download-started"
        case downloadFinished = "download-finished"
        case downloadRefused = "download-refused"
        // Kiosk lock-down
        case blockedShortcut = "blocked-shortcut"
        case blockedContextMenu = "blocked-context-menu"
        case blockedDialog = "blocked-dialog"
        case cursorHidden = "cursor-hidden"
        case inhibitIdle = "inhibit-idle"
        /// A held idle inhibition handed back (its detail: the reason it was taken for).
        case uninhibitIdle = "uninhibit-idle"
        case idleReset = "idle-reset"
        case dataCleared = "data-cleared"
        case keyboardShown = "keyboard-shown"
        case keyboardHidden = "keyboard-hidden"
        case keyboardLayoutError = "keyboard-layout-error"
        // Signage and displays
        case schedulePage = "schedule-page"
        case schedulePageFailed = "schedule-page-failed"
        case schedulePageShown = "schedule-page-shown"
        case schedulePageStale = "schedule-page-stale"
        case snapshotSaved = "snapshot-saved"
        case snapshotFailed = "snapshot-failed"
        case scheduleReload = "schedule-reload"
        case displayOn = "display-on"
        case displayOff = "display-off"
        case displayWindowOpened = "display-window-opened"
        case displayWindowShown = "display-window-shown"
        case displayWindowClosed = "display-window-closed"
        case alertStarted = "alert-started"
        case alertEnded = "alert-ended"
        // Configuration pushes
        case configPush = "config-push"
        // The remote view ([remote.vnc])
        /// Its server listened somewhere the configuration does not name, and was stopped.
        case remoteViewRefused = "remote-view-refused"
        // Crash and error reports ([reports] upload)
        /// Reports not sent before were accepted by the upload's server (`detail`: how many).
        case reportsSent = "reports-sent"
        /// The upload of the reports failed (`detail`: why); they stay unsent for the next start.
        case reportsUploadFailed = "reports-upload-failed"
        // Signed updates: the new version took over (detail: version, time from download to its page, its pid),
        // or the previous one came back (detail: version: reason).
        case updateInstalled = "update-installed"
        case updateRolledBack = "update-rolled-back"

        /// The display's new state.
        public static func display(on: Bool) -> NativeAction { on ? .displayOn : .displayOff }
        /// The on-screen keyboard's new state.
        public static func keyboard(shown: Bool) -> NativeAction { shown ? .keyboardShown : .keyboardHidden }
    }

    /// The line's `type`.
    public var kind: Kind {
        switch self {
        case .navigation: .navigation
        case .message: .message
        case .load: .load
        case .native: .native
        case .permission: .permission
        case .print: .print
        case .proofOfPlay: .proofOfPlay
        case .mediaCodecs: .mediaCodecs
        case .renderer: .renderer
        case .bundleSync: .bundleSync
        case .startup: .startup
        case .sidecar: .sidecar
        case .sidecarOutput: .sidecarOutput
        }
    }

    /// The JSON object written to the events log (see `encode(to:)`).
    public var json: JSONValue {
        (try? JSONValue(encoding: self)) ?? .null
    }
}

extension ContainerEvent: Encodable {
    private enum Key: String, CodingKey {
        case type, url, handler, policy, navigationType, target, phase, name, outcome, error, code, origin, event,
             action, detail, kind, granted, queue, job, item, start, end, seconds, decoders, missing, renderer, reason, version, status, monotonic, shown,
             port, pid, signal, stream, line
    }

    /// The event as one JSON object: `type` and the case's fields, nil ones left out. The
    /// events log encodes this directly (no `JSONValue` in between: it runs on every script
    /// message).
    public func encode(to encoder: any Encoder) throws {
        var object = encoder.container(keyedBy: Key.self)
        let fields: [(Key, String?)]
        switch self {
        case let .navigation(url, handler, policy, navigationType, target, phase):
            fields = [(.url, url), (.handler, handler), (.policy, policy.rawValue),
                      (.navigationType, navigationType.rawValue), (.target, target.rawValue), (.phase, phase.rawValue)]
        case let .message(name, outcome, error, origin, code):
            fields = [(.name, name), (.outcome, outcome.rawValue), (.error, error), (.code, code), (.origin, origin)]
        case let .load(event, url, error, status, shown):
            fields = [(.event, event.rawValue), (.url, url), (.error, error), (.shown, shown.rawValue)]
            try object.encodeIfPresent(status, forKey: .status)
        case let .native(action, detail):
            fields = [(.action, action.rawValue), (.detail, detail)]
        case let .permission(kind, origin, granted):
            fields = [(.kind, kind), (.origin, origin)]
            try object.encode(granted, forKey: .granted)
        case let .print(queue, job, outcome, error):
            fields = [(.queue, queue), (.outcome, outcome.rawValue), (.error, error)]
            try object.encode(job, forKey: .job)
        case let .proofOfPlay(record):
            fields = [(.url, record.url), (.start, PlayRecord.timestamp(record.start)), (.end, PlayRecord.timestamp(record.end)),
                      (.outcome, record.outcome.rawValue)]
            try object.encode(record.item, forKey: .item)
            try object.encode(record.seconds, forKey: .seconds)
        case let .mediaCodecs(codecs):
            fields = []
            try object.encode(codecs.playable.map(\.rawValue), forKey: .decoders)
            try object.encode(codecs.missing.map(\.rawValue), forKey: .missing)
        case let .renderer(choice):
            fields = [(.renderer, choice.renderer), (.policy, choice.policyName), (.reason, choice.reason.rawValue)]
        case let .bundleSync(report):
            fields = [(.url, report.url), (.outcome, report.outcome.rawValue), (.version, report.version), (.reason, report.reason)]
        case let .startup(mark):
            fields = [(.phase, mark.phase.rawValue)]
            try object.encode(mark.monotonic, forKey: .monotonic)
        case let .sidecar(record):
            fields = [(.name, record.name), (.event, record.event.rawValue), (.detail, record.detail)]
            try object.encodeIfPresent(record.port, forKey: .port)
            try object.encodeIfPresent(record.pid, forKey: .pid)
            try object.encodeIfPresent(record.code, forKey: .code)
            try object.encodeIfPresent(record.signal, forKey: .signal)
        case let .sidecarOutput(name, stream, line):
            fields = [(.name, name), (.stream, stream), (.line, line)]
        }
        try object.encode(kind.rawValue, forKey: .type)
        for (key, value) in fields { try object.encodeIfPresent(value, forKey: key) }
    }
}

