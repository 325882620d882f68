import Foundation
import Testing
import Vitrine

/// Records which handlers were consulted, in order.
@MainActor
final class CallLog {
    private(set) var names: [String] = []
    func record(_ name: String) { names.append(name) }
}

/// A handler whose behaviour is a closure, recording each call in a `CallLog`.
struct RecordingHandler: NavigationActionHandler {
    typealias Body = @MainActor @Sendable (NavigationAction) async -> HandlerResult

    let name: String
    let decidesResponses: Bool
    let timeout: Duration?
    let log: CallLog?
    let body: Body

    nonisolated init(
        _ name: String, log: CallLog? = nil, decidesResponses: Bool = false, timeout: Duration? = nil,
        body: @escaping Body
    ) {
        self.name = name
        self.log = log
        self.decidesResponses = decidesResponses
        self.timeout = timeout
        self.body = body
    }

    /// A handler that always answers `result` at once.
    nonisolated init(_ name: String, log: CallLog? = nil, decidesResponses: Bool = false, answering result: HandlerResult) {
        self.init(name, log: log, decidesResponses: decidesResponses) { _ in result }
    }

    @MainActor
    func handle(_ action: NavigationAction, context: NavigationContext) async -> HandlerResult {
        log?.record(name)
        return await body(action)
    }
}

/// A handler that only has a name, for recombination tests.
struct NamedHandler: NavigationActionHandler {
    let name: String
    nonisolated init(_ name: String) { self.name = name }
    func handle(_ action: NavigationAction, context: NavigationContext) async -> HandlerResult { .pass }
}

func url(_ string: String) -> URL {
    guard let url = URL(string: string) else { preconditionFailure("bad test URL \(string)") }
    return url
}

func origin(_ string: String) -> Origin {
    guard let origin = Origin(string: string) else { preconditionFailure("bad test origin \(string)") }
    return origin
}

/// A response-phase action.
func responseAction(_ string: String, mimeType: String = "text/html", canShow: Bool = true) -> NavigationAction {
    NavigationAction(
        url: url(string), navigationType: .other,
        phase: .response(NavigationResponse(mimeType: mimeType, statusCode: 200, canShowMIMEType: canShow, isMainFrame: true)))
}

/// A fresh temporary directory, removed by the caller.
func makeTemporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("vitrine-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
}

/// The package root: the folder holding Package.swift, above this file.
func packageRoot(from file: String = #filePath) -> URL? {
    var directory = URL(fileURLWithPath: file).deletingLastPathComponent()
    while directory.path != "/" {
        if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            return directory
        }
        directory = directory.deletingLastPathComponent()
    }
    return nil
}
