#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a layout file cannot serve: its path and what is wrong, in one line.
public struct KeyboardLayoutError: Error, Equatable, CustomStringConvertible {
    public let source: String
    public let problem: String

    public var description: String { "keyboard layout \(source): \(problem)" }
}
