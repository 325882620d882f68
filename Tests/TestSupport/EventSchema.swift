import Foundation

/// The events log's lines checked against `Resources/events.schema.json`, the one written
/// description of them.
///
/// A validator for the part of JSON Schema (2020-12) the schema uses: `type`, `const`,
/// `enum`, `properties`, `required`, `additionalProperties` (false or a schema), `oneOf`,
/// `minimum` and local `$ref`s into `$defs`. Any other keyword makes validation throw, so
/// the schema cannot quietly start saying more than is checked.
public enum EventSchema {
    /// Why a line does not match.
    public struct Violation: Error, CustomStringConvertible {
        public let description: String
    }

    /// The schema file in the source tree.
    public static let path = Documentation.root.appendingPathComponent("Resources/events.schema.json").path

    /// The parsed schema.
    public static let schema: JSON = {
        do {
            return try JSON.parse(Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            fatalError("cannot read the events schema at \(path): \(error)")
        }
    }()

    /// Throws a `Violation` unless `line` (one JSON object, without its newline) matches.
    public static func validate(line: String) throws {
        let value: JSON
        do {
            value = try JSON.parse(Data(line.utf8))
        } catch {
            throw Violation(description: "not JSON: \(line)")
        }
        try check(value, against: schema, at: "$")
    }

    /// The values an enumeration in `$defs` allows (`nativeAction`, `loadEvent`, …).
    public static func enumeration(_ name: String) -> [String] {
        guard case .object(let root) = schema, case .object(let defs)? = root["$defs"],
              case .object(let def)? = defs[name], case .array(let values)? = def["enum"] else { return [] }
        return values.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    /// Keywords that describe rather than constrain (`x-redacted`: the field is written
    /// redacted, checked against `ContainerEvent.redacted` by the core tests).
    private static let annotations: Set<String> = ["$schema", "$id", "$defs", "title", "description", "x-redacted"]

    /// The fields of event form `name` (`load`, `native`, …) that the schema marks `x-redacted`.
    public static func redactedFields(of name: String) -> Set<String> {
        guard case .object(let root) = schema, case .object(let defs)? = root["$defs"], case .object(let def)? = defs[name],
              case .object(let properties)? = def["properties"] else { return [] }
        return Set(properties.compactMap { name, rule in
            if case .object(let members) = rule, members["x-redacted"] == .bool(true) { name } else { nil }
        })
    }

    private static func check(_ value: JSON, against schema: JSON, at path: String) throws {
        guard case .object(let rules) = schema else {
            if schema == .bool(true) { return }
            throw Violation(description: "\(path): nothing is allowed here")
        }
        for (keyword, rule) in rules where !annotations.contains(keyword) {
            switch keyword {
            case "$ref":
                try check(value, against: resolve(rule), at: path)
            case "type":
                guard case .string(let type) = rule, value.isOf(type: type) else {
                    throw Violation(description: "\(path): \(value) is not of type \(rule)")
                }
            case "const":
                guard value == rule else { throw Violation(description: "\(path): \(value) is not \(rule)") }
            case "enum":
                guard case .array(let allowed) = rule, allowed.contains(value) else {
                    throw Violation(description: "\(path): \(value) is not one of the allowed values")
                }
            case "minimum":
                guard case .number(let minimum) = rule, case .number(let number) = value else { continue }
                guard number >= minimum else { throw Violation(description: "\(path): \(number) < \(minimum)") }
            case "required":
                guard case .object(let members) = value, case .array(let names) = rule else { continue }
                for case .string(let name) in names where members[name] == nil {
                    throw Violation(description: "\(path): '\(name)' is missing")
                }
            case "properties":
                guard case .object(let members) = value, case .object(let properties) = rule else { continue }
                for (name, member) in members {
                    if let property = properties[name] { try check(member, against: property, at: "\(path).\(name)") }
                }
            case "additionalProperties":
                guard case .object(let members) = value else { continue }
                let declared: Set<String> = if case .object(let properties)? = rules["properties"] { Set(properties.keys) } else { [] }
                for (name, member) in members where !declared.contains(name) {
                    if rule == .bool(false) { throw Violation(description: "\(path): '\(name)' is not allowed") }
                    try check(member, against: rule, at: "\(path).\(name)")
                }
            case "items":
                guard case .array(let elements) = value else { continue }
                for (index, element) in elements.enumerated() { try check(element, against: rule, at: "\(path)[\(index)]") }
            case "oneOf":
                guard case .array(let options) = rule else { continue }
                var failures: [String] = []
                for option in options {
                    do { try check(value, against: option, at: path) } catch { failures.append("\(error)") }
                }
                guard options.count - failures.count == 1 else {
                    throw Violation(description: "\(path): matches \(options.count - failures.count) of the forms, not one: "
                                    + failures.joined(separator: "; "))
                }
            default:
                throw Violation(description: "the schema uses '\(keyword)', which this validator does not check")
            }
        }
    }

    private static func resolve(_ reference: JSON) throws -> JSON {
        guard case .string(let text) = reference, text.hasPrefix("#/") else {
            throw Violation(description: "only local references are supported: \(reference)")
        }
        var node = schema
        for part in text.dropFirst(2).split(separator: "/") {
            guard case .object(let members) = node, let next = members[String(part)] else {
                throw Violation(description: "unresolved reference \(text)")
            }
            node = next
        }
        return node
    }
}

extension EventSchema {
    /// A JSON value as JSON has them (a number is never a boolean).
    public enum JSON: Equatable, Decodable, CustomStringConvertible, Sendable {
        case null, bool(Bool), number(Double), string(String), array([JSON]), object([String: JSON])

        public static func parse(_ data: Data) throws -> JSON {
            try JSONDecoder().decode(JSON.self, from: data)
        }

        public init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() { self = .null }
            else if let bool = try? single.decode(Bool.self) { self = .bool(bool) }
            else if let number = try? single.decode(Double.self) { self = .number(number) }
            else if let string = try? single.decode(String.self) { self = .string(string) }
            else if let array = try? single.decode([JSON].self) { self = .array(array) }
            else { self = .object(try single.decode([String: JSON].self)) }
        }

        func isOf(type: String) -> Bool {
            switch (type, self) {
            case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null), ("number", .number):
                true
            case ("integer", .number(let number)):
                number.rounded() == number
            default:
                false
            }
        }

        public var description: String {
            switch self {
            case .null: "null"
            case .bool(let bool): "\(bool)"
            case .number(let number): "\(number)"
            case .string(let string): "\"\(string)\""
            case .array(let values): "[\(values.map(\.description).joined(separator: ","))]"
            case .object(let members): "{\(members.keys.sorted().joined(separator: ","))}"
            }
        }
    }
}
