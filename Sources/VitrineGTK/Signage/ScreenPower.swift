import CWebKitGTK

/// The monitor's power through X11 DPMS, where the window's display is an X server with
/// the DPMS extension (a real X server; not Xvfb, not Wayland). Elsewhere it does nothing:
/// the black `DisplayCover` blanks the screen by itself. DPMS's own enabled state is put
/// back when the monitor comes on (forcing it off needs DPMS enabled, and an enabled DPMS
/// would blank the screen by its idle timeouts).
struct ScreenPower {
    /// Whether DPMS was enabled before the monitor was forced off.
    private var wasEnabled: Int32 = 1

    /// Whether DPMS was used (false: not available on this display).
    @discardableResult
    mutating func set(on: Bool, window: UnsafeMutablePointer<GtkWidget>) -> Bool {
        guard let display = gtk_widget_get_display(window) else { return false }
        return vitrine_dpms_force(display, on ? 1 : 0, &wasEnabled) != 0
    }
}
