import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Watches a folder and every folder under it with GLib's file monitor (one
/// `GFileMonitor` per folder: GLib's monitors are not recursive; `recursive: false` for
/// the folder alone), and tells `onEvent` each
/// file event with the file's path. A folder created later is watched too.
///
/// Owns its monitors and their signal connections: cancelled, disconnected and released in
/// `deinit`; an event that arrives after finds no owner and is dropped.
@MainActor
public final class FolderWatch {
    public var onEvent: ((String, WatchedFileEvent) -> Void)?
    private let signals = SignalConnections()
    private var monitors: [String: GObjectReference<GFileMonitor>] = [:]

    /// Whether folders under the watched one (and folders created later) are watched too.
    private let recursive: Bool

    public init(folder: URL, recursive: Bool = true) {
        self.recursive = recursive
        watchTree(folder.standardizedFileURL.path)
    }

    /// The folders watched (for tests and the startup line).
    public var folders: [String] { monitors.keys.sorted() }

    private func watchTree(_ root: String) {
        watch(root)
        guard recursive else { return }
        let below = (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? []
        for relative in below where FileSystem.isDirectory(root + "/" + relative) { watch(root + "/" + relative) }
    }

    private func watch(_ folder: String) {
        guard monitors[folder] == nil, let file = g_file_new_for_path(folder) else { return }
        defer { g_object_unref(gptr(file)) }
        var error: UnsafeMutablePointer<GError>?
        guard let monitor = g_file_monitor_directory(file, G_FILE_MONITOR_WATCH_MOVES, nil, &error) else {
            if let error { g_error_free(error) }
            return
        }
        monitors[folder] = GObjectReference(adopting: monitor)
        signals.connect(gptr(monitor), "changed", context: SignalContext(owner: self), handler: gCallback(onChanged))
    }

    fileprivate func changed(path: String, event: GFileMonitorEvent) {
        let translated = Self.event(event)
        if recursive, translated == .created || translated == .movedIn, FileSystem.isDirectory(path) { watchTree(path) }
        onEvent?(path, translated)
    }

    private static func event(_ event: GFileMonitorEvent) -> WatchedFileEvent {
        switch event {
        case G_FILE_MONITOR_EVENT_CHANGED: .changed
        case G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT: .changesDone
        case G_FILE_MONITOR_EVENT_CREATED: .created
        case G_FILE_MONITOR_EVENT_DELETED: .deleted
        case G_FILE_MONITOR_EVENT_RENAMED: .renamed
        case G_FILE_MONITOR_EVENT_MOVED_IN: .movedIn
        case G_FILE_MONITOR_EVENT_MOVED_OUT: .movedOut
        case G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED: .attributeChanged
        default: .other
        }
    }

    isolated deinit {
        signals.disconnectAll()
        for monitor in monitors.values { g_file_monitor_cancel(monitor.pointer) }
    }
}

/// `changed`: `void (*)(GFileMonitor*, GFile *file, GFile *other, GFileMonitorEvent, gpointer)`.
private let onChanged: @convention(c) (UnsafeMutablePointer<GFileMonitor>?, OpaquePointer?,
                                       OpaquePointer?, GFileMonitorEvent, gpointer?) -> Void = { _, file, other, event, data in
    // A rename is told by the name the file has now (an editor's or an atomic save's
    // temporary file renamed over the real one is a change of the real one).
    let named = event == G_FILE_MONITOR_EVENT_RENAMED ? other ?? file : file
    guard let named, let cPath = g_file_get_path(named) else { return }
    let path = String(cString: cPath)
    g_free(cPath)
    onMainLoop(data) { SignalContext.owner($0, as: FolderWatch.self)?.changed(path: path, event: event) }
}

