#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A handler's answer.
public enum HandlerResult: Sendable, Equatable {
    case pass
    case decide(NavigationPolicy)
}
