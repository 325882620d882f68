import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
import Glibc

public struct RemoteControlError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
