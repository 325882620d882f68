#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// The signage options: `[schedule]` (playlist with item windows, reloads, the screen's
/// hours, proof of play) and `[[displays]]` with their own playlists.
extension ConfigOptions {
    static let scheduleOptions: [ConfigOption] = [
        ConfigOption.section("schedule", "signage: pages in turn, reloads, the screen's hours")
            .summarized(as: "schedule") { configuration, _ in scheduleSummary(configuration.schedule) },
        ConfigOption.seconds("schedule.wake-duration", allowsZero: false, "seconds input keeps the screen on outside its hours") {
            configurator, duration in schedule(configurator) { $0.wakeDuration = duration }
        }.printable { Printed.seconds($0.schedule.wakeDuration) },
        ConfigOption.tables("schedule.playlist",
                 "pages (url), media files (video) and offline-first bundles (bundle) shown in turn, in order; one entry: no rotation; an entry out of its window is skipped",
                 check: entryProblem) {
            configurator, entries in
            schedule(configurator) { schedule in
                schedule.playlist = playlist(entries)
            }
        }.printable { Printed.lines($0.schedule.playlist.map(\.url.absoluteString)) },
    ] + playlistEntryFields(of: "schedule.playlist") { $0.schedule.playlist } + [
        ConfigOption.bool("schedule.preload",
              "load each playlist page out of sight and show it once it has painted; a page that fails leaves the one on screen (default: yes)") {
            configurator, preload in schedule(configurator) { $0.preload = preload }
        }.printable { Printed.bool($0.schedule.preload) },
        ConfigOption.integer("schedule.proof-of-play-days",
                 .integer(expected: "a number of days from 1 to 3650", refusal: "be from 1 to 3650 (days)", where: Schedule.acceptsProofOfPlayDays),
                 "days the daily proof-of-play files (<app data>/proof-of-play/YYYY-MM-DD.jsonl) are kept") {
            configurator, days in schedule(configurator) { $0.proofOfPlayDays = days }
        }.printable { String($0.schedule.proofOfPlayDays) },
        ConfigOption.tables("schedule.reload", "reloads of the page shown", check: { entry in
            (entry["every"] == nil) == (entry["at"] == nil) ? "needs either every (seconds) or at (local times), not both" : nil
        }) { configurator, entries in
            schedule(configurator) { schedule in
                schedule.reloads = entries.compactMap { entry in
                    entry["every"]?.duration.map(ReloadRule.every) ?? entry["at"]?.times.map(ReloadRule.at)
                }
            }
        }.printable { Printed.lines($0.schedule.reloads.map(reloadText)) },
        ConfigOption.field("schedule.reload.every", .seconds(allowsZero: false, zeroMeaning: nil), "seconds between reloads")
            .printable { Printed.lines($0.schedule.reloads.map { if case .every(let every) = $0 { Printed.seconds(every) } else { "" } }) },
        ConfigOption.field("schedule.reload.at", .timesOfDay, #"local times, daily, such as ["03:00"]"#)
            .printable { Printed.lines($0.schedule.reloads.map { if case .at(let times) = $0 { times.map(\.description).joined(separator: ",") } else { "" } }) },
        ConfigOption.tables("schedule.display", required: ["on", "off"], "the screen's hours; outside them it is off", check: { entry in
            entry["on"]?.time == entry["off"]?.time ? "needs different on and off times" : nil
        }) { configurator, entries in
            schedule(configurator) { schedule in
                schedule.screenOnHours = entries.compactMap { entry in
                    guard let on = entry["on"]?.time, let off = entry["off"]?.time else { return nil }
                    return ScreenOnHours(on: on, off: off, days: entry["days"]?.weekdays ?? Set(Weekday.allCases))
                }
            }
        }.printable { Printed.lines($0.schedule.screenOnHours.map { "\($0.on)-\($0.off) \(Printed.days($0.days))" }) },
        ConfigOption.field("schedule.display.on", .timeOfDay, #"local time the screen goes on, such as "07:00""#)
            .printable { Printed.lines($0.schedule.screenOnHours.map(\.on.description)) },
        ConfigOption.field("schedule.display.off", .timeOfDay, #"local time it goes off; earlier than on: the next day"#)
            .printable { Printed.lines($0.schedule.screenOnHours.map(\.off.description)) },
        ConfigOption.field("schedule.display.days", .weekdays, #"the days (default every day), such as ["mon", "tue"]"#)
            .printable { Printed.lines($0.schedule.screenOnHours.map { Printed.days($0.days) }) },

        ConfigOption.tables("displays", required: ["monitor"], "one fullscreen window per monitor, each with its own page") {
            configurator, entries in
            configurator.preference(\.displays, entries.compactMap { entry in
                entry["monitor"]?.monitor.map {
                    DisplaySetting(monitor: $0, startURL: entry["start-url"]?.url, playlist: playlist(entry["playlist"]?.entries ?? []))
                }
            })
        }.summarized(as: "displays") { configuration, _ in displaysSummary(configuration) }
            .printable { Printed.lines($0.displays.map(\.monitor.description)) },
        ConfigOption.field("displays.monitor", .monitor, #"the monitor: its index from 0, or its connector such as "HDMI-1""#)
            .printable { Printed.lines($0.displays.map(\.monitor.description)) },
        ConfigOption.field("displays.start-url", .url, "its page (default: the start page; it goes through the navigation chain)")
            .printable { Printed.lines($0.displays.map { Printed.url($0.startURL) }) },
        // Read by [[displays]]'s own apply, table by table.
        ConfigOption.tables("displays.playlist", "this display's own playlist, as [[schedule.playlist]]",
                check: entryProblem) { configurator, _ in
            configurator
        }.printable { Printed.lines($0.displays.flatMap(\.playlist).map(\.url.absoluteString)) },
    ] + playlistEntryFields(of: "displays.playlist") { $0.displays.flatMap(\.playlist) }

    /// The keys of one playlist entry, `[[schedule.playlist]]`'s and `[[displays.playlist]]`'s alike.
    /// `entries`: the built entries of every such table, whose keys' values are printed one a line.
    static func playlistEntryFields(of table: String,
                                    entries: @escaping @Sendable (Configuration) -> [PlaylistEntry]) -> [ConfigOption] {
        let fields: [ConfigOption] = [
            .field("\(table).url", .url, "the page (it goes through the navigation chain)"),
            .field("\(table).video", .url, "instead of url: a video (or audio) file played full-screen, through the navigation chain too")
                .example(#""https://cms.example/lobby.webm""#),
            .field("\(table).bundle", bundleURL,
                   "instead of url: a zip (or tar) of a site, synced into the app's data folder and shown from there, also offline")
                .example(#""https://cms.example/lobby.zip""#),
            .field("\(table).entry", bundleEntry, "the bundle's page, a path inside it (default: index.html)")
                .example(#""screens/lobby.html""#),
            .field("\(table).sync-every", .seconds(allowsZero: false, zeroMeaning: nil),
                   "seconds between the bundle's syncs, at least 10 (default: 300)"),
            .field("\(table).sha256", bundleSHA256, "the bundle's expected SHA-256: another archive is not taken (default: any)")
                .example(#""9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08""#),
            .field("\(table).loop", .bool, "a video starts again at its end until its duration is over (default: false)"),
            .field("\(table).duration", .seconds(allowsZero: false, zeroMeaning: nil),
                   "seconds it stays (a video without it: until it ends, 6 hours at most)"),
            .field("\(table).days", .weekdays, #"the days its window opens (default every day), such as ["sat", "sun"]"#),
            .field("\(table).from", .timeOfDay, #"local time its window opens each day, such as "11:00" (default: midnight)"#),
            .field("\(table).until", .timeOfDay, #"local time its window closes; not later than from: the next day (default: midnight)"#),
            .field("\(table).start-date", localDate, #"the first day it is shown, "YYYY-MM-DD" (default: no limit)"#)
                .example(#""2026-12-01""#),
            .field("\(table).end-date", localDate, #"the last day it is shown, "YYYY-MM-DD" (default: no limit)"#)
                .example(#""2026-12-24""#),
        ]
        return fields.map { field in
            let name = field.name
            return field.printable { Printed.lines(entries($0).map { Printed.playlistField(name, of: $0) }) }
        }
    }

    private static func reloadText(_ rule: ReloadRule) -> String {
        switch rule {
        case .every(let every): "every \(Printed.seconds(every))"
        case .at(let times): "at " + times.map(\.description).joined(separator: ",")
        }
    }

    /// A bundle's archive URL.
    private static let bundleURL = OptionType.string(
        expected: #"an https URL such as "https://cms.example/lobby.zip" (http only to 127.0.0.1, ::1 or localhost)"#,
        refusal: "be an https URL (http only to a loopback host)"
    ) { ConfigFileDecoder.parseURL($0).map(BundleSource.acceptsArchiveURL) ?? false }
    private static let bundleEntry = OptionType.string(
        expected: #"a path inside the bundle such as "index.html" (no leading /, no .. or backslash)"#,
        refusal: "be a relative path inside the bundle (no leading /, no .. or backslash)", where: BundleSource.acceptsEntry)
    private static let bundleSHA256 = OptionType.string(expected: "64 hexadecimal digits", refusal: "be a SHA-256 of 64 hexadecimal digits",
                                                        where: BundleSource.acceptsSHA256)

    /// A date as a file writes it.
    private static let localDate = OptionType.string(expected: LocalDate.expectation, refusal: "be a date \"YYYY-MM-DD\" that exists",
                                                     where: { LocalDate($0) != nil })

    /// What is wrong with a playlist entry: what it shows, how long, its window; or nil.
    private static func entryProblem(_ entry: [String: OptionValue]) -> String? {
        if let problem = bundleProblem(entry) { return problem }
        if entry["bundle"] != nil { return entry["duration"] == nil ? "needs duration (seconds the page stays)" : itemWindowProblem(entry) }
        switch (entry["url"], entry["video"]) {
        case (nil, nil): return "needs url (a page), video (a media file) or bundle (a zip of a site)"
        case (.some, .some): return "has both url and video: an entry shows one of them"
        case (.some, nil) where entry["duration"] == nil: return "needs duration (seconds the page stays)"
        case (.some, nil) where entry["loop"] != nil: return "has loop, which only a video entry takes"
        case (nil, .some) where entry["loop"]?.bool == true && entry["duration"] == nil:
            return "loops its video and needs duration (seconds before the next entry)"
        default: return itemWindowProblem(entry)
        }
    }

    /// What is wrong with a playlist entry's bundle keys, or nil.
    private static func bundleProblem(_ entry: [String: OptionValue]) -> String? {
        guard entry["bundle"] != nil else {
            let strays = ["entry", "sync-every", "sha256"].filter { entry[$0] != nil }
            return strays.isEmpty ? nil : "has \(strays.joined(separator: ", ")) and needs bundle (a zip of a site), whose keys they are"
        }
        if entry["url"] != nil || entry["video"] != nil { return "has bundle and url or video: an entry shows one of them" }
        if entry["loop"] != nil { return "has loop, which only a video entry takes" }
        if let every = entry["sync-every"]?.duration, every < BundleSource.shortestSyncInterval {
            return "syncs its bundle more often than every \(BundleSource.shortestSyncInterval.components.seconds) seconds (sync-every)"
        }
        return nil
    }

    /// What is wrong with a playlist entry's window, or nil.
    static func itemWindowProblem(_ entry: [String: OptionValue]) -> String? {
        if let from = entry["from"]?.time, let until = entry["until"]?.time, from == until {
            return "needs different from and until times (leave both out for the whole day)"
        }
        if let start = entry["start-date"]?.string.flatMap(LocalDate.init), let end = entry["end-date"]?.string.flatMap(LocalDate.init),
           end < start {
            return "has an end-date (\(end)) before its start-date (\(start))"
        }
        return nil
    }

    private static func schedule(_ configurator: Configurator, _ change: (inout Schedule) -> Void) -> Configurator {
        var schedule = configurator.preferences.schedule
        change(&schedule)
        return configurator.preference(\.schedule, schedule)
    }

    private static func displaysSummary(_ configuration: Configuration) -> String? {
        guard !configuration.displays.isEmpty else { return nil }
        return configuration.displays.map { display in
            "monitor \(display.monitor): \((display.startURL ?? configuration.startURL)?.absoluteString ?? "-")"
                + (display.playlist.isEmpty ? "" : " (\(display.playlist.count) page(s) in turn)")
        }.joined(separator: "; ")
    }

    /// A playlist's tables (`[[schedule.playlist]]`, `[[displays.playlist]]`), checked already.
    static func playlist(_ entries: [[String: OptionValue]]) -> [PlaylistEntry] {
        entries.compactMap { entry in
            let video = entry["video"]?.url
            let bundle = entry["bundle"]?.string.flatMap(ConfigFileDecoder.parseURL).map { archive in
                BundleSource(archiveURL: archive, entry: entry["entry"]?.string ?? BundleSource.defaultEntry,
                             syncInterval: entry["sync-every"]?.duration ?? BundleSource.defaultSyncInterval,
                             sha256: entry["sha256"]?.string)
            }
            guard let url = bundle?.pageURL ?? entry["url"]?.url ?? video,
                  let duration = entry["duration"]?.duration ?? (video == nil ? nil : MediaPlayback.longestUnreported)
            else { return nil }
            let window = ItemWindow(days: entry["days"]?.weekdays ?? Set(Weekday.allCases), from: entry["from"]?.time,
                                    until: entry["until"]?.time, startDate: entry["start-date"]?.string.flatMap(LocalDate.init),
                                    endDate: entry["end-date"]?.string.flatMap(LocalDate.init))
            return PlaylistEntry(url: url, duration: duration, window: window,
                                 media: video == nil ? nil : MediaPlayback(loops: entry["loop"]?.bool ?? false), bundle: bundle)
        }
    }

    private static func scheduleSummary(_ schedule: Schedule) -> String? {
        guard !schedule.isEmpty else { return nil }
        var parts: [String] = []
        if !schedule.playlist.isEmpty {
            let windowed = schedule.playlist.filter { !$0.window.isAlways }.count
            parts.append("\(schedule.playlist.count) page(s) in turn" + (windowed > 0 ? " (\(windowed) with a window)" : ""))
        }
        if !schedule.reloads.isEmpty { parts.append("\(schedule.reloads.count) reload rule(s)") }
        if !schedule.screenOnHours.isEmpty { parts.append("screen hours \(schedule.screenOnHours.map { "\($0.on)–\($0.off)" }.joined(separator: ", "))") }
        return parts.joined(separator: "; ")
    }
}
