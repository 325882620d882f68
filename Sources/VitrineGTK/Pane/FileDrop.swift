import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Files dragged from the desktop onto the view (`drop` capability): a drop carrying
/// `text/uri-list` onto a top document granted `drop` is taken from WebKit (which would
/// otherwise hand the page `File` objects or open the file) and reaches that document as
/// `files:dropped` `{files: [{path, size}]}` — local regular files only (`DroppedFiles`),
/// each readable through the `dialog` capability's bounded read as a chosen file is. A
/// kiosk refuses every file drop, as does a granted page that has not used the bridge; a
/// page not granted `drop` gets WebKit's own behaviour.
@MainActor
final class FileDrop: PaneCollaborator {
    private weak var pane: WebPane?
    let signals = SignalConnections()
    /// The top document a drop was taken for, until its data arrives.
    private var pending: FrameToken?
    private static let uriList = "text/uri-list"

    func attach(to pane: WebPane) {
        self.pane = pane
        connect("drag-drop", of: pane, gCallback(onDragDrop))
        connect("drag-data-received", of: pane, gCallback(onDragDataReceived))
    }

    /// Whether this drop is taken from WebKit: it offers a URI list and the kiosk refuses
    /// it, or the top document was granted `drop` (its data is then asked for).
    fileprivate func drop(_ widget: UnsafeMutablePointer<GtkWidget>, _ context: OpaquePointer, time: guint) -> Bool {
        guard let pane, let container = pane.container, Self.offersURIs(context) else { return false }
        if pane.configuration.kiosk != nil {
            container.record(.native(action: .filesDropRefused, detail: "kiosk"))
            gtk_drag_finish(context, 0, 0, time)
            return true
        }
        guard let url = pane.currentURL, pane.configuration.capabilities.isGranted(.drop, to: Origin(url)) else { return false }
        // The document registers when it first uses the bridge: one that has not listens to
        // nothing, and the drop is refused rather than left to WebKit.
        guard let token = pane.messages.frames.mainToken else {
            container.record(.native(action: .filesDropRefused, detail: "the page does not use the bridge"))
            gtk_drag_finish(context, 0, 0, time)
            return true
        }
        pending = token
        gtk_drag_get_data(widget, context, gdk_atom_intern_static_string(Self.uriList), time)
        return true
    }

    /// The data of a drop taken above: handed to the document it was taken for, if it is
    /// still shown; WebKit never sees it.
    fileprivate func received(_ widget: UnsafeMutablePointer<GtkWidget>, _ context: OpaquePointer,
                              _ selection: OpaquePointer?, time: guint) -> Bool {
        guard let token = pending else { return false }
        pending = nil
        gtk_drag_finish(context, 1, 0, time)
        guard let pane, let container = pane.container, pane.messages.frames.mainToken == token, let selection,
              let data = gtk_selection_data_get_data(selection)
        else { return true }
        let length = Int(gtk_selection_data_get_length(selection))
        guard length > 0 else { return true }
        let text = String(decoding: UnsafeBufferPointer(start: data, count: length), as: UTF8.self)
        let dropped = DroppedFiles(uriList: text)
        for (uri, reason) in dropped.refused {
            container.record(.native(action: .filesDropRefused, detail: "\(uri.prefix(200)): \(reason)"))
        }
        guard !dropped.files.isEmpty else { return true }
        ChosenFiles.shared.add(dropped.files.map(\.path))
        container.record(.native(action: .filesDropped, detail: "\(dropped.files.count) files"))
        container.stage.emit(to: pane, "files:dropped", dropped.payload)
        return true
    }

    private static func offersURIs(_ context: OpaquePointer) -> Bool {
        let wanted = gdk_atom_intern_static_string(uriList)
        var list = gdk_drag_context_list_targets(context)
        while let node = list {
            if OpaquePointer(node.pointee.data) == wanted { return true }
            list = node.pointee.next
        }
        return false
    }
}

/// `drag-drop`: `gboolean (*)(GtkWidget*, GdkDragContext*, gint, gint, guint, gpointer)`; TRUE: taken.
private let onDragDrop: @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gint, gint, guint, gpointer?) -> gboolean = {
    widget, context, _, _, time, data in
    guard let widget, let context else { return 0 }
    return onMainLoop((widget, context, time, data)) { widget, context, time, data in
        SignalContext.owner(data, as: FileDrop.self)?.drop(widget, context, time: time) ?? false
    } ? 1 : 0
}

/// `drag-data-received`: `void (*)(GtkWidget*, GdkDragContext*, gint, gint, GtkSelectionData*, guint, guint, gpointer)`.
/// A taken drop's data stops here: WebKit's own handler (which runs after) never sees it.
private let onDragDataReceived: @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gint, gint, OpaquePointer?,
                                                guint, guint, gpointer?) -> Void = { widget, context, _, _, selection, _, time, data in
    guard let widget, let context else { return }
    let taken = onMainLoop((widget, context, selection, time, data)) { widget, context, selection, time, data in
        SignalContext.owner(data, as: FileDrop.self)?.received(widget, context, selection, time: time) ?? false
    }
    if taken { g_signal_stop_emission_by_name(gptr(widget), "drag-data-received") }
}
