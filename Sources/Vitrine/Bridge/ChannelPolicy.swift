/// The bridge's channel and batching policy (docs/bridge-protocol.md, "Channels" and
/// "Batches"): when a frame earns its own channel to a strategy, what the channel's name
/// says, and the limits on what one post may carry. The SDK follows the same numbers
/// (protocol.json).
public enum ChannelPolicy {
    /// Admitted calls from one frame document to one strategy on the shared handler before
    /// that frame gets a channel there; the SDK looks for it after as many calls.
    public static let openAfter = BridgeProtocol.channelAfter
    /// Posts the SDK keeps unanswered on a channel that takes batches before further calls
    /// wait and go together.
    public static let unansweredPosts = BridgeProtocol.channelPosts
    /// The most calls one batch may carry; the SDK sends more as several.
    public static let batchLimit = BridgeProtocol.batchLimit
    /// The most strings one hoisted JSON post may carry beside its text.
    public static let hoistedLimit = BridgeProtocol.hoistedLimit
    /// Strings up to this length travel inside the shared handler's request string.
    public static let shortString = BridgeProtocol.shortString
    /// The most channels one view opens in its life. WebKit keeps every handler name as a
    /// GQuark for the life of the process (three per channel, about 300 bytes): a page that
    /// makes document after document, each calling enough, must not grow that for ever.
    /// Past it, frames keep using the shared handlers, which answer the same.
    public static let channelsPerView = 256

    /// Whether a batch of `count` calls is within the limit.
    public static func acceptsBatch(of count: Int) -> Bool {
        (0...batchLimit).contains(count)
    }

    /// Whether a hoisted JSON post of `length` parts (the text and its strings) is.
    public static func acceptsHoisted(length: Int) -> Bool {
        (1...hoistedLimit + 1).contains(length)
    }

    /// The WebKit handler name of `token`'s channel to `strategy` on `port`:
    /// `strategy#token`, `+` when the channel takes batches (how the SDK learns that), then
    /// the port's suffix. Only the frame knows its token, and WebKit lists no handler names
    /// to pages, so the name says who posts.
    public static func handlerName(strategy: String, token: FrameToken, batches: Bool, port: BridgePort = .text) -> String {
        strategy + "#" + token.hexDigits + (batches ? "+" : "") + port.suffix
    }
}
