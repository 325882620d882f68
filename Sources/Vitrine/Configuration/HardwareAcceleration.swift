#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// WebKit's hardware acceleration policy: `auto` leaves WebKit's own choice; `never` is
/// for GPU stacks that show blank windows (some NVIDIA and VM setups).
public enum HardwareAcceleration: String, Sendable, CaseIterable {
    case auto, never, always
}
