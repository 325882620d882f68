#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A zone's position or size along one axis: pixels, or a percentage of the window's
/// width (x, width) or height (y, height).
public enum ZoneLength: Sendable, Equatable, CustomStringConvertible {
    case pixels(Int)
    /// 0 to 100 (fractions allowed: "33.5%").
    case percent(Double)

    public static let expectation = #"a number of pixels from 0, or a percentage such as "25%""#

    /// Pixels from 0.
    public init?(pixels: Int) {
        guard pixels >= 0 else { return nil }
        self = .pixels(pixels)
    }

    /// `"25%"`, `"33.5%"`: from 0 to 100.
    public init?(_ text: String) {
        guard text.hasSuffix("%"), let value = Double(text.dropLast()), value.isFinite, (0...100).contains(value),
              text.first?.isNumber == true else { return nil }
        self = .percent(value)
    }

    /// In pixels, along an axis `extent` pixels long.
    func pixels(of extent: Int) -> Int {
        switch self {
        case .pixels(let pixels): pixels
        case .percent(let percent): Int((Double(extent) * percent / 100).rounded())
        }
    }

    /// Where a zone that starts at `start` and is `self` long ends: two percentages add
    /// before rounding, so "25%" + "75%" ends exactly at the window's edge.
    func end(from start: ZoneLength, along extent: Int) -> Int {
        if case .percent(let a) = start, case .percent(let b) = self { return ZoneLength.percent(a + b).pixels(of: extent) }
        return start.pixels(of: extent) + pixels(of: extent)
    }

    public var description: String {
        switch self {
        case .pixels(let pixels): "\(pixels)"
        case .percent(let percent): percent == percent.rounded() ? "\(Int(percent))%" : "\(percent)%"
        }
    }
}
