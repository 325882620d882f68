#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a page asks of its window (`window` capability), made from its request
/// (`WindowStrategy.Request`) and checked here so that a malformed one is refused before
/// any GTK call.
public enum WindowCommand: Sendable, Equatable {
    /// `{id, title, width, height, maximized, fullscreen, focused}` of the asking window.
    case state
    case setTitle(String)
    case resize(width: Int, height: Int)
    case minimize
    case maximize
    case unmaximize
    case fullscreen(Bool)
    case keepAbove(Bool)
    case close
    /// Moves the window with the pointer while its first button is held (a press on the
    /// page's drag region: `data-vitrine-drag-region`); refused when the button is up.
    case beginMove
    /// Another window on `url` (a pane with the same chain, strategies and origin rules);
    /// answers `{id}`.
    case open(WindowRequest)

    /// The command `request` asks for, resolving `open`'s URL against `pageURL`.
    public init(_ request: WindowStrategy.Request, pageURL: URL?) throws(ScriptMessageError) {
        switch request {
        case .state: self = .state
        case .setTitle(let title): self = .setTitle(title)
        case .resize(let width, let height):
            self = .resize(width: try Self.length(width, "width", for: "resize"), height: try Self.length(height, "height", for: "resize"))
        case .minimize: self = .minimize
        case .maximize: self = .maximize
        case .unmaximize: self = .unmaximize
        case .fullscreen(let on): self = .fullscreen(on != false)
        case .keepAbove(let on): self = .keepAbove(on != false)
        case .close: self = .close
        case .beginMove: self = .beginMove
        case .open(let text, let title, let width, let height):
            guard let url = URL(string: text, relativeTo: pageURL)?.absoluteURL, url.scheme != nil else {
                throw ScriptMessageError("window: open: '\(text)' is not a URL")
            }
            self = .open(WindowRequest(url: url, title: title, width: try width.map { width throws(ScriptMessageError) in
                try Self.length(width, "width", for: "open")
            }, height: try height.map { height throws(ScriptMessageError) in try Self.length(height, "height", for: "open") }))
        }
    }

    /// The command the posted `body` asks for (`{"action": …}`), resolving `open`'s URL against `pageURL`.
    public init(body: JSONValue, pageURL: URL?) throws(ScriptMessageError) {
        let message = ScriptMessage(name: WindowStrategy.identifier, body: body, pageURL: pageURL)
        try self.init(try TypedPayload.decode(WindowStrategy.Request.self, from: message), pageURL: pageURL)
    }

    /// Why a kiosk's window refuses this command, or nil: a kiosk stays fullscreen and shown.
    public var kioskRefusal: ScriptMessageError? {
        switch self {
        case .fullscreen(false): ScriptMessageError("window: fullscreen: a kiosk's window stays fullscreen")
        case .minimize: ScriptMessageError("window: minimize: a kiosk's window stays shown")
        case .beginMove: ScriptMessageError("window: beginMove: a kiosk's window stays where it is")
        default: nil
        }
    }

    private static func length(_ number: Double, _ key: String, for action: String) throws(ScriptMessageError) -> Int {
        guard number == number.rounded(), number >= 1, number <= 32767 else {
            throw ScriptMessageError("window: \(action) needs \(key), a whole number of pixels from 1 to 32767")
        }
        return Int(number)
    }
}

extension Configuration {
    /// The configuration of another window of the app on `request.url`: the same chain,
    /// strategies, origin rules, capabilities and app id; its own title and size; one page
    /// (no tabs). A kiosk's window is a kiosk too (the same lockdown, dialog gate and
    /// navigation rules, fullscreen when the kiosk is); an app's is never fullscreen. Only the app's own origins may be opened so,
    /// since a window's start page is one of its app origins, the origins stay the same.
    /// With `openWindows` of the app's windows open already, at most `maxWindows` in all:
    /// a page looping `window.open` gets the rest refused.
    public func forWindow(_ request: WindowRequest, openWindows: Int = 0) throws(ScriptMessageError) -> Configuration {
        guard openWindows < preferences.maxWindows else {
            throw ScriptMessageError("window: open: the app has \(openWindows) windows open, the most [capabilities] max-windows "
                + "allows (\(preferences.maxWindows)); close one first")
        }
        guard let origin = Origin(request.url), appOrigins.contains(origin) else {
            throw ScriptMessageError("window: open: \(request.url.absoluteString) is not of the app's origins "
                + "(\(appOrigins.map(\.description).sorted().joined(separator: ", "))); the shell capability opens other sites")
        }
        var preferences = self.preferences
        preferences.applicationID = applicationID
        preferences.title = request.title ?? preferences.title
        preferences.windowSize = WindowSize(width: request.width ?? preferences.windowSize.width,
                                            height: request.height ?? preferences.windowSize.height)
        preferences.fullscreen = kiosk != nil && preferences.fullscreen
        preferences.remembersWindowState = false
        return refined(preferences: preferences, startURL: request.url, allowedOrigins: appOrigins, tabs: [])
    }
}
