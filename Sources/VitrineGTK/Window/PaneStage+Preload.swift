import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// `[schedule] preload`: the next playlist page loads in a second pane under the one on
/// screen (`PagePreloader`) and takes its place once it has painted; the old pane is then
/// released. A preload that fails leaves the screen as it was.
extension PaneStage {
    /// The preload under way in the window's only (or first) slot, if any.
    var preloader: PagePreloader? { preloaders[0] }

    /// Whether `pane` is a page loading out of sight (its loads are its preloader's).
    func isPreloading(_ pane: WebPane?) -> Bool {
        preloaders.values.contains { $0.pane === pane }
    }

    /// Whether the schedule's pages for `slot` load out of sight: asked for, no tabs (a
    /// playlist then turns in the tab shown), and something on screen already (the first
    /// page loads straight into the empty view).
    func preloads(inSlot slot: Int) -> Bool {
        configuration.schedule.preload && overlay != nil && !isTornDown && panes.indices.contains(slot)
            && panes[slot].currentURL != nil
    }

    /// Loads playlist item `item` (`url`, or its kept copy when `copy`) out of sight for
    /// `slot`; `finish` is told once whether it replaced the page on screen. A preload
    /// already under way there is dropped.
    func preloadPage(item: Int, url: URL, copy: Bool = false, inSlot slot: Int,
                     finish: @escaping @MainActor (PagePreloader.Outcome) -> Void) {
        cancelPreload(inSlot: slot)
        guard let overlay, let container, panes.indices.contains(slot) else { return }
        let preloader = PagePreloader(container: container, item: item, url: url, copy: copy, finish: finish)
        preloaders[slot] = preloader
        // Right under the slot's view: the overlay draws its children in order.
        let below = overlayIndex(of: panes[slot].rootWidget)
        gtk_overlay_add_overlay(cast(overlay), preloader.pane.rootWidget)
        gtk_overlay_reorder_overlay(cast(overlay), preloader.pane.rootWidget, gint(below))
        container.feature(KioskGuard.self)?.watch(preloader.pane)
        gtk_widget_show_all(preloader.pane.rootWidget)
        preloader.start()
    }

    /// Drops the preload under way in `slot`, if any (an alert, the start page, the window closing).
    func cancelPreload(inSlot slot: Int = 0) {
        guard let preloader = preloaders[slot] else { return }
        preloader.cancel()
        endPreload(preloader, swapping: false)
    }

    /// The preload ended: its pane replaces the one on screen in its slot (`swapping`), or goes.
    func endPreload(_ preloader: PagePreloader, swapping: Bool) {
        guard let slot = preloaders.first(where: { $0.value === preloader })?.key else { return }
        preloaders[slot] = nil
        if swapping, !isTornDown, panes.indices.contains(slot) {
            let old = panes[slot]
            panes[slot] = preloader.pane
            release(old)
            gtk_widget_grab_focus(preloader.pane.widget)
        } else {
            release(preloader.pane)
        }
    }

    /// Takes `pane` off the overlay and disconnects it; it is freed with its last reference.
    private func release(_ pane: WebPane) {
        container?.feature(KioskGuard.self)?.forget(pane)
        pane.tearDown()
        if let overlay, gtk_widget_get_parent(pane.rootWidget) == overlay {
            gtk_container_remove(cast(overlay), pane.rootWidget)
        }
    }

    /// `widget`'s place in the overlay's drawing order (GtkOverlay's `index` child property).
    private func overlayIndex(of widget: UnsafeMutablePointer<GtkWidget>) -> Int {
        guard let overlay else { return 0 }
        var value = GValue()
        g_value_init(&value, GType(6 << 2)) // G_TYPE_INT, a macro Swift cannot import
        gtk_container_child_get_property(cast(overlay), widget, "index", &value)
        defer { g_value_unset(&value) }
        return Int(g_value_get_int(&value))
    }
}
