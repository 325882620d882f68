import Vitrine

/// The screen kept awake for a window's pages (`power` capability): each top document
/// that asks holds its own `IdleInhibitor` (the one a kiosk keeps the screen on with), so
/// one let go leaves a kiosk's and the other documents' holding. A document's hold ends
/// when it lets go, when another page commits in its view, and with the window.
@MainActor
public final class PowerFeature: WindowFeature {
    private struct Hold {
        weak var pane: WebPane?
        let owner: FrameToken
        let inhibitor: IdleInhibitor
    }

    private(set) weak var window: WebContainer?
    private var holds: [Hold] = []

    public init() {}

    public func attach(to host: any FeatureHost) {
        window = host.container
    }

    public func loadChanged(_ load: PaneLoad) {
        // Its document went with the commit (a pane gone: with the pane).
        if load.event == .committed { holds.removeAll { $0.pane == nil || $0.pane === load.pane } }
    }

    public func tearDown() {
        holds.removeAll()
    }

    /// Whether a page of this window keeps the screen awake.
    public var keepsAwake: Bool { !holds.isEmpty }

    /// Keeps the screen awake for the shown top document `owner`, saying `reason`; throws
    /// without a screen saver service. A document already holding keeps its first hold.
    public func keepAwake(reason: String, owner: FrameToken) throws(ScriptMessageError) {
        guard let window, !window.isTornDown else { throw ScriptMessageError("power: this window is closed") }
        let pane = try window.stage.pane(showing: owner, for: "power")
        guard !holds.contains(where: { $0.owner == owner }) else { return }
        let inhibitor = IdleInhibitor(for: window, reason: reason)
        guard inhibitor.isHolding else {
            throw ScriptMessageError("power: the desktop cannot keep the screen awake (\(inhibitor.description))")
        }
        holds.append(Hold(pane: pane, owner: owner, inhibitor: inhibitor))
    }

    /// Lets go of `owner`'s hold; whether it had one.
    public func allowSleep(owner: FrameToken) -> Bool {
        guard let index = holds.firstIndex(where: { $0.owner == owner }) else { return false }
        holds.remove(at: index)
        return true
    }
}

/// The `power` capability's service.
extension PowerFeature: PowerService {}
