#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The files the user chose in this process's open and save dialogs: the only ones a page
/// may read (`dialog` `read`, never through a `file://` URL) or open in their application
/// (`shell` `openFile`).
///
/// Each is pinned to the file it was when chosen (device and inode): a file replaced
/// since — by a symlink to another file, or by another file moved over it — is refused,
/// checked on the descriptor that is then read, so no swap after the check is read either.
/// The chosen file is kept open meanwhile, so that its inode number cannot be given to a
/// new file that would pass for it.
@MainActor
public final class ChosenFiles {
    public static let shared = ChosenFiles()

    private struct Pin {
        /// The file as chosen, held open; nil: nothing was there yet (a save dialog's new
        /// name), pinned when first opened.
        var descriptor: Int32?
        var identity: FileIdentity?
    }

    private var files: [String: Pin] = [:]

    public nonisolated init() {}

    public func add(_ chosen: [String]) {
        for path in chosen { pin(path, to: Self.openForReading(path)) }
    }

    public func contains(_ path: String) -> Bool { files[path] != nil }

    /// Opens a chosen file to read it (the caller closes the descriptor): refused unless it
    /// was chosen, is still the file chosen, and is a regular file.
    public func open(_ path: String, for use: String) throws(ScriptMessageError) -> Int32 {
        guard let pinned = files[path] else { throw ScriptMessageError("\(use): \(path) was not chosen in a dialog") }
        let fd = Self.openForReading(path)
        guard fd >= 0, let identity = FileIdentity(descriptor: fd), identity.isRegularFile else {
            if fd >= 0 { close(fd) }
            throw ScriptMessageError("\(use): \(path) is not a readable file")
        }
        if let chosen = pinned.identity {
            guard identity.isSameFile(as: chosen) else {
                close(fd)
                throw ScriptMessageError("\(use): \(path) is no longer the file chosen (it was replaced since); choose it again")
            }
        } else {
            pin(path, to: dup(fd))
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    private func pin(_ path: String, to descriptor: Int32) {
        if let old = files[path]?.descriptor { close(old) }
        let identity = descriptor >= 0 ? FileIdentity(descriptor: descriptor) : nil
        files[path] = Pin(descriptor: identity == nil ? nil : descriptor, identity: identity)
        if identity == nil && descriptor >= 0 { close(descriptor) }
    }

    /// Without waiting: a FIFO put in a file's place cannot block the main loop.
    private static func openForReading(_ path: String) -> Int32 {
        Glibc.open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    }
}
