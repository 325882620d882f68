#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// How an option's effective value is written (`ConfigOption.printed`): as a file writes
/// it, so that a script can compare it with one, and a list one item a line.
enum Printed {
    static func bool(_ value: Bool) -> String { value ? "true" : "false" }

    /// `30`, `0.5`: seconds as a file gives them.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return attoseconds == 0 ? String(seconds) : String(duration.inSeconds)
    }

    static func lines(_ items: [String]) -> String { items.joined(separator: "\n") }

    /// `mon,tue`: in the week's order.
    static func days(_ days: Set<Weekday>) -> String {
        Weekday.allCases.filter(days.contains).map(\.rawValue).joined(separator: ",")
    }

    /// `a4`, `80x200mm`: as a file names the paper.
    static func paperSize(_ size: PaperSize) -> String {
        switch size {
        case .named(let gtkName): PaperSize.names.first { $0.value == gtkName }?.key ?? gtkName
        case .custom(let width, let height): "\(millimetres(width))x\(millimetres(height))mm"
        }
    }

    static func millimetres(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }

    /// The CUPS queue as `printer` names it; nil when jobs go to a file.
    static func queue(_ destination: PrintDestination) -> String? {
        switch destination {
        case .systemDefault: "default"
        case .printer(let queue): queue
        case .file: nil
        }
    }

    /// `https://a.example = camera,microphone`: one origin's grants.
    static func grant(_ origin: Origin, _ names: [String]) -> String { "\(origin) = " + names.joined(separator: ",") }

    static func url(_ url: URL?) -> String { url?.absoluteString ?? "" }

    /// A key of one playlist entry (`[[schedule.playlist]]`'s `name`) as the built entry has
    /// it; empty where the entry has none.
    static func playlistField(_ name: String, of entry: PlaylistEntry) -> String {
        let isPage = entry.media == nil && entry.bundle == nil
        return switch name {
        case "url": isPage ? entry.url.absoluteString : ""
        case "video": entry.media == nil ? "" : entry.url.absoluteString
        case "bundle": entry.bundle?.archiveURL.absoluteString ?? ""
        case "entry": entry.bundle?.entry ?? ""
        case "sync-every": entry.bundle.map { seconds($0.syncInterval) } ?? ""
        case "sha256": entry.bundle?.sha256 ?? ""
        case "loop": entry.media.map { bool($0.loops) } ?? ""
        case "duration": seconds(entry.duration)
        case "days": days(entry.window.days)
        case "from": entry.window.from?.description ?? ""
        case "until": entry.window.until?.description ?? ""
        case "start-date": entry.window.startDate?.description ?? ""
        case "end-date": entry.window.endDate?.description ?? ""
        default: ""
        }
    }
}
