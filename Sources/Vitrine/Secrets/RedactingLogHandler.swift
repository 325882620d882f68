import Logging

/// A log handler that passes every message and metadata value through
/// `Redaction.text(_:)` before the handler it wraps writes it: log lines reach standard
/// error, the journal and support bundles like any other output.
public struct RedactingLogHandler: LogHandler {
    private var wrapped: any LogHandler

    public init(_ wrapped: any LogHandler) {
        self.wrapped = wrapped
    }

    /// Makes every `Logger` of the process write through this, to standard error.
    public static func bootstrap() {
        LoggingSystem.bootstrap { RedactingLogHandler(StreamLogHandler.standardError(label: $0)) }
    }

    public func log(event: LogEvent) {
        var event = event
        event.message = Logger.Message(stringLiteral: Redaction.text(event.message.description))
        event.metadata = event.metadata?.mapValues { .string(Redaction.text($0.description)) }
        wrapped.log(event: event)
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    public var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    public var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }
}
