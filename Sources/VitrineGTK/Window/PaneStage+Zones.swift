import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// `[[zones]]`: one pane per zone in the overlay, each placed in its rectangle
/// (`ZoneLayout`, from the overlay's size at every allocation: GtkOverlay's
/// `get-child-position`), each with its own page or playlist (a `ScheduleRunner` per
/// zone with a playlist, its slot the zone's index). Every pane has its own recovery: a
/// crash in one zone reloads that zone only.
extension PaneStage {
    /// Connects the overlay's placement of its children (called once, while building).
    func placeZones() {
        guard let overlay else { return }
        signals.connect(gptr(overlay), "get-child-position", context: SignalContext(owner: self), handler: gCallback(onChildPosition))
    }

    /// The zones' pages: each zone without a playlist loads its `url` (default: the start page).
    func loadZonePages() {
        for (slot, zone) in configuration.zones.enumerated() where zone.playlist.isEmpty {
            if let url = zone.url ?? configuration.startURL { load(url, inSlot: slot, then: nil) }
        }
    }

    /// The zone's name shown in `slot`, if zones are configured.
    func zoneName(ofSlot slot: Int) -> String? {
        configuration.zones.indices.contains(slot) ? configuration.zones[slot].name : nil
    }

    /// The URL zone `name` shows.
    func url(ofZone name: String) -> URL? {
        configuration.zones.firstIndex { $0.name == name }.flatMap { panes.indices.contains($0) ? panes[$0].currentURL : nil }
    }

    /// The rectangle of `widget` (a zone's view, or a view preloaded for it) in an overlay
    /// `width`×`height`; nil for a widget that is no zone's.
    fileprivate func zoneRectangle(of widget: UnsafeMutablePointer<GtkWidget>, width: Int, height: Int) -> ZoneRectangle? {
        let slot = panes.firstIndex { $0.rootWidget == widget }
            ?? preloaders.first { $0.value.pane.rootWidget == widget }?.key
        guard let slot, configuration.zones.indices.contains(slot) else { return nil }
        return ZoneLayout.rectangles(of: configuration.zones, width: width, height: height)[slot]
    }
}

/// `get-child-position`: `gboolean (*)(GtkOverlay*, GtkWidget*, GdkRectangle*, gpointer)`;
/// TRUE with the zone's rectangle, FALSE (GTK's own placement) for anything else.
private let onChildPosition: @convention(c) (OpaquePointer?, UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkRectangle>?, gpointer?) -> gboolean = {
    overlay, widget, allocation, data in
    guard let overlay, let widget, let allocation else { return 0 }
    return onMainLoop((overlay, widget, allocation, data)) { overlay, widget, allocation, data in
        guard let stage = SignalContext.owner(data, as: PaneStage.self) else { return false }
        let overlay = UnsafeMutablePointer<GtkWidget>(overlay)
        let width = Int(gtk_widget_get_allocated_width(overlay)), height = Int(gtk_widget_get_allocated_height(overlay))
        guard let rectangle = stage.zoneRectangle(of: widget, width: width, height: height) else { return false }
        allocation.pointee = GdkRectangle(x: gint(rectangle.x), y: gint(rectangle.y), width: gint(rectangle.width),
                                          height: gint(rectangle.height))
        return true
    } ? 1 : 0
}
