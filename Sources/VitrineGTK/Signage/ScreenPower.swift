import CWebKitGTK

/// The monitor's power through X11 DPMS, where the window's display is an X server with
/// the DPMS extension (a real X server; not Xvfb, not Wayland). Elsewhere it does nothing:
/// the black `DisplayCover` blanks the screen by itself.
enum ScreenPower {
    /// Whether DPMS was used (false: not available on this display).
    @discardableResult
    static func set(on: Bool, window: UnsafeMutablePointer<GtkWidget>) -> Bool {
        guard let display = gtk_widget_get_display(window) else { return false }
        return vitrine_dpms_force(display, on ? 1 : 0) != 0
    }

    /// Whether the window's display offers DPMS.
    static func isAvailable(for window: UnsafeMutablePointer<GtkWidget>) -> Bool {
        guard let display = gtk_widget_get_display(window) else { return false }
        return vitrine_dpms_available(display) != 0
    }
}
