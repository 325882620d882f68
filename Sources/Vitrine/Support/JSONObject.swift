/// A JSON object's members in order: what JavaScript keeps (insertion order) and what
/// the page gets back.
///
/// Looked up by key like a dictionary (`object["key"]`, also to set or remove), iterated
/// in order as `(key, value)` pairs, written as a dictionary literal. Setting a key that
/// exists keeps its place, as in JavaScript. Equality is JSON's: the same members, in any
/// order (compare `keys`, or `jsonText`, where the order matters).
public struct JSONObject: Sendable, Hashable {
    public private(set) var keys: [String] = []
    public private(set) var values: [JSONValue] = []
    /// Each key's place in `keys`.
    private var places: [String: Int] = [:]

    public init() {}

    /// Members in the given order; a repeated key keeps its first place and its last value
    /// (as `JSON.parse` does).
    public init<Members: Sequence>(_ members: Members) where Members.Element == (String, JSONValue) {
        for (key, value) in members { self[key] = value }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    public subscript(key: String) -> JSONValue? {
        get { places[key].map { values[$0] } }
        set {
            if let place = places[key] {
                if let newValue {
                    values[place] = newValue
                } else {
                    keys.remove(at: place)
                    values.remove(at: place)
                    places[key] = nil
                    for index in place..<keys.count { places[keys[index]] = index }
                }
            } else if let newValue {
                places[key] = keys.count
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    public static func == (left: JSONObject, right: JSONObject) -> Bool {
        left.count == right.count && zip(left.keys, left.values).allSatisfy { right[$0] == $1 }
    }

    /// Independent of the order, as `==` is.
    public func hash(into hasher: inout Hasher) {
        var members = 0
        for (key, value) in zip(keys, values) {
            var member = Hasher()
            member.combine(key)
            member.combine(value)
            members ^= member.finalize()
        }
        hasher.combine(count)
        hasher.combine(members)
    }
}

extension JSONObject: Sequence {
    public func makeIterator() -> some IteratorProtocol<(key: String, value: JSONValue)> {
        zip(keys, values).lazy.map { (key: $0, value: $1) }.makeIterator()
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}
