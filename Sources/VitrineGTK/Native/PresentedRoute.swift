import CWebKitGTK
import Vitrine

/// A native route's page shown over the web content while this lives: going, it shows the
/// web content again and destroys the page.
@MainActor
final class PresentedRoute {
    let route: NativeRoute
    private let stack: UnsafeMutablePointer<GtkStack>
    private let page: UnsafeMutablePointer<GtkWidget>

    /// Shows `route`'s page in `stack` (beside its "main" child); `onBack` is its back button.
    init(_ route: NativeRoute, over stack: UnsafeMutablePointer<GtkStack>, onBack: @escaping () -> Void) {
        self.route = route
        self.stack = stack
        page = NativeRoutePage.make(route, onBack: onBack)
        gtk_stack_add_named(stack, page, "route")
        gtk_widget_show_all(page)
        gtk_stack_set_visible_child_name(stack, "route")
    }

    isolated deinit {
        gtk_stack_set_visible_child_name(stack, "main")
        gtk_widget_destroy(page)
    }
}
