/// One view's living documents: which principal each bridge token stands for, and for how
/// long.
///
/// A token is bound to the document that drew it. It dies when the document goes (its
/// frame navigates, or the frame is removed: the registrar says `gone`), when the view's
/// main frame commits another page (every document of the old page with it), or when
/// another main-frame document registers — so a token a script carried away works nowhere
/// once its document has gone.
///
/// The view's main-frame document has a place of its own and is never forgotten to make
/// room. Subframes go to two bounded pools, each forgetting the document that called least
/// recently first (its calls then reject until it is loaded again): documents of origins
/// some strategy accepts (`callers`), and all others, kept only so that their rejections can
/// name their origin. However many frames a page opens, of whatever origin, the app's own
/// main frame stays known. One registry per view: frames of another view cannot crowd it.
public struct FrameRegistry: Sendable {
    /// Subframe documents per pool.
    public static let capacity = 256

    /// Least recently used first out, `capacity` at most.
    private struct Pool {
        var principals: [FrameToken: (principal: Principal, lastUse: UInt64)] = [:]

        /// Returns the token it forgot to make room, if any.
        mutating func insert(_ principal: Principal, at time: UInt64) -> FrameToken? {
            var forgotten: FrameToken?
            if principals.count >= FrameRegistry.capacity, principals[principal.token] == nil,
               let oldest = principals.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                principals[oldest] = nil
                forgotten = oldest
            }
            principals[principal.token] = (principal, time)
            return forgotten
        }

        /// The principal, marked as used at `time`.
        mutating func use(_ token: FrameToken, at time: UInt64) -> Principal? {
            guard let index = principals.index(forKey: token) else { return nil }
            principals.values[index].lastUse = time
            return principals.values[index].principal
        }
    }

    /// The origins that may call at least one strategy.
    public let callers: Set<Origin>
    /// The app the view belongs to.
    public let appID: String
    private var main: Principal?
    private var trusted = Pool()
    private var others = Pool()
    private var clock: UInt64 = 0

    public init(callers: Set<Origin>, appID: String) {
        self.callers = callers
        self.appID = appID
    }

    /// The token of the view's top document while it lives.
    public var mainToken: FrameToken? { main?.token }

    public var count: Int { (main == nil ? 0 : 1) + trusted.principals.count + others.principals.count }

    /// Applies what a frame's registrar said. Returns the tokens that died with it (their
    /// bridge channels must close).
    public mutating func apply(_ registration: FrameRegistration) -> [FrameToken] {
        switch registration {
        case .gone(let token):
            return forget(token) ? [token] : []
        case .document(let token, let isMainFrame, let origin, let url):
            let principal = Principal(token: token, reportedOrigin: origin, url: url, isMainFrame: isMainFrame, appID: appID)
            if isMainFrame {
                // The top document before it has gone (its subframes went with the commit
                // that brought this one: `mainFrameCommitted`; a page restored from the
                // back/forward cache registers its subframes again, in any order).
                let previous = main?.token
                main = principal
                return previous.map { $0 == token ? [] : [$0] } ?? []
            }
            clock += 1
            if main?.token == token { main = nil }
            if let origin = principal.origin, callers.contains(origin) {
                return trusted.insert(principal, at: clock).map { [$0] } ?? []
            }
            return others.insert(principal, at: clock).map { [$0] } ?? []
        }
    }

    /// The main frame committed another page: every document of the old one has gone.
    public mutating func mainFrameCommitted() -> [FrameToken] {
        removeAll()
    }

    /// Who `token` stands for while its document lives.
    public mutating func principal(for token: FrameToken) -> Principal? {
        if let main, main.token == token { return main }
        clock += 1
        return trusted.use(token, at: clock) ?? others.use(token, at: clock)
    }

    /// Forgets every document (the web process died, or the page committed another).
    @discardableResult
    public mutating func removeAll() -> [FrameToken] {
        let tokens = (main.map { [$0.token] } ?? []) + Array(trusted.principals.keys) + Array(others.principals.keys)
        main = nil
        trusted = Pool()
        others = Pool()
        return tokens
    }

    private mutating func forget(_ token: FrameToken) -> Bool {
        if main?.token == token {
            main = nil
            return true
        }
        return trusted.principals.removeValue(forKey: token) != nil || others.principals.removeValue(forKey: token) != nil
    }
}
