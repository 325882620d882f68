/// What asked to close the window.
public enum CloseRequest: String, Sendable {
    /// The page called `window.close()`.
    case page = "window.close()"
    /// The window manager's close button, Alt+F4 or `_NET_CLOSE_WINDOW`.
    case windowManager = "window-manager"
}
