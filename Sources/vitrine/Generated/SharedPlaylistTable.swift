import VitrineConfigFile

/// The playlist's keys are one table: `[[displays.playlist]]` and `[[zones.playlist]]` take
/// `[[schedule.playlist]]`'s keys (`ConfigOptions.playlistEntryFields`), so the references
/// list them once, under `[[schedule.playlist]]`, and the other tables point there.
enum SharedPlaylistTable {
    static let owner = "schedule.playlist"
    static let sharers = ["displays.playlist", "zones.playlist"]

    /// Whether `key` is a field of a table that shares the playlist's keys.
    static func isSharedField(_ key: String) -> Bool {
        sharers.contains { key.hasPrefix($0 + ".") }
    }

    /// For a sharing table's own entry: where its keys are described, and their names.
    static func note(for key: String, linking: (String) -> String) -> String? {
        guard sharers.contains(key) else { return nil }
        let fields = ConfigFile.keyDescriptions.map(\.key).filter { $0.hasPrefix(owner + ".") }.map { $0.dropFirst(owner.count + 1) }
        return "Its keys, defaults and checks are those of \(linking("[[\(owner)]]")): " + fields.joined(separator: ", ") + "."
    }
}
