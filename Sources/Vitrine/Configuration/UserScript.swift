#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// JavaScript injected into every page the view loads.
public struct UserScript: Sendable, Equatable {
    public enum InjectionTime: Sendable { case documentStart, documentEnd }
    public enum Frames: Sendable { case topFrame, allFrames }

    public var source: String
    public var injectionTime: InjectionTime
    public var frames: Frames

    public init(source: String, injectionTime: InjectionTime = .documentEnd, frames: Frames = .topFrame) {
        self.source = source
        self.injectionTime = injectionTime
        self.frames = frames
    }

    /// Pins the viewport's scale so pinch and double-tap zoom do nothing, and marks the
    /// document so a page (or a test) can see zoom is disabled.
    public static let disableZoom = UserScript(
        source: """
            (function () {
              var meta = document.querySelector('meta[name="viewport"]');
              if (!meta) { meta = document.createElement('meta'); meta.name = 'viewport'; (document.head || document.documentElement).appendChild(meta); }
              meta.content = 'width=device-width, initial-scale=1.0, maximum-scale=1.0, user-scalable=no';
              document.documentElement.setAttribute('data-vitrine-zoom', 'disabled');
            })();
            """,
        injectionTime: .documentEnd,
        frames: .topFrame)
}
