import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// The native page shown for a route: its name, its parameters and a way back.
/// Apps with their own native screens replace `WebContainer.present`.
@MainActor
enum NativeRoutePage {
    static func make(_ route: NativeRoute, onBack: @escaping () -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_container_set_border_width(container(box), 32)

        let heading = gtk_label_new(nil)!
        let title = route.name.prefix(1).uppercased() + route.name.dropFirst()
        let escaped = takeString(g_markup_escape_text(title, -1)) ?? ""
        gtk_label_set_markup(label(heading), "<span size='xx-large' weight='bold'>Native \(escaped) page</span>")
        gtk_box_pack_start(boxPointer(box), heading, 0, 0, 0)

        for key in route.parameters.keys.sorted() {
            let row = gtk_label_new("\(key): \(route.parameters[key] ?? "")")!
            gtk_widget_set_name(row, "route-parameter-\(key)")
            gtk_box_pack_start(boxPointer(box), row, 0, 0, 0)
        }
        let source = gtk_label_new(route.url.absoluteString)!
        gtk_label_set_selectable(label(source), 1)
        gtk_box_pack_start(boxPointer(box), source, 0, 0, 0)

        let back = gtk_button_new_with_label("Back to the app")!
        gtk_widget_set_halign(back, GTK_ALIGN_CENTER)
        // The button lives exactly as long as the page; the closure box goes with it.
        ButtonAction.attach(to: back, onBack)
        gtk_box_pack_start(boxPointer(box), back, 0, 0, 0)
        return box
    }

    private static func container(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkContainer> {
        UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkContainer.self)
    }

    private static func boxPointer(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkBox> {
        UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkBox.self)
    }

    static func label(_ widget: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkLabel> {
        UnsafeMutableRawPointer(widget).assumingMemoryBound(to: GtkLabel.self)
    }
}

/// A `clicked` handler whose closure lives as long as the button: the retained box is
/// released by GLib's destroy notify when the button is finalised.
@MainActor
enum ButtonAction {
    private final class Box {
        let action: () -> Void
        init(_ action: @escaping () -> Void) { self.action = action }
    }

    static func attach(to button: UnsafeMutablePointer<GtkWidget>, _ action: @escaping () -> Void) {
        let data = Unmanaged.passRetained(Box(action)).toOpaque()
        let clicked: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
            guard let data else { return }
            let box = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
            onMainLoop(box) { box in box.action() }
        }
        g_signal_connect_data(gptr(button), "clicked", gCallback(clicked), data, { data, _ in
            guard let data else { return }
            Unmanaged<Box>.fromOpaque(data).release()
        }, GConnectFlags(rawValue: 0))
    }
}
