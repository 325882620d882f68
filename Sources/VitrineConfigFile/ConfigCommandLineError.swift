/// Why a command-line value of a configuration option is refused, worded for the command
/// line (`--width must be positive, got 0`).
public struct ConfigCommandLineError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
