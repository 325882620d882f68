/// The answer to a page's permission request: granted only when every kind it asks for
/// is granted to the page's origin; a request of no known kind is denied.
public struct PermissionDecision: Sendable, Equatable {
    public let isGranted: Bool
    /// The kinds asked for, as the events log names them (`camera+microphone`, `unknown`).
    public let kindName: String
    /// The page's origin as logged (`null` when it has none).
    public let originName: String

    public init(isGranted: Bool, kindName: String, originName: String) {
        self.isGranted = isGranted
        self.kindName = kindName
        self.originName = originName
    }
}

extension Configuration {
    /// The decision for a request of `kinds` from a page of `origin`.
    public func permissionDecision(for kinds: Set<PermissionKind>, from origin: Origin?) -> PermissionDecision {
        let names = kinds.map(\.rawValue).sorted().joined(separator: "+")
        return PermissionDecision(
            isGranted: !kinds.isEmpty && kinds.isSubset(of: grantedPermissions(for: origin)),
            kindName: names.isEmpty ? "unknown" : names,
            originName: origin?.description ?? "null")
    }
}
