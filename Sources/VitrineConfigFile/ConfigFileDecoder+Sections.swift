#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
internal import TOMLKit

/// The options read by hand: arrays of tables (handlers, tabs, trusted certificates) and
/// tables whose keys are data (routes, strategy origins).
extension ConfigFileDecoder {
    func decodeStructured(_ option: ConfigOption, in table: TOMLTable, at path: Path, into settings: inout ConfigSettings) {
        let key = option.name
        switch option.key {
        case "navigation.handlers":
            decodeHandlers(table, at: path, into: &settings)
        case "strategies":
            if let strategies = self.table(table, key, at: path) { decodeStrategies(strategies, into: &settings) }
        case "tabs":
            if let tabs = tables(table, key, at: path) { settings.tabs = decodeTabs(tabs) }
        case "network.no-proxy", "network.ca-certificates", "network.client-certificate", "network.credentials":
            decodeNetwork(option.name, in: table, at: path, into: &settings.network)
        case "remote.mqtt.password-file", "remote.mqtt.ca-certificates":
            decodeRemoteMQTT(option.name, in: table, at: path, into: &settings)
        case "remote.vnc.password-file":
            settings.vncPasswordFile = vncPasswordFile(table, at: path)
        case "sidecars":
            if let sidecars = tables(table, key, at: path) { settings.sidecars = decodeSidecars(sidecars) }
        case "tls.trust":
            settings.trustedCertificates = decodeTrust(tables(table, key, at: path) ?? [])
        default:
            assertionFailure("no decoder for the structured option \(option.key)")
        }
    }

    static let strategyIdentifiers = [PageStrategy.identifier, UserStrategy.identifier, PingStrategy.identifier]

    /// `[[navigation.handlers]]`: each entry, then the chain as a whole.
    private func decodeHandlers(_ navigation: TOMLTable, at here: Path, into settings: inout ConfigSettings) {
        guard let entries = tables(navigation, "handlers", at: here) else { return }
        let handlers = entries.compactMap { entry, path in decodeHandler(entry, at: path) }
        settings.handlers = handlers
        // The chain as a whole. Checked only when every entry decoded, so one typo in a
        // `type` does not also report the chain.
        guard handlers.count == entries.count else { return }
        let handlersPath = here + [.key("handlers")]
        guard let last = handlers.lastIndex(where: { $0.type == DefaultAllowHandler.typeName }) else {
            report(at: map.position(ofValue: handlersPath),
                   #"navigation.handlers never lets a page load: end the chain with a handler of type = "\#(DefaultAllowHandler.typeName)""#)
            return
        }
        if last < handlers.count - 1 {
            let unreachable = handlers[last + 1]
            report(at: unreachable.position,
                   "\(unreachable.displayPath) comes after \(DefaultAllowHandler.typeName), which decides every navigation, so it would never run; move \(DefaultAllowHandler.typeName) to the end")
        }
    }

    /// One chain entry, or nil when anything in it is wrong (so the chain as a whole is
    /// judged only when every entry is sound).
    private func decodeHandler(_ entry: TOMLTable, at path: Path) -> HandlerSetting? {
        let errorsBefore = errors.count
        let handler = decodeHandlerEntry(entry, at: path)
        return errors.count == errorsBefore ? handler : nil
    }

    private func decodeHandlerEntry(_ entry: TOMLTable, at path: Path) -> HandlerSetting? {
        let expectedTypes = "one of \(Self.list(ConfigHandlers.all.map(\.type)))"
        guard let type = string(entry, "type", at: path, expected: expectedTypes) else {
            if entry["type"] == nil { missing("type", in: path, expected: expectedTypes) }
            return nil
        }
        guard let handler = ConfigHandlers.handler(type) else {
            mismatch(at: path + [.key("type")], expected: expectedTypes, got: entry["type"]!)
            return nil
        }
        checkKeys(entry, at: path, allowed: ["type"] + handler.keys.map(\.name), context: "a \(type) handler")
        guard let make = handler.decode(self, entry, path) else { return nil }
        return HandlerSetting(type: type, make: make, position: map.position(ofValue: path), displayPath: display(path))
    }

    /// A deep-link handler's `schemes`: URL schemes, lowercased.
    func schemes(_ entry: TOMLTable, at path: Path) -> [String]? {
        array(entry, "schemes", at: path, of: #"a URL scheme such as "myapp""#) { value in
            value.string.flatMap { Self.isScheme($0) ? $0.lowercased() : nil }
        }
    }

    /// `routes = { "/product/:id" = "product" }`, in the order written: the first match wins,
    /// and the parsed table no longer knows the order.
    func decodeRoutes(_ entry: TOMLTable, at path: Path) -> [RoutePattern]? {
        let routesPath = path + [.key("routes")]
        let expected = #"a table of path pattern = route name, such as { "/product/:id" = "product" }"#
        guard let routes = table(entry, "routes", at: path, expected: expected) else {
            if entry["routes"] == nil { missing("routes", in: path, expected: expected) }
            return nil
        }
        if routes.isEmpty { report(at: map.position(ofValue: routesPath), "\(display(routesPath)) must list at least one route") }
        var patterns: [(TOMLSourceMap.Position, RoutePattern)] = []
        for pattern in routes.keys {
            let patternPath = routesPath + [.key(pattern)]
            guard pattern.hasPrefix("/") else {
                report(at: map.position(ofKey: patternPath),
                       #"\#(display(routesPath)) has the pattern "\#(pattern)"; a pattern is a path starting with "/", such as "/product/:id""#)
                continue
            }
            guard let name = string(routes, pattern, at: routesPath, expected: "a non-empty route name", where: { !$0.isEmpty }) else { continue }
            patterns.append((map.position(ofKey: patternPath), RoutePattern(pattern, name: name)))
        }
        return patterns.sorted { $0.0 < $1.0 }.map(\.1)
    }

    private func decodeStrategies(_ strategies: TOMLTable, into settings: inout ConfigSettings) {
        let here: Path = [.key("strategies")]
        checkKeys(strategies, at: here, allowed: ["enabled", "origins"])
        let expected = "one of \(Self.list(Self.strategyIdentifiers))"
        if let enabled = array(strategies, "enabled", at: here, of: expected, { value in
            value.string.flatMap { Self.strategyIdentifiers.contains($0) ? $0 : nil }
        }) {
            var seen: Set<String> = []
            for (index, identifier) in enabled.enumerated() where !seen.insert(identifier).inserted {
                report(at: map.position(ofValue: here + [.key("enabled"), .index(index)]),
                       "\(display(here + [.key("enabled")])) lists \"\(identifier)\" twice")
            }
            settings.strategies = enabled.reduce(into: []) { list, identifier in if !list.contains(identifier) { list.append(identifier) } }
        }
        if let origins = table(strategies, "origins", at: here) {
            let path = here + [.key("origins")]
            checkKeys(origins, at: path, allowed: Self.strategyIdentifiers, context: "strategy identifiers")
            for identifier in origins.keys where Self.strategyIdentifiers.contains(identifier) {
                if let list = self.origins(origins, identifier, at: path) {
                    settings.strategyOrigins.append((identifier, Set(list)))
                }
            }
        }
    }

    private func decodeTabs(_ tabs: [(TOMLTable, Path)]) -> [Tab] {
        tabs.compactMap { tab, path in
            checkKeys(tab, at: path, allowed: ["title", "url"])
            let tabTitle = string(tab, "title", at: path), tabURL = url(tab, "url", at: path)
            if tab["title"] == nil { missing("title", in: path, expected: "the tab's label") }
            if tab["url"] == nil { missing("url", in: path, expected: "the page the tab shows") }
            guard let tabTitle, let tabURL else { return nil }
            return Tab(title: tabTitle, url: tabURL)
        }
    }

    private func decodeTrust(_ entries: [(TOMLTable, Path)]) -> [TLSException] {
        entries.compactMap { entry, path in
            checkKeys(entry, at: path, allowed: ["host", "certificate"])
            let host = string(entry, "host", at: path, expected: #"a host name such as "kiosk.local""#) {
                !$0.isEmpty && !$0.contains("/") && !$0.contains(":") && !$0.contains(where: \.isWhitespace)
            }
            let certificate = self.path(entry, "certificate", at: path, mustBe: .file)
            if entry["host"] == nil { missing("host", in: path, expected: "the server the certificate is trusted for") }
            if entry["certificate"] == nil { missing("certificate", in: path, expected: "the PEM file of the certificate") }
            guard let host, let certificate else { return nil }
            return TLSException(host: host.lowercased(), certificatePath: certificate.path)
        }
    }
}
