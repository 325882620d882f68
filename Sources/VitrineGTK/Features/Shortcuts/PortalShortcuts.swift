import CWebKitGTK
import Vitrine

/// Global shortcuts (`shortcuts` capability) under Wayland, through the desktop portal's
/// GlobalShortcuts: a session (`CreateSession`) to which the whole book is bound at once
/// (`BindShortcuts`: the desktop asks the user to confirm, and may let them pick other
/// keys); the portal's `Activated` signal — for this session, from the portal's owner only —
/// reaches the window whose page registered the shortcut as a `shortcut` event.
///
/// The portal binds a session's shortcuts once, so every change of the book binds the new
/// list in a new session and closes the old one when the new one is bound; until then the
/// old one serves (its shortcuts that left the book reach nobody). Binds run one at a time.
/// A registration the user declines (or leaves out) is undone and rejected with the reason.
///
/// One per app (`AppServices.shortcuts()`); it owns the portal connection, the
/// `Activated` subscription and the bound session (closed in deinit), and holds its windows
/// weakly.
@MainActor
final class PortalShortcuts: GlobalShortcutKeys {
    static let interface = "org.freedesktop.portal.GlobalShortcuts"
    static let missing = ScriptMessageError("shortcuts: this Wayland session's desktop portal does not offer GlobalShortcuts "
        + "(xdg-desktop-portal ≥ 1.17 with a backend that implements it, e.g. KDE Plasma 6 or GNOME 48)")

    private let bus: PortalBus
    private var book = ShortcutBook()
    private var owners: [Int: Weak] = [:]
    /// The session whose shortcuts are bound, if any.
    private var session: String?
    private var activated: guint = 0
    /// The last bind asked for: the next waits for it.
    private var binding: Task<PortalAnswer?, Never>?

    private struct Weak { weak var container: WebContainer? }

    init() throws(ScriptMessageError) {
        bus = try PortalBus(interface: Self.interface, missing: Self.missing)
        activated = bus.subscribe(owner: self, interface: Self.interface, member: "Activated", path: PortalBus.path, handler: onActivated)
        bus.onVanished = { [weak self] in self?.session = nil }
    }

    isolated deinit {
        bus.unsubscribe(activated)
        if let session { bus.closeSession(session) }
    }

    func register(_ accelerator: Accelerator, id: String, for container: WebContainer) async throws(ScriptMessageError) {
        let owner = GlobalShortcuts.owner(container)
        let previous = book.accelerator(id: id, owner: owner)
        _ = try book.register(accelerator, id: id, owner: owner)
        owners[owner] = Weak(container: container)
        let answer = await rebind()
        let refusal: ScriptMessageError? = if let failure = answer?.failure {
            ScriptMessageError("shortcuts: \(accelerator) was not bound: the desktop portal failed (\(failure))")
        } else {
            ShortcutBook.portalRefusal(of: accelerator, response: answer?.response ?? 2, bound: answer?.shortcutIDs ?? [])
        }
        guard let refusal else { return }
        // Undone, unless the page changed it meanwhile: the session bound before stays, with
        // the keys the id held in it.
        book.undoRegistration(of: accelerator, id: id, owner: owner, previous: previous)
        throw refusal
    }

    func unregister(id: String, for container: WebContainer) -> Bool {
        guard book.unregister(id: id, owner: GlobalShortcuts.owner(container)) != nil else { return false }
        Task { [weak self] in await self?.rebind() }
        return true
    }

    func release(owner container: WebContainer) {
        owners[GlobalShortcuts.owner(container)] = nil
        guard !book.release(owner: GlobalShortcuts.owner(container)).isEmpty else { return }
        Task { [weak self] in await self?.rebind() }
    }

    /// Binds the book as it is when the previous bind is over; the portal's answer (nil:
    /// nothing to bind, the session closed).
    @discardableResult
    private func rebind() async -> PortalAnswer? {
        let previous = binding
        let next = Task { [weak self] () -> PortalAnswer? in
            _ = await previous?.value
            return await self?.bindBook()
        }
        binding = next
        return await next.value
    }

    private func bindBook() async -> PortalAnswer? {
        let shortcuts = book.portalShortcuts
        guard !shortcuts.isEmpty else {
            if let session { bus.closeSession(session) }
            session = nil
            return nil
        }
        let created = await bus.request(Self.interface, "CreateSession",
                                        extraOptions: [("session_handle_token", g_variant_new_string(PortalBus.token()))]) { [$0] }
        guard created.failure == nil, created.response == 0, let newSession = created.sessionHandle,
              g_variant_is_object_path(newSession) != 0
        else { return created.failure == nil && created.response == 0 ? PortalAnswer(failure: "CreateSession: no session handle") : created }
        let list = DBusMenuLayout.array(of: "(sa{sv})", shortcuts.map {
            DBusMenuLayout.tuple([g_variant_new_string($0.id), PortalBus.vardict([
                ("description", g_variant_new_string($0.description)),
                ("preferred_trigger", g_variant_new_string($0.preferredTrigger)),
            ])])
        })
        let bound = await bus.request(Self.interface, "BindShortcuts") { options in
            [g_variant_new_object_path(newSession), list, g_variant_new_string(""), options]
        }
        guard bound.failure == nil, bound.response == 0 else {
            bus.closeSession(newSession)
            return bound
        }
        if let session { bus.closeSession(session) }
        session = newSession
        return bound
    }

    /// `Activated(o session_handle, s shortcut_id, t timestamp, a{sv} options)` from the
    /// portal's owner: only this session's, only shortcuts still in the book.
    fileprivate func activated(_ parameters: OpaquePointer) {
        guard string(g_variant_get_type_string(parameters)) == "(osta{sv})", let session,
              PortalBus.firstString(parameters) == session,
              let idValue = g_variant_get_child_value(parameters, 1)
        else { return }
        let id = string(g_variant_get_string(idValue, nil)) ?? ""
        g_variant_unref(idValue)
        guard let entry = book.entry(portalID: id), let container = owners[entry.owner]?.container, !container.isTornDown else { return }
        container.feature(ShortcutFeature.self)?.pressed(entry)
    }
}

private let onActivated: GDBusSignalCallback = { _, _, _, _, _, parameters, data in
    guard let parameters else { return }
    onMainLoop((data, parameters)) { data, parameters in SignalContext.owner(data, as: PortalShortcuts.self)?.activated(parameters) }
}
