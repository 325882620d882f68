#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A native capability a page may be granted (`[capabilities]` in a configuration file).
/// Each is answered by the built-in strategy of the same name, which refuses every page
/// whose origin was not granted it. `app` is the app's place on the desktop: its deep
/// links (`deep-link` events reach only its pages) and its autostart entry; `shortcuts`
/// its global shortcuts.
public enum Capability: String, Sendable, CaseIterable {
    case dialog, clipboard, window, storage, notification, shell, app, shortcuts
}

