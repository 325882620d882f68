/// An app's version as updates compare them: dot-separated numbers (`1.10.0`), optionally
/// followed by `-` and a pre-release label (`1.2.0-beta.2`), which comes before the release.
/// Compared number by number (1.10 is newer than 1.9), a missing number counting as 0.
public struct UpdateVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let numbers: [Int]
    public let preRelease: [String]
    public let description: String

    public init?(_ text: String) {
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let core = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard !core.isEmpty, core.count <= 4,
              core.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.utf8.allSatisfy { (48...57).contains($0) } })
        else { return nil }
        let label = parts.count == 2 ? parts[1].split(separator: ".", omittingEmptySubsequences: false).map(String.init) : []
        guard parts.count == 1 || (!label.isEmpty && label.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(Self.isLabelByte) })) else { return nil }
        numbers = core.map { Int($0)! }
        preRelease = label
        description = text
    }

    public static func < (lhs: UpdateVersion, rhs: UpdateVersion) -> Bool {
        for index in 0..<max(lhs.numbers.count, rhs.numbers.count) {
            let left = index < lhs.numbers.count ? lhs.numbers[index] : 0
            let right = index < rhs.numbers.count ? rhs.numbers[index] : 0
            if left != right { return left < right }
        }
        switch (lhs.preRelease.isEmpty, rhs.preRelease.isEmpty) {
        case (true, _): return false
        case (false, true): return true
        case (false, false): return lhs.preRelease.lexicographicallyPrecedes(rhs.preRelease, by: Self.labelPrecedes)
        }
    }

    public static func == (lhs: UpdateVersion, rhs: UpdateVersion) -> Bool {
        !(lhs < rhs) && !(rhs < lhs)
    }

    public func hash(into hasher: inout Hasher) {
        var trimmed = numbers
        while trimmed.last == 0 { trimmed.removeLast() }
        hasher.combine(trimmed)
        hasher.combine(preRelease)
    }

    /// Numeric labels compare as numbers and come before words (SemVer's rule).
    private static func labelPrecedes(_ left: String, _ right: String) -> Bool {
        switch (Int(left), Int(right)) {
        case let (l?, r?): l < r
        case (_?, nil): true
        case (nil, _?): false
        case (nil, nil): left < right
        }
    }

    private static func isLabelByte(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
    }
}
