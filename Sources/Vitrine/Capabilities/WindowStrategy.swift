#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The asking page's window and its siblings (`window` capability).
@MainActor
public protocol WindowService: KioskAware {
    /// Carries out a window command for the window whose page asked; answers its result.
    func perform(_ command: WindowCommand) throws -> JSONValue
}

/// `window`: the asking page's window (see `WindowCommand`).
public struct WindowStrategy: TypedScriptMessageStrategy {
    public static let identifier = "window"
    public static let capability: Capability? = .window

    /// What the page posts; `WindowCommand` is what it asks, checked.
    public enum Request: ActionRequest {
        case state
        case setTitle(title: String)
        case resize(width: Double, height: Double)
        case minimize
        case maximize
        case unmaximize
        /// `on` absent: true.
        case fullscreen(on: Bool?)
        case keepAbove(on: Bool?)
        case close
        case beginMove
        /// `url` relative to the asking page; the size in whole pixels.
        case open(url: String, title: String?, width: Double?, height: Double?)
        public static let actions = ["state", "setTitle", "resize", "minimize", "maximize", "unmaximize",
                                     "fullscreen", "keepAbove", "close", "beginMove", "open"]
    }

    public nonisolated init() {}

    public func respond(to request: Request, context: ScriptMessageContext) async throws -> JSONValue {
        let command = try WindowCommand(request, pageURL: context.pageURL)
        let window = try context.service(WindowService.self, for: .window)
        if window.isKioskWindow, let refusal = command.kioskRefusal { throw refusal }
        return try window.perform(command)
    }
}
