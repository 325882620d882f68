import Vitrine

/// Global shortcuts for a window's pages (`shortcuts` capability), held by the app's one
/// holder (`AppServices.shortcuts()`: X11 key grabs or the desktop portal). A page's
/// shortcuts go with its document and with the window.
@MainActor
public final class ShortcutFeature: WindowFeature {
    private(set) weak var window: WebContainer?

    public init() {}

    public func attach(to host: any FeatureHost) {
        window = host.container
    }

    public func loadChanged(_ load: PaneLoad) {
        if load.event == .committed { release() } // its page's shortcuts went with it
    }

    public func tearDown() {
        release()
    }

    private func release() {
        guard let window else { return }
        window.windows.services.existingShortcuts?.release(owner: window)
    }

    /// Grabs `accelerator` for this window's pages, or has the desktop bind it; throws why not.
    public func register(_ accelerator: Accelerator, id: String) async throws {
        guard let window, !window.isTornDown else { throw ScriptMessageError("shortcuts: the window has closed") }
        try await window.windows.services.shortcuts().register(accelerator, id: id, for: window)
    }

    /// Lets this window's shortcut `id` go; whether it was registered.
    public func unregister(id: String) -> Bool {
        guard let window else { return false }
        return window.windows.services.existingShortcuts?.unregister(id: id, for: window) ?? false
    }

    /// A shortcut a page of this window registered was pressed: logged, and sent to the
    /// pages granted `shortcuts` as a `shortcut` event.
    func pressed(_ entry: ShortcutBook.Entry) {
        guard let window, !window.isTornDown else { return }
        window.record(.native(action: .shortcut, detail: "\(entry.id) \(entry.accelerator)"))
        window.emit("shortcut", ["id": .string(entry.id), "accelerator": .string(entry.accelerator.description)], to: .granted(.shortcuts))
    }
}
