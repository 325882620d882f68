#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Permission kinds granted to an origin; everything else is denied.
public struct PermissionGrant: Sendable, Equatable {
    public var origin: Origin
    public var kinds: Set<PermissionKind>

    public init(origin: Origin, kinds: Set<PermissionKind>) {
        self.origin = origin
        self.kinds = kinds
    }
}
