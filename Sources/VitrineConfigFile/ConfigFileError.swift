#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// A configuration file that cannot make a working configuration, and where.
///
/// Its description is `FILE:LINE:COLUMN: message` — what is wrong and what was expected,
/// at the offending key or value — or `FILE: message` when no position applies (the file
/// cannot be read, or `Configurator.build()` refuses a value the file does not write).
public struct ConfigFileError: Error, Equatable, CustomStringConvertible {
    /// The file as it was named (the path given, not made absolute).
    public let file: String
    /// 1-based; nil when the problem has no position.
    public let line: Int?
    /// 1-based, in Unicode scalars; nil when the problem has no position.
    public let column: Int?
    public let message: String
    /// Further problems found in the same file, in document order. Reading stops at
    /// nothing: a file with three typos reports three errors.
    public internal(set) var otherErrors: [ConfigFileError] = []

    public init(file: String, line: Int?, column: Int?, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    init(file: String, at position: TOMLSourceMap.Position, _ message: String) {
        self.init(file: file, line: position.line, column: position.column, message: message)
    }

    public var description: String {
        guard let line, let column else { return "\(file): \(message)" }
        return "\(file):\(line):\(column): \(message)"
    }

    /// This error and the others, one per line.
    public var allErrors: [ConfigFileError] {
        var first = self
        first.otherErrors = []
        return [first] + otherErrors
    }
}
