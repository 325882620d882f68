#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Turns the URL argument into a URL: anything with a scheme as is, an existing file as
/// a file URL.
enum StartURL {
    static func parse(_ argument: String) -> URL? {
        if FileManager.default.fileExists(atPath: argument) {
            return URL(fileURLWithPath: argument).standardizedFileURL
        }
        guard let url = URL(string: argument), let scheme = url.scheme, !scheme.isEmpty else { return nil }
        return url
    }
}

/// A failure after the arguments were accepted: printed as `vitrine: error: …`, exit 1.
struct RuntimeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Writes a line for the person running the program.
func printToStandardError(_ line: String) {
    // write(2) rather than fputs(stderr): the C global is not concurrency-safe in Swift 6.
    let text = line + "\n"
    _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}
