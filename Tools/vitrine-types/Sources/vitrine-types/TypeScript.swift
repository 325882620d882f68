import SwiftSyntax

/// Swift types as the TypeScript of the JSON they decode from and encode to (Foundation's
/// coders, as the bridge uses them).
struct TypeScript {
    let declarations: StrategyDeclarations
    /// The strategy the types belong to: its nested types are found first.
    let scope: String

    /// Which side: a request's optional field may be absent or null, a response's is absent.
    enum Side { case payload, result }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
    }

    func render(_ type: TypeSyntax, side: Side, depth: Int = 0) -> String {
        guard depth < 16 else { return "VitrineJSON" } // a recursive type: JSON, unchecked
        if let optional = type.as(OptionalTypeSyntax.self) {
            return render(optional.wrappedType, side: side, depth: depth) + " | null"
        }
        if let array = type.as(ArrayTypeSyntax.self) {
            return element(render(array.element, side: side, depth: depth + 1)) + "[]"
        }
        if let dictionary = type.as(DictionaryTypeSyntax.self) {
            return "{ [key: string]: " + render(dictionary.value, side: side, depth: depth + 1) + " }"
        }
        if let identifier = type.as(IdentifierTypeSyntax.self), let generics = identifier.genericArgumentClause {
            let arguments = generics.arguments.compactMap { $0.argument.as(TypeSyntax.self) }
            switch (identifier.name.text, arguments.count) {
            case ("Optional", 1): return render(arguments[0], side: side, depth: depth) + " | null"
            case ("Array", 1), ("Set", 1): return element(render(arguments[0], side: side, depth: depth + 1)) + "[]"
            case ("Dictionary", 2): return "{ [key: string]: " + render(arguments[1], side: side, depth: depth + 1) + " }"
            // Bytes posted whole (a Uint8Array or ArrayBuffer), or the JSON request.
            case ("BytesOr", 1): return "VitrineBytes | " + render(arguments[0], side: side, depth: depth + 1)
            default: return "VitrineJSON"
            }
        }
        let name = type.trimmedDescription
        switch name {
        case "String", "Character", "URL", "UUID", "Substring": return "string"
        case "Bool": return "boolean"
        case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
             "Double", "Float", "Float32", "Float64", "Decimal", "Date", "TimeInterval":
            return "number"
        case "JSONValue": return "VitrineJSON"
        default: break
        }
        // The strategy's own `Request` first, in every table, before another's of that name.
        for key in [scope + "." + name, name] {
            if let declared = declared(key, side: side, depth: depth) { return declared }
        }
        return "VitrineJSON" // a type these sources do not declare: any JSON
    }

    /// The type declared as `key` (an enum, an alias, an `ActionRequest`, a record), rendered.
    private func declared(_ key: String, side: Side, depth: Int) -> String? {
        if let values = declarations.enums[key] { return values.joined(separator: " | ") }
        if let aliased = declarations.aliases[key] { return render(aliased, side: side, depth: depth + 1) }
        if let cases = declarations.actionRequests[key] {
            return cases.map { actionObject($0, side: side, depth: depth) }.joined(separator: " | ")
        }
        if let record = declarations.records[key] { return object(record, side: side, depth: depth) }
        return nil
    }

    /// `{ action: "NAME"; …fields }`: an `ActionRequest` case as the page posts it.
    private func actionObject(_ action: StrategyDeclarations.ActionCase, side: Side, depth: Int) -> String {
        let fields = StrategyDeclarations.Record(properties: action.fields)
        let rest = fields.properties.isEmpty ? "" : "; " + self.fields(fields, side: side, depth: depth).joined(separator: "; ")
        return "{ action: " + Self.quoted(action.action) + rest + " }"
    }

    private func object(_ record: StrategyDeclarations.Record, side: Side, depth: Int) -> String {
        guard !record.properties.isEmpty else { return "{}" }
        return "{ " + fields(record, side: side, depth: depth).joined(separator: "; ") + " }"
    }

    private func fields(_ record: StrategyDeclarations.Record, side: Side, depth: Int) -> [String] {
        record.properties.map { property -> String in
            let key = property.name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } ? property.name : Self.quoted(property.name)
            if let wrapped = Self.optionalWrapped(property.type) {
                let value = render(wrapped, side: side, depth: depth + 1)
                return key + "?: " + (side == .payload ? value + " | null" : value)
            }
            return key + ": " + render(property.type, side: side, depth: depth + 1)
        }
    }

    private static func optionalWrapped(_ type: TypeSyntax) -> TypeSyntax? {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional",
           let argument = identifier.genericArgumentClause?.arguments.first?.argument.as(TypeSyntax.self) {
            return argument
        }
        return nil
    }

    /// An array's element, in parentheses when it is a union (not when the union is inside
    /// an object's braces).
    private func element(_ text: String) -> String {
        let object = text.hasPrefix("{") && text.hasSuffix("}") && !text.contains("} | {")
        return text.contains(" | ") && !object ? "(" + text + ")" : text
    }
}
