import CWebKitGTK
import Vitrine

/// The window's menus (`menu` capability, `WebContainer.setMenuBar`): a GtkMenuBar made
/// from a GMenu (GTK's own widgets, so the desktop's accessibility sees every item) and
/// the context menu WebKit shows for the page.
///
/// A page's menus belong to the top document that set them: they go when it goes (the
/// view commits another page), and a choice reaches that document only (`menu:activated`
/// `{id, menu, checked?}`). An embedder's menu bar shows while no page has one.
///
/// Ownership: the action group (inserted into the window under `vitrine-menu`), the menu
/// bar widget and every signal connection are released in `tearDown()`/deinit.
@MainActor
final class WindowMenus {
    /// Who a menu's choices go to.
    enum Owner {
        case document(FrameToken, pane: Weak)
        case embedder(@MainActor (MenuActivation) -> Void)
    }

    struct Weak { weak var pane: WebPane? }

    private struct Shown {
        var menu: AppMenu
        var owner: Owner
    }

    private weak var container: WebContainer?
    private let layout: UnsafeMutablePointer<GtkBox>
    /// The GSimpleActionGroup, as the GActionMap it is; its reference is released in deinit.
    private let actions: OpaquePointer
    private let signals = SignalConnections()
    /// Signal connections of the current menus' actions, renewed with them.
    private var actionSignals = SignalConnections()
    private var menuBarWidget: UnsafeMutablePointer<GtkWidget>?
    private var pageBar: Shown?
    private var embedderBar: Shown?
    private var context: Shown?
    /// The names of the actions of the menus shown, and what each stands for.
    private var actionItems: [String: (placement: MenuPlacement, id: String)] = [:]
    /// The context menu's actions, in item order.
    private var contextActions: [String] = []
    private var accelerators: [(key: guint, modifiers: GdkModifierType, action: String)] = []

    static let groupName = "vitrine-menu"

    init(container: WebContainer, layout: UnsafeMutablePointer<GtkBox>) {
        self.container = container
        self.layout = layout
        actions = OpaquePointer(g_simple_action_group_new()!)
        gtk_widget_insert_action_group(container.window, Self.groupName, actions)
        let context = SignalContext(owner: self)
        signals.connect(gptr(container.window), "key-press-event", context: context, handler: gCallback(onKeyPress))
        for pane in container.stage.panes {
            signals.connect(gptr(pane.webView), "context-menu", context: SignalContext(owner: self), handler: gCallback(onContextMenu))
        }
    }

    /// Shows `menu` (nil: none) at `placement` for `owner`.
    func set(_ menu: AppMenu?, placement: MenuPlacement, owner: Owner) {
        let shown = menu.map { Shown(menu: $0, owner: owner) }
        switch (placement, owner) {
        case (.menuBar, .embedder): embedderBar = shown
        case (.menuBar, .document): pageBar = shown
        case (.context, _): context = shown
        }
        rebuild()
    }

    /// A view committed another page: its document's menus go.
    func documentChanged(in pane: WebPane) {
        func owned(_ shown: Shown?) -> Bool {
            if case .document(_, let owner)? = shown?.owner { return owner.pane === pane || owner.pane == nil }
            return false
        }
        guard owned(pageBar) || owned(context) else { return }
        if owned(pageBar) { pageBar = nil }
        if owned(context) { context = nil }
        rebuild()
    }

    /// The menu bar shown now, for tests and embedders.
    var menuBar: AppMenu? { (pageBar ?? embedderBar)?.menu }

    // MARK: Building

    private func rebuild() {
        actionSignals.disconnectAll()
        actionSignals = SignalConnections()
        for name in actionItems.keys { g_action_map_remove_action(actions, name) }
        actionItems = [:]
        accelerators = []
        if let widget = menuBarWidget { gtk_widget_destroy(widget) }
        menuBarWidget = nil
        contextActions = context.map { addActions(for: $0.menu.items, placement: .context) } ?? []
        guard let bar = pageBar ?? embedderBar, let container, !container.isTornDown else { return }
        let model = gMenu(bar.menu.items, placement: .menuBar)
        defer { g_object_unref(gptr(model)) }
        let widget = gtk_menu_bar_new_from_model(Self.model(model))!
        gtk_box_pack_start(layout, widget, 0, 0, 0)
        gtk_box_reorder_child(layout, widget, 0)
        gtk_widget_show_all(widget)
        menuBarWidget = widget
    }

    /// The actions of `items` (one per command, named by placement and position), added to
    /// the group; returns the names in item order.
    private func addActions(for items: [AppMenu.Item], placement: MenuPlacement) -> [String] {
        var names: [String] = []
        for case .command(let id, _, let accelerator, let enabled, let checked) in AppMenu.commands(of: items) {
            let name = "\(placement.rawValue)-\(actionItems.count)"
            let action = checked.map { g_simple_action_new_stateful(name, nil, g_variant_new_boolean($0 ? 1 : 0)) }
                ?? g_simple_action_new(name, nil)
            g_simple_action_set_enabled(action, enabled ? 1 : 0)
            actionSignals.connect(gptr(action!), "activate", context: SignalContext(owner: self, tag: name), handler: gCallback(onActivate))
            g_action_map_add_action(actions, action)
            g_object_unref(gptr(action!))
            actionItems[name] = (placement, id)
            if let accelerator, placement == .menuBar {
                var key: guint = 0
                var modifiers = GdkModifierType(rawValue: 0)
                gtk_accelerator_parse(accelerator, &key, &modifiers)
                if key != 0 { accelerators.append((key, modifiers, name)) }
            }
            names.append(name)
        }
        return names
    }

    /// A GMenu (a new reference) for `items`, with the actions of their commands.
    private func gMenu(_ items: [AppMenu.Item], placement: MenuPlacement) -> OpaquePointer {
        var names = addActions(for: items, placement: placement)[...]
        func build(_ items: [AppMenu.Item]) -> OpaquePointer {
            let menu = g_menu_new()!
            var section = g_menu_new()!
            func closeSection() {
                if g_menu_model_get_n_items(Self.model(section)) > 0 { g_menu_append_section(menu, nil, Self.model(section)) }
                g_object_unref(gptr(section))
            }
            for item in items {
                switch item {
                case .separator:
                    closeSection()
                    section = g_menu_new()!
                case .submenu(let label, let children):
                    let submenu = build(children)
                    g_menu_append_submenu(section, label, Self.model(submenu))
                    g_object_unref(gptr(submenu))
                case .command(_, let label, let accelerator, _, _):
                    let entry = g_menu_item_new(label, "\(Self.groupName).\(names.removeFirst())")!
                    if let accelerator { g_menu_item_set_attribute_value(entry, "accel", g_variant_new_string(accelerator)) }
                    g_menu_append_item(section, entry)
                    g_object_unref(gptr(entry))
                }
            }
            closeSection()
            return menu
        }
        return build(items)
    }

    /// A GMenu as the GMenuModel it is.
    private static func model(_ menu: OpaquePointer) -> UnsafeMutablePointer<GMenuModel> { UnsafeMutablePointer(menu) }

    // MARK: Choices

    fileprivate func activated(_ name: String) {
        guard let (placement, id) = actionItems[name], let action = g_action_map_lookup_action(actions, name) else { return }
        var checked: Bool?
        if let state = g_action_get_state(action) {
            checked = g_variant_get_boolean(state) == 0
            g_variant_unref(state)
            g_simple_action_set_state(action, g_variant_new_boolean(checked! ? 1 : 0))
        }
        let shown = placement == .context ? context : (pageBar ?? embedderBar)
        guard let shown, let container else { return }
        let activation = MenuActivation(id: id, placement: placement, checked: checked)
        container.record(.native(action: .menuActivated, detail: id))
        switch shown.owner {
        case .embedder(let handler):
            handler(activation)
        case .document(let token, let owner):
            // The document that set the menu, still shown in its view: else nobody hears it.
            guard let pane = owner.pane, pane.messages.frames.mainToken == token else { return }
            container.stage.emit(to: pane, "menu:activated", activation.payload)
        }
    }

    fileprivate func keyPressed(keyval: guint, state: guint) -> Bool {
        let modifiers = state & gtk_accelerator_get_default_mod_mask().rawValue
        let key = gdk_keyval_to_lower(keyval)
        guard let match = accelerators.first(where: { $0.key == key && $0.modifiers.rawValue == modifiers }),
              let action = g_action_map_lookup_action(actions, match.action), g_action_get_enabled(action) != 0
        else { return false }
        g_action_activate(action, nil)
        return true
    }

    /// Replaces WebKit's items with the page's context menu, when its document declared one.
    fileprivate func contextMenu(_ menu: UnsafeMutablePointer<WebKitContextMenu>, view: UnsafeMutablePointer<WebKitWebView>?) -> Bool {
        guard let context, case .document(let token, let owner) = context.owner, let pane = owner.pane,
              pane.webView == view, pane.messages.frames.mainToken == token else { return false }
        webkit_context_menu_remove_all(menu)
        var names = contextActions[...]
        func fill(_ target: UnsafeMutablePointer<WebKitContextMenu>, _ items: [AppMenu.Item]) {
            for item in items {
                switch item {
                case .separator: webkit_context_menu_append(target, webkit_context_menu_item_new_separator())
                case .submenu(let label, let children):
                    let submenu = webkit_context_menu_new()!
                    fill(submenu, children)
                    webkit_context_menu_append(target, webkit_context_menu_item_new_with_submenu(label, submenu))
                case .command(_, let label, _, _, _):
                    guard let action = g_action_map_lookup_action(actions, names.removeFirst()) else { continue }
                    webkit_context_menu_append(target, webkit_context_menu_item_new_from_gaction(action, label, nil))
                }
            }
        }
        fill(menu, context.menu.items)
        return false
    }

    func tearDown() {
        signals.disconnectAll()
        actionSignals.disconnectAll()
        if let container, !container.isTornDown { gtk_widget_insert_action_group(container.window, Self.groupName, nil) }
        menuBarWidget = nil
        pageBar = nil; embedderBar = nil; context = nil
    }

    isolated deinit {
        signals.disconnectAll()
        actionSignals.disconnectAll()
        g_object_unref(gptr(actions))
    }
}

/// `activate` on an item's action: `void (*)(GSimpleAction*, GVariant*, gpointer)`.
private let onActivate: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, data in
    guard let data else { return }
    let name = Unmanaged<SignalContext>.fromOpaque(data).takeUnretainedValue().tag
    onMainLoop((data, name)) { data, name in SignalContext.owner(data, as: WindowMenus.self)?.activated(name) }
}

/// `key-press-event` on the window: `gboolean (*)(GtkWidget*, GdkEventKey*, gpointer)`; TRUE: an accelerator's.
private let onKeyPress: @convention(c) (UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkEventKey>?, gpointer?) -> gboolean = {
    _, event, data in
    guard let event else { return 0 }
    let (keyval, state) = (event.pointee.keyval, event.pointee.state)
    return onMainLoop((data, keyval, state)) { data, keyval, state in
        SignalContext.owner(data, as: WindowMenus.self)?.keyPressed(keyval: keyval, state: state) ?? false
    } ? 1 : 0
}

/// `context-menu`: `gboolean (*)(WebKitWebView*, WebKitContextMenu*, GdkEvent*, WebKitHitTestResult*, gpointer)`.
private let onContextMenu: @convention(c) (UnsafeMutablePointer<WebKitWebView>?, UnsafeMutablePointer<WebKitContextMenu>?, OpaquePointer?,
                                           OpaquePointer?, gpointer?) -> gboolean = {
    view, menu, _, _, data in
    guard let menu else { return 0 }
    return onMainLoop((data, menu, view)) { data, menu, view in
        SignalContext.owner(data, as: WindowMenus.self)?.contextMenu(menu, view: view) ?? false
    } ? 1 : 0
}
