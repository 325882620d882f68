#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// The frames whose isolated world registered a token: who each token stands for.
///
/// Two bounded pools, each forgetting the frame that called least recently first (its calls
/// then reject until its document is loaded again): frames of origins some strategy accepts
/// (`callers`), and all others, kept only so that their rejections can name their origin.
/// A third-party frame that opens frame after frame fills only the second pool: it can
/// never push the app's own frames out.
struct FrameRegistry {
    /// Frames per pool.
    static let capacity = 256

    /// A class: the bridge looks one up for every message, and a reference is one retain
    /// where a copy of five fields would be five.
    final class Frame {
        /// `location.origin` and `location.href` as the frame's isolated world saw them.
        let origin: String
        let url: String
        /// The document's URL when it is a real URL of its own origin; nil for `about:`,
        /// `data:`, `blob:` and `javascript:` documents, which never pass the check even
        /// when they inherit an allowed origin.
        let documentURL: URL?
        let documentOrigin: Origin?
        /// Per strategy, the calls on the shared handler that its origin was allowed to
        /// make, until the frame gets a channel to it (see `BridgeChannel.openAfter`).
        var channelCandidates: [String: ChannelCandidate] = [:]

        /// A frame's calls to one strategy before it has a channel there.
        struct ChannelCandidate {
            var calls = 0
            /// Whether the strategy answered every one of them within WebKit's signal; its
            /// channel then takes batches (see `BridgeChannel.batches`).
            var allAnsweredAtOnce = true
        }

        init(origin: String, url: String, documentURL: URL?, documentOrigin: Origin?) {
            self.origin = origin
            self.url = url
            self.documentURL = documentURL
            self.documentOrigin = documentOrigin
        }

        /// The document's URL if its origin is one of `allowed`, else nil.
        func allowedDocumentURL(_ allowed: Set<Origin>) -> URL? {
            guard let documentURL, let documentOrigin, allowed.contains(documentOrigin) else { return nil }
            return documentURL
        }
    }

    /// Least recently used first out, `capacity` at most.
    private struct Pool {
        var frames: [FrameToken: (frame: Frame, lastUse: UInt64)] = [:]

        /// Returns the token it forgot to make room, if any.
        mutating func insert(_ frame: Frame, token: FrameToken, at time: UInt64) -> FrameToken? {
            var forgotten: FrameToken?
            if frames.count >= FrameRegistry.capacity, frames[token] == nil,
               let oldest = frames.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                frames[oldest] = nil
                forgotten = oldest
            }
            frames[token] = (frame, time)
            return forgotten
        }

        /// The frame, marked as used at `time`.
        mutating func use(_ token: FrameToken, at time: UInt64) -> Frame? {
            guard let index = frames.index(forKey: token) else { return nil }
            frames.values[index].lastUse = time
            return frames.values[index].frame
        }
    }

    /// The origins that may call at least one strategy.
    let callers: Set<Origin>
    private var trusted = Pool()
    private var others = Pool()
    private var clock: UInt64 = 0

    init(callers: Set<Origin>) {
        self.callers = callers
    }

    var count: Int { trusted.frames.count + others.frames.count }

    /// What `register` did: whether the frame went to the pool of frames some strategy
    /// accepts, and the frame of that pool it forgot to make room (whose bridge channels
    /// must close: see `BridgeChannel`).
    struct Registration {
        let isCaller: Bool
        let forgottenCaller: FrameToken?
    }

    @discardableResult
    mutating func register(token: FrameToken, origin: String, url: String) -> Registration {
        var documentURL: URL?
        var documentOrigin: Origin?
        if let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
           !["about", "data", "blob", "javascript"].contains(scheme),
           let callerOrigin = Origin(string: origin), Origin(parsed) == callerOrigin {
            documentURL = parsed
            documentOrigin = callerOrigin
        }
        let frame = Frame(origin: origin, url: url, documentURL: documentURL, documentOrigin: documentOrigin)
        clock += 1
        if let documentOrigin, callers.contains(documentOrigin) {
            let forgotten = trusted.insert(frame, token: token, at: clock)
            return Registration(isCaller: true, forgottenCaller: forgotten)
        }
        _ = others.insert(frame, token: token, at: clock)
        return Registration(isCaller: false, forgottenCaller: nil)
    }

    mutating func frame(for token: FrameToken) -> Frame? {
        clock += 1
        return trusted.use(token, at: clock) ?? others.use(token, at: clock)
    }

    mutating func removeAll() {
        trusted = Pool()
        others = Pool()
    }
}
