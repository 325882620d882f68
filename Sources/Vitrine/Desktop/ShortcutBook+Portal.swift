#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The book as the desktop portal's GlobalShortcuts binds it (Wayland): the whole list at
/// once, each shortcut under a portal id of its own. Two windows may use one page id, but
/// never one accelerator, so the accelerator names the shortcut to the portal.
extension ShortcutBook {
    /// One shortcut of a `BindShortcuts` call.
    public struct PortalShortcut: Sendable, Equatable {
        /// The portal's id: the accelerator as a page writes it (`Ctrl+Alt+K`).
        public let id: String
        /// What the desktop shows the user: the page's id for it.
        public let description: String
        /// The keys the app prefers (`CTRL+ALT+k`); the user may choose others.
        public let preferredTrigger: String

        public init(id: String, description: String, preferredTrigger: String) {
            self.id = id
            self.description = description
            self.preferredTrigger = preferredTrigger
        }
    }

    public var portalShortcuts: [PortalShortcut] {
        entries.map { PortalShortcut(id: $0.accelerator.description, description: $0.id, preferredTrigger: $0.accelerator.portalTrigger) }
    }

    /// The entry an `Activated` signal's shortcut id names, if it is still registered.
    public func entry(portalID: String) -> Entry? {
        entries.first { $0.accelerator.description == portalID }
    }

    /// Why `accelerator` is not bound after the portal's answer to `BindShortcuts` (its
    /// Request's response code and the ids the results list), or nil when it is.
    public static func portalRefusal(of accelerator: Accelerator, response: UInt32, bound: [String]) -> ScriptMessageError? {
        switch response {
        case 0 where bound.contains(accelerator.description): nil
        case 0: ScriptMessageError("shortcuts: \(accelerator) was not bound: the user left it out in the desktop's shortcuts dialog")
        case 1: ScriptMessageError("shortcuts: \(accelerator) was refused: the user cancelled the desktop's shortcuts dialog")
        default: ScriptMessageError("shortcuts: \(accelerator) was refused: the desktop ended the request without binding it")
        }
    }
}
