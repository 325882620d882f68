#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

public struct WindowSize: Sendable, Equatable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Whether `length` can be a window's width or height: the one rule the builder, a
    /// configuration file and the command line all apply.
    public static func accepts(_ length: Int) -> Bool { length > 0 }
}
