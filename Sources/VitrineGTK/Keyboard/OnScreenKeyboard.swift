import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import Vitrine

/// Vitrine's own on-screen keyboard for one pane: GTK buttons in a revealer below the web
/// view, which slides up when the page's keyboard script (`Resources/sdk/keyboard.js`,
/// top frame, isolated world) reports a focused field and down on blur. The view shrinks
/// by the keyboard's height, and the script scrolls the field back into sight.
///
/// Why inside the window: cage speaks neither the input-method nor the layer-shell
/// protocol, so no system keyboard can appear over a fullscreen kiosk.
///
/// What a key does is decided by `OnScreenKeyboardState` (core); this class only shows the
/// keys and runs the resulting `KeyboardCommand.script` in the page's isolated world,
/// where `vitrineKeyboardPress` types through the page's editor (real `input` events).
/// Why not synthesized GDK key events: a keysym for "é" or "€" needs a keymap entry that a
/// headless or cage session may not have, and events sent to the view go through IME
/// handling; the editor path types any character and keeps the page's undo.
///
/// Ownership: it holds the box, the revealer and the key sets (references), connects every button's
/// `clicked` and the content manager's message signal through its `SignalConnections`,
/// and unregisters its message handler on tear-down or when it goes. Buttons take no
/// focus, so a key press never blurs the page's field.
@MainActor
final class OnScreenKeyboard: PaneCollaborator {
    let signals = SignalConnections()
    private weak var pane: WebPane?
    /// The pane's root: the web view above the revealer.
    let box: GObjectReference<GtkWidget>
    private let revealer: GObjectReference<GtkWidget>
    /// The text keys and the numeric pad, one shown at a time.
    private let keySetsReference: GObjectReference<GtkWidget>
    private var keySets: UnsafeMutablePointer<GtkWidget> { keySetsReference.pointer }
    private let contentManager: GObjectReference<WebKitUserContentManager>
    let layout: KeyboardLayout
    private let layoutError: KeyboardLayoutError?
    /// Why the configured layout could not serve (the fallback is used), if it could not.
    var layoutProblem: String? { layoutError?.description }
    private(set) var state = OnScreenKeyboardState()
    /// Every key button, to relabel on shift (each kept alive by its `clicked` connection).
    private(set) var buttons: [(key: KeyboardKey, button: UnsafeMutablePointer<GtkWidget>)] = []
    private var isRegistered = false
    /// The slide's length: short, so the field is usable at once.
    static let transition: guint = 120

    init(view: UnsafeMutablePointer<GtkWidget>, contentManager: GObjectReference<WebKitUserContentManager>,
         layoutName: String, resources: ResourceLocator = ResourceLocator()) {
        self.contentManager = contentManager
        do {
            layout = try KeyboardLayout.load(layoutName, from: resources.keyboardDirectory)
            layoutError = nil
        } catch {
            Logger(label: "vitrine.keyboard").error("\(error.description); using a plain fallback layout")
            layout = .fallback
            layoutError = error
        }
        box = GObjectReference(retaining: gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
        revealer = GObjectReference(retaining: gtk_revealer_new())
        keySetsReference = GObjectReference(retaining: gtk_stack_new())
        gtk_box_pack_start(cast(box.pointer), view, 1, 1, 0)
        gtk_box_pack_end(cast(box.pointer), revealer.pointer, 0, 0, 0)
        gtk_revealer_set_transition_type(cast(revealer.pointer), GTK_REVEALER_TRANSITION_TYPE_SLIDE_UP)
        gtk_revealer_set_transition_duration(cast(revealer.pointer), Self.transition)
        gtk_container_add(cast(revealer.pointer), keySets)
        gtk_stack_add_named(cast(keySets), grid(KeyboardKey.textRows(layout)), KeyboardMode.text.rawValue)
        gtk_stack_add_named(cast(keySets), grid(KeyboardKey.numericRows), KeyboardMode.numeric.rawValue)
        gtk_widget_set_name(revealer.pointer, "vitrine-keyboard")
    }

    func attach(to pane: WebPane) {
        self.pane = pane
        if let layoutError { pane.record(.native(action: .keyboardLayoutError, detail: layoutError.description)) }
        for (key, button) in buttons {
            signals.connect(gptr(button), "clicked", context: SignalContext(owner: self, item: KeyItem(key)), handler: gCallback(onKeyClicked))
        }
        let name = OnScreenKeyboardState.handlerName
        webkit_user_content_manager_register_script_message_handler_in_world(contentManager.pointer, name, ScriptBridge.worldName)
        isRegistered = true
        signals.connect(gptr(contentManager.pointer), "script-message-received::\(name)",
                        context: SignalContext(owner: self), handler: gCallback(onKeyboardMessage))
    }

    func tearDown() {
        signals.disconnectAll()
        unregister()
    }

    /// Whether the keys are on screen (the revealer's child revealed).
    var isShown: Bool { gtk_revealer_get_reveal_child(cast(revealer.pointer)) != 0 }
    /// Whether the shown key set is mapped: drawn, or about to be, on screen.
    var isMapped: Bool {
        guard let shown = gtk_stack_get_visible_child(cast(keySets)) else { return false }
        return gtk_widget_get_mapped(shown) != 0
    }
    /// Whether the slide-up has finished.
    var isFullyShown: Bool { gtk_revealer_get_child_revealed(cast(revealer.pointer)) != 0 }
    /// The key set shown: "text" or "numeric".
    var shownKeySet: String? { string(gtk_stack_get_visible_child_name(cast(keySets))) }

    /// The accessible names of the keys of the set shown, as assistive technology reads them.
    var accessibleNames: [String] {
        guard let shown = gtk_stack_get_visible_child(cast(keySets)) else { return [] }
        return buttons.filter { gtk_widget_get_parent($0.button) == shown }.compactMap { key in
            gtk_widget_get_accessible(key.button).flatMap { string(atk_object_get_name($0)) }
        }
    }

    // MARK: Keys

    /// A grid of buttons, each `width` columns wide, rows centred.
    private func grid(_ rows: [[KeyboardKey]]) -> UnsafeMutablePointer<GtkWidget> {
        let grid = gtk_grid_new()!
        gtk_grid_set_column_homogeneous(cast(grid), 1)
        gtk_grid_set_row_homogeneous(cast(grid), 1)
        gtk_grid_set_column_spacing(cast(grid), 4)
        gtk_grid_set_row_spacing(cast(grid), 4)
        gtk_container_set_border_width(cast(grid), 6)
        let columns = rows.map { $0.reduce(0) { $0 + $1.width } }.max() ?? 0
        for (rowIndex, row) in rows.enumerated() {
            var column = (columns - row.reduce(0) { $0 + $1.width }) / 2
            for key in row {
                let button = gtk_button_new_with_label(key.label(shifted: false))!
                // No focus: a key press must leave the page's field focused.
                gtk_widget_set_can_focus(button, 0)
                gtk_widget_set_size_request(button, -1, 52)
                setAccessibleName(key.accessibleName(shifted: false), of: button)
                gtk_grid_attach(cast(grid), button, gint(column), gint(rowIndex), gint(key.width), 1)
                buttons.append((key, button))
                column += key.width
            }
        }
        return grid
    }

    private func setAccessibleName(_ name: String, of button: UnsafeMutablePointer<GtkWidget>) {
        if let accessible = gtk_widget_get_accessible(button) { atk_object_set_name(accessible, name) }
    }

    /// Labels (and accessible names) follow shift.
    private func relabel() {
        for (key, button) in buttons {
            guard case .character = key else { continue }
            gtk_button_set_label(cast(button), key.label(shifted: state.isShifted))
            setAccessibleName(key.accessibleName(shifted: state.isShifted), of: button)
        }
    }

    /// A key pressed (its button clicked).
    func pressed(_ key: KeyboardKey) {
        guard let pane else { return }
        let wasShifted = state.isShifted
        let command = state.press(key)
        if state.isShifted != wasShifted { relabel() }
        pane.container?.userActed()
        switch command {
        case .hide?:
            show(false)
            pane.record(.native(action: .keyboardHidden, detail: "hide-key"))
        case let command?:
            if let script = command.script {
                webkit_web_view_evaluate_javascript(pane.webView, script, -1, ScriptBridge.worldName, nil, nil, nil, nil)
            }
        case nil:
            break
        }
    }

    // MARK: The page's reports

    fileprivate func received(_ text: String?) {
        guard let pane, let text, let message = KeyboardFocusMessage(text) else { return }
        let before = state
        state.receive(message)
        if state.isShifted != before.isShifted { relabel() }
        if state.isShown { gtk_stack_set_visible_child_name(cast(keySets), state.mode.rawValue) }
        show(state.isShown)
        // One line per change of what is on screen: shown (or another key set), hidden.
        guard state.isShown != before.isShown || (state.isShown && state.mode != before.mode) else { return }
        pane.record(.native(action: .keyboard(shown: state.isShown), detail: state.mode.rawValue))
    }

    private func show(_ shown: Bool) {
        gtk_revealer_set_reveal_child(cast(revealer.pointer), shown ? 1 : 0)
    }

    private func unregister() {
        guard isRegistered else { return }
        isRegistered = false
        webkit_user_content_manager_unregister_script_message_handler_in_world(
            contentManager.pointer, OnScreenKeyboardState.handlerName, ScriptBridge.worldName)
    }

    isolated deinit {
        unregister()
    }
}

/// The key a button stands for, carried by its `clicked` connection.
private final class KeyItem {
    let key: KeyboardKey
    init(_ key: KeyboardKey) { self.key = key }
}

/// `clicked`: `void (*)(GtkButton*, gpointer)`.
private let onKeyClicked: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
    onMainLoop(data) { data in
        guard let key = SignalContext.item(data, as: KeyItem.self)?.key else { return }
        SignalContext.owner(data, as: OnScreenKeyboard.self)?.pressed(key)
    }
}

/// `script-message-received::vitrine-keyboard`:
/// `void (*)(WebKitUserContentManager*, WebKitJavascriptResult*, gpointer)`.
private let onKeyboardMessage: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, result, data in
    onMainLoop((result, data)) { result, data in
        let text: String? = result.flatMap { result in
            guard let value = webkit_javascript_result_get_js_value(result), jsc_value_is_string(value) != 0 else { return nil }
            return takeString(jsc_value_to_string(value))
        }
        SignalContext.owner(data, as: OnScreenKeyboard.self)?.received(text)
    }
}
