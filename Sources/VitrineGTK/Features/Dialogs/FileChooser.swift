import CWebKitGTK
import Vitrine

/// A file dialog over the container's window (`dialog` capability) and its one answer:
/// GtkFileChooserNative, so the desktop portal's dialog is used where there is one (GTK's
/// own dialog otherwise).
///
/// Owns the native dialog and its `response` connection. Answered exactly once: by the
/// user, or nil (cancelled) when it goes unanswered (the container closed).
@MainActor
final class FileChooser {
    /// The GtkFileChooserNative (opaque here), our reference released in deinit.
    private let chooser: OpaquePointer
    private var dialog: UnsafeMutablePointer<GtkNativeDialog> {
        UnsafeMutableRawPointer(chooser).assumingMemoryBound(to: GtkNativeDialog.self)
    }
    private let signals = SignalConnections()
    private var answer: CheckedContinuation<[String]?, Never>?
    private(set) var isOpen = true

    init(parent: UnsafeMutablePointer<GtkWindow>, request: FileDialogRequest) {
        let action: GtkFileChooserAction = switch request.kind {
        case .openFile, .openFiles: GTK_FILE_CHOOSER_ACTION_OPEN
        case .openFolder: GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER
        case .save: GTK_FILE_CHOOSER_ACTION_SAVE
        }
        let defaultTitle = request.kind == .save ? "Save" : request.kind == .openFolder ? "Choose a folder" : "Open"
        chooser = gtk_file_chooser_native_new(request.title ?? defaultTitle, parent, action, nil, nil)!
        let fileChooser = chooser
        gtk_file_chooser_set_select_multiple(fileChooser, request.kind == .openFiles ? 1 : 0)
        if request.kind == .save { gtk_file_chooser_set_do_overwrite_confirmation(fileChooser, 1) }
        if let folder = request.folder { gtk_file_chooser_set_current_folder(fileChooser, folder) }
        if let name = request.suggestedName { gtk_file_chooser_set_current_name(fileChooser, name) }
        gtk_native_dialog_set_modal(dialog, 1)
        signals.connect(gptr(chooser), "response", context: SignalContext(owner: self), handler: gCallback(onChooserResponse))
    }

    /// Shows the dialog and waits for the paths (nil: cancelled).
    func choose() async -> [String]? {
        gtk_native_dialog_show(dialog)
        return await withCheckedContinuation { answer = $0 }
    }

    /// Closes the dialog unanswered: nil.
    func dismiss() {
        close(with: nil)
    }

    fileprivate func responded(_ response: gint) {
        guard response == GTK_RESPONSE_ACCEPT.rawValue else { return close(with: nil) }
        var paths: [String] = []
        var list = gtk_file_chooser_get_filenames(chooser)
        let head = list
        while let node = list {
            if let name = node.pointee.data {
                paths.append(String(cString: name.assumingMemoryBound(to: CChar.self)))
                g_free(name)
            }
            list = node.pointee.next
        }
        g_slist_free(head)
        close(with: paths)
    }

    /// Settles the answer once (`choose` returns `paths`) and destroys the dialog.
    private func close(with paths: [String]?) {
        guard isOpen else { return }
        isOpen = false
        signals.disconnectAll()
        gtk_native_dialog_destroy(dialog)
        answer.take()?.resume(returning: paths)
    }

    isolated deinit {
        close(with: nil)
        g_object_unref(gptr(chooser))
    }
}

/// `response` on a GtkNativeDialog: `void (*)(GtkNativeDialog*, gint, gpointer)`.
private let onChooserResponse: @convention(c) (OpaquePointer?, gint, gpointer?) -> Void = { _, response, data in
    onMainLoop((response, data)) { response, data in
        SignalContext.owner(data, as: FileChooser.self)?.responded(response)
    }
}
