/// A frame document's bridge token (see `FrameRegistry`; the adapter's `ScriptBridge` says
/// how a frame gets one): 16 random bytes, written as 32 lowercase hex digits. Parsed
/// straight from the bytes WebKit hands over, without making a string: every script
/// message carries one.
public struct FrameToken: Hashable, Sendable {
    /// Hex digits in a token.
    public static let hexLength = 32

    public let high: UInt64
    public let low: UInt64

    /// The token whose hex digits start at `digits`; nil unless all 32 are lowercase hex.
    /// Reads no further than the first byte that is not one (a C string's NUL included), so
    /// a shorter C string is safe to pass.
    public init?(hexDigits digits: UnsafePointer<UInt8>) {
        var words: (UInt64, UInt64) = (0, 0)
        for index in 0..<Self.hexLength {
            let byte = digits[index]
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte &- UInt8(ascii: "a") &+ 10
            default: return nil
            }
            if index < 16 {
                words.0 = words.0 << 4 | UInt64(nibble)
            } else {
                words.1 = words.1 << 4 | UInt64(nibble)
            }
        }
        (high, low) = words
    }

    /// The token `text` spells, if it is exactly 32 lowercase hex digits.
    public init?(_ text: some StringProtocol) {
        guard text.utf8.count == Self.hexLength else { return nil }
        var copy = String(text)
        guard let token = copy.withUTF8({ FrameToken(hexDigits: $0.baseAddress!) }) else { return nil }
        self = token
    }

    /// The token's 32 lowercase hex digits.
    public var hexDigits: String {
        func digits(_ word: UInt64) -> String {
            let text = String(word, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }
        return digits(high) + digits(low)
    }
}
