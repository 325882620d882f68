#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A button of a desktop notification (`actions: [{id, label}]`): the page hears its `id`
/// when the user presses it. Read strictly, each fault named by its field: an unknown
/// field, an id outside `[A-Za-z0-9._-]` or too long, an empty or overlong label, a label
/// with control characters.
public struct NotificationAction: Decodable, Sendable, Equatable {
    /// The most buttons a notification has: what most notification servers show.
    public static let maximumCount = 3
    /// The longest id, in characters (all ASCII).
    public static let maximumIDLength = 32
    /// The longest label, in characters.
    public static let maximumLabelLength = 64

    public var id: String
    public var label: String

    public init(id: String, label: String) throws(ScriptMessageError) {
        if let fault = Self.fault(id: id) { throw ScriptMessageError("notification: an action's id \(fault)") }
        if let fault = Self.fault(label: label) { throw ScriptMessageError("notification: an action's label \(fault)") }
        self.id = id
        self.label = label
    }

    private enum Field: String, CodingKey, CaseIterable { case id, label }

    /// Any key of the object, known or not.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let all = try decoder.container(keyedBy: AnyKey.self)
        if let unknown = all.allKeys.first(where: { Field(rawValue: $0.stringValue) == nil }) {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath + [unknown],
                debugDescription: "an action has only \"id\" and \"label\""))
        }
        let fields = try decoder.container(keyedBy: Field.self)
        let id = try fields.decode(String.self, forKey: .id)
        if let fault = Self.fault(id: id) {
            throw DecodingError.dataCorruptedError(forKey: .id, in: fields, debugDescription: "it \(fault)")
        }
        let label = try fields.decode(String.self, forKey: .label)
        if let fault = Self.fault(label: label) {
            throw DecodingError.dataCorruptedError(forKey: .label, in: fields, debugDescription: "it \(fault)")
        }
        self.id = id
        self.label = label
    }

    /// What is wrong with `id`, or nil.
    static func fault(id: String) -> String? {
        let allowed = !id.isEmpty && id.utf8.count <= maximumIDLength && id.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"): true
            default: false
            }
        }
        return allowed ? nil : "is 1 to \(maximumIDLength) of A-Z a-z 0-9 . _ -"
    }

    /// What is wrong with `label`, or nil.
    static func fault(label: String) -> String? {
        let allowed = !label.isEmpty && label.count <= maximumLabelLength
            && !label.unicodeScalars.contains { $0.properties.generalCategory == .control }
        return allowed ? nil : "is 1 to \(maximumLabelLength) characters without control characters"
    }

    /// `actions` as a notification may carry them: at most `maximumCount`, each id once.
    public static func checked(_ actions: [NotificationAction]) throws(ScriptMessageError) -> [NotificationAction] {
        guard actions.count <= maximumCount else {
            throw ScriptMessageError("notification: show: field \"actions\" holds at most \(maximumCount) actions, got \(actions.count)")
        }
        var seen: Set<String> = []
        for (index, action) in actions.enumerated() where !seen.insert(action.id).inserted {
            throw ScriptMessageError("notification: show: field \"actions[\(index)].id\" repeats \"\(action.id)\"")
        }
        return actions
    }
}
