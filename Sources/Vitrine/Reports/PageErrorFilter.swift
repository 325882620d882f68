#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which of a page's errors become reports: the first `perDocument` distinct ones of each
/// document (distinct by message, source and line), so that a page throwing in a loop, or
/// calling `page-error` itself in a loop, leaves a handful of lines, not a full disk.
/// Documents are told apart by their bridge token; the latest `documentsKept` are
/// remembered (an older document that comes back counts afresh, still bounded).
public struct PageErrorFilter: Sendable {
    public static let perDocument = 10
    public static let documentsKept = 32

    private struct Document {
        let key: String
        var seen: Set<String> = []
    }

    private var documents: [Document] = []
    private let limit: Int

    public init(perDocument: Int = PageErrorFilter.perDocument) {
        limit = perDocument
    }

    /// Whether the error `message` at `source:line` of `document` is to be reported.
    public mutating func admit(document: String, message: String, source: String, line: Int) -> Bool {
        let index: Int
        if let found = documents.lastIndex(where: { $0.key == document }) {
            index = found
        } else {
            if documents.count >= Self.documentsKept { documents.removeFirst() }
            documents.append(Document(key: document))
            index = documents.count - 1
        }
        // The key is bounded too: only its first part tells errors apart.
        let key = "\(line)\u{0}\(source.prefix(ErrorReport.textLimit))\u{0}\(message.prefix(ErrorReport.textLimit))"
        guard documents[index].seen.count < limit, !documents[index].seen.contains(key) else { return false }
        documents[index].seen.insert(key)
        return true
    }
}
