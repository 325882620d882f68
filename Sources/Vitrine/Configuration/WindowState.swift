#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An app window's size, position and maximized state, kept per application id
/// (`[window] remember`) in `window.json` of the app's data folder and restored at start.
public struct WindowState: Codable, Sendable, Equatable {
    /// The size when not maximized (what unmaximizing goes back to).
    public var width: Int
    public var height: Int
    /// The position (X11 only: Wayland gives windows none); nil when unknown.
    public var x: Int?
    public var y: Int?
    public var maximized: Bool

    public init(width: Int, height: Int, x: Int? = nil, y: Int? = nil, maximized: Bool = false) {
        self.width = width
        self.height = height
        self.x = x
        self.y = y
        self.maximized = maximized
    }

    /// Whether the state can be restored: a size a window can have, a position on some screen.
    public var isSound: Bool {
        WindowSize.accepts(width) && WindowSize.accepts(height) && width <= 32767 && height <= 32767
            && [x, y].allSatisfy { $0.map { abs($0) <= 32767 } ?? true }
    }

    /// The file the state of the app's windows is kept in.
    public static func file(in directory: URL) -> URL { directory.appendingPathComponent("window.json") }

    /// The saved state, if there is a sound one.
    public static func load(from directory: URL) -> WindowState? {
        guard let data = try? Data(contentsOf: file(in: directory)),
              let state = try? JSONDecoder().decode(WindowState.self, from: data), state.isSound
        else { return nil }
        return state
    }

    /// Saves the state (a temporary file renamed over the old one). Best effort: a window
    /// that cannot be remembered still closes.
    public func save(in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: Self.file(in: directory), options: .atomic)
    }
}
