#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Encodes an `Encodable` into a `JSONValue` keeping object members in the order the value
/// encodes them (a struct's synthesized `encode(to:)`: declaration order).
///
/// Why not `JSONEncoder`: on Linux it writes an object's keys in its dictionary's order
/// (neither declared nor sorted, checked with swift 6.3), and a typed strategy's answer
/// should reach the page as its `Response` struct reads.
public enum JSONValueEncoder {
    public static func encode<Value: Encodable>(_ value: Value) throws -> JSONValue {
        let root = EncodedNode()
        try root.encode(value, codingPath: [])
        return root.value
    }
}

/// One value being encoded: filled by the container its encoder hands out.
final class EncodedNode {
    private enum Content {
        case unset
        case value(JSONValue)
        case object([(key: String, node: EncodedNode)])
        case array([EncodedNode])
    }

    private var content = Content.unset

    var value: JSONValue {
        switch content {
        case .unset: return .object(JSONObject([]))
        case .value(let value): return value
        case .object(let members): return .object(JSONObject(members.map { ($0.key, $0.node.value) }))
        case .array(let nodes): return .array(nodes.map(\.value))
        }
    }

    func set(_ value: JSONValue) { content = .value(value) }

    /// The node of member `key`, made an object first if it is not one.
    func member(_ key: String) -> EncodedNode {
        var members: [(key: String, node: EncodedNode)] = []
        if case .object(let existing) = content { members = existing }
        if let found = members.first(where: { $0.key == key }) { return found.node }
        let node = EncodedNode()
        members.append((key, node))
        content = .object(members)
        return node
    }

    func makeObject() {
        if case .object = content { return }
        content = .object([])
    }

    /// A new element at the end, made an array first if it is not one.
    func appendElement() -> EncodedNode {
        var nodes: [EncodedNode] = []
        if case .array(let existing) = content { nodes = existing }
        let node = EncodedNode()
        nodes.append(node)
        content = .array(nodes)
        return node
    }

    func makeArray() {
        if case .array = content { return }
        content = .array([])
    }

    var count: Int {
        if case .array(let nodes) = content { return nodes.count }
        return 0
    }

    /// Encodes `value` here: JSON's own types directly, anything else through its `encode(to:)`.
    func encode<Value: Encodable>(_ value: Value, codingPath: [any CodingKey]) throws {
        switch value {
        case let json as JSONValue: set(json)
        case let string as String: set(.string(string))
        case let bool as Bool: set(.bool(bool))
        case let double as Double: try setNumber(double, codingPath: codingPath)
        case let float as Float: try setNumber(Double(float), codingPath: codingPath)
        case let url as URL: set(.string(url.absoluteString))
        default: try value.encode(to: NodeEncoder(node: self, codingPath: codingPath))
        }
    }

    func setNumber(_ number: Double, codingPath: [any CodingKey]) throws {
        guard number.isFinite else {
            throw EncodingError.invalidValue(number, .init(codingPath: codingPath, debugDescription: "JSON has no \(number)"))
        }
        set(.number(number))
    }
}

private struct NodeEncoder: Encoder {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedNodeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleNodeContainer(node: node, codingPath: codingPath) }
}

/// An integer index in a coding path.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodedNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).set(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.member(key.stringValue).encode(value, codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = node.member(key.stringValue)
        child.makeObject()
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.member(key.stringValue)
        child.makeArray()
        return UnkeyedNodeContainer(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { NodeEncoder(node: node.member("super"), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    mutating func encodeNil() throws { node.appendElement().set(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [IndexKey(count)]
        try node.appendElement().encode(value, codingPath: path)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = codingPath + [IndexKey(count)]
        let child = node.appendElement()
        child.makeObject()
        return KeyedEncodingContainer(KeyedNodeContainer<NestedKey>(node: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = codingPath + [IndexKey(count)]
        let child = node.appendElement()
        child.makeArray()
        return UnkeyedNodeContainer(node: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let path = codingPath + [IndexKey(count)]
        return NodeEncoder(node: node.appendElement(), codingPath: path)
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: EncodedNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.set(.null) }
    mutating func encode(_ value: Bool) throws { node.set(.bool(value)) }
    mutating func encode(_ value: String) throws { node.set(.string(value)) }
    mutating func encode(_ value: Double) throws { try node.setNumber(value, codingPath: codingPath) }
    mutating func encode(_ value: Float) throws { try node.setNumber(Double(value), codingPath: codingPath) }
    mutating func encode(_ value: Int) throws { node.set(.number(Double(value))) }
    mutating func encode(_ value: Int8) throws { node.set(.number(Double(value))) }
    mutating func encode(_ value: Int16) throws { node.set(.number(Double(value))) }
    mutating func encode(_ value: Int32) throws { node.set(.number(Double(value))) }
    mutating func encode(_ value: Int64) throws { node.set(.number(Double(value))) }
    mutating func encode(_ value: UInt) throws { node.set(.number(Double(value))) }
    mutating func encode(_ value: UInt8) throws { node.set(.number(Double(value))) }
    mutating func encode(_ value: UInt16) throws { node.set(.number(Double(value))) }
    mutating func encode(_ value: UInt32) throws { node.set(.number(Double(value))) }
    mutating func encode(_ value: UInt64) throws { node.set(.number(Double(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { try node.encode(value, codingPath: codingPath) }
}
