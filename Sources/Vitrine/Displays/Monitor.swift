#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A monitor as the display system lists it now.
public struct Monitor: Sendable, Hashable {
    public var index: Int
    /// The connector (X11 RandR output name); nil where the system gives none.
    public var connector: String?
    public var x: Int, y: Int, width: Int, height: Int

    public init(index: Int, connector: String?, x: Int = 0, y: Int = 0, width: Int = 0, height: Int = 0) {
        self.index = index
        self.connector = connector
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
