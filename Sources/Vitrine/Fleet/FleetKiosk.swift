#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One kiosk as the fleet sees it: its device id and what its retained `state` says (or
/// its last will, `{"online":false}`, which says only that it is gone).
public struct FleetKiosk: Sendable, Equatable {
    public let id: String
    public let online: Bool
    public let version: String
    public let url: String
    public let lastError: String
    public let groups: [String]

    public init(id: String, online: Bool, version: String = "", url: String = "", lastError: String = "", groups: [String] = []) {
        self.id = id
        self.online = online
        self.version = version
        self.url = url
        self.lastError = lastError
        self.groups = groups
    }

    /// The kiosk `id` from its state's payload; nil when the payload is no JSON object.
    public init?(id: String, statePayload: [UInt8]) {
        guard let text = String(validating: statePayload, as: UTF8.self), let state = try? JSONValue(parsing: text),
              case .object = state
        else { return nil }
        let groups: [String] = if case .array(let names)? = state["groups"] { names.compactMap(\.stringValue) } else { [] }
        self.init(id: id, online: state["online"] == .bool(true), version: state["version"]?.stringValue ?? "",
                  url: state["url"]?.stringValue ?? "", lastError: state["lastError"]?.stringValue ?? "", groups: groups)
    }

    /// The kiosks of `group` (all of them when nil), by id.
    public static func members(of group: String?, in kiosks: [FleetKiosk]) -> [FleetKiosk] {
        kiosks.filter { group == nil || $0.groups.contains(group!) }.sorted { $0.id < $1.id }
    }
}
