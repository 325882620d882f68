#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
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
