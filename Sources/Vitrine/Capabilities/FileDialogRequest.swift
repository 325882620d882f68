#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A file dialog a page asks for (`dialog` capability).
public struct FileDialogRequest: Sendable, Equatable {
    public enum Kind: String, Sendable { case openFile, openFiles, openFolder, save }

    public var kind: Kind
    public var title: String?
    /// The folder it opens in.
    public var folder: String?
    /// The name a save dialog suggests.
    public var suggestedName: String?

    public nonisolated init(kind: Kind, title: String? = nil, folder: String? = nil, suggestedName: String? = nil) {
        self.kind = kind
        self.title = title
        self.folder = folder
        self.suggestedName = suggestedName
    }
}
