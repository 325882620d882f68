#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Where events go.
@MainActor
public protocol EventSink: AnyObject {
    func record(_ event: ContainerEvent)
}
