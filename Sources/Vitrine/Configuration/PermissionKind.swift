#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The kinds of permission a page can ask for.
public enum PermissionKind: String, Sendable, CaseIterable, Hashable {
    case camera, microphone, geolocation, notifications, clipboard, pointerLock = "pointer-lock"
    case deviceInfo = "device-info", mediaKeySystem = "media-key-system", screenCapture = "screen-capture"
}
