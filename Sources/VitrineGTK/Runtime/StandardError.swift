import Glibc
import Vitrine

/// Writes a line for the person running the program (the executable's commands use it too).
public func printToStandardError(_ line: String) {
    // write(2) rather than fputs(stderr): the C global is not concurrency-safe in Swift 6.
    // Redacted: standard error ends up in the journal, and the journal in support bundles.
    let text = Redaction.text(line) + "\n"
    _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}
