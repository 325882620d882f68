import SwiftParser
import SwiftSyntax

/// What the generator learns from the package's sources: each typed strategy (identifier,
/// request and response types), and every struct and enum a payload may be made of.
struct StrategyDeclarations {
    struct Strategy {
        var typeName: String
        var identifier: String
        var requestType: TypeSyntax
        var responseType: TypeSyntax
        var file: String
    }

    /// A struct's stored properties (as the page sees them: CodingKeys applied).
    struct Record {
        var properties: [(name: String, type: TypeSyntax)]
    }

    var strategies: [Strategy] = []
    /// Structs and classes by name, nested ones also as `Outer.Inner`.
    var records: [String: Record] = [:]
    /// String- or Int-backed enums by name: their JSON values.
    var enums: [String: [String]] = [:]
    /// One case of an `ActionRequest` enum: `{ action: "NAME"; …fields }`.
    struct ActionCase {
        var action: String
        var fields: [(name: String, type: TypeSyntax)]
    }

    /// Enums read from `{"action": …}` (`ActionRequest`), by name: their cases.
    var actionRequests: [String: [ActionCase]] = [:]
    /// Type aliases by name, nested ones also as `Outer.Alias`.
    var aliases: [String: TypeSyntax] = [:]
    /// Problems worth telling the developer (a strategy without a readable identifier).
    var warnings: [String] = []

    mutating func read(source: String, file: String) {
        let tree = Parser.parse(source: source)
        let visitor = DeclarationVisitor(file: file)
        visitor.walk(tree)
        strategies += visitor.strategies
        records.merge(visitor.records) { first, _ in first }
        enums.merge(visitor.enums) { first, _ in first }
        actionRequests.merge(visitor.actionRequests) { first, _ in first }
        aliases.merge(visitor.aliases) { first, _ in first }
        warnings += visitor.warnings
    }
}

/// Walks one file's declarations, keeping the names of the types it is inside.
private final class DeclarationVisitor: SyntaxVisitor {
    let file: String
    var strategies: [StrategyDeclarations.Strategy] = []
    var records: [String: StrategyDeclarations.Record] = [:]
    var enums: [String: [String]] = [:]
    var actionRequests: [String: [StrategyDeclarations.ActionCase]] = [:]
    var aliases: [String: TypeSyntax] = [:]
    var warnings: [String] = []
    private var outer: [String] = []

    init(file: String) {
        self.file = file
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(name: node.name.text, members: node.memberBlock, inheritance: node.inheritanceClause)
        return .visitChildren
    }
    override func visitPost(_ node: StructDeclSyntax) { outer.removeLast() }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(name: node.name.text, members: node.memberBlock, inheritance: node.inheritanceClause)
        return .visitChildren
    }
    override func visitPost(_ node: ClassDeclSyntax) { outer.removeLast() }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        let name = node.name.text
        outer.append(name)
        let raw = node.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription
        if raw == "String" || raw == "Int" {
            var values: [String] = []
            for member in node.memberBlock.members {
                guard let cases = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
                for element in cases.elements {
                    if let literal = element.rawValue?.value.as(StringLiteralExprSyntax.self) {
                        values.append(TypeScript.quoted(literal.segments.trimmedDescription))
                    } else if let number = element.rawValue?.value.as(IntegerLiteralExprSyntax.self) {
                        values.append(number.literal.text)
                    } else {
                        values.append(raw == "String" ? TypeScript.quoted(element.name.text) : "number")
                    }
                }
            }
            for key in names(of: outer) { enums[key] = values }
        }
        let isActionRequest = node.inheritanceClause?.inheritedTypes.contains {
            $0.type.trimmedDescription.hasSuffix("ActionRequest")
        } ?? false
        if isActionRequest {
            var cases: [StrategyDeclarations.ActionCase] = []
            for member in node.memberBlock.members {
                guard let declaration = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
                for element in declaration.elements {
                    let fields = element.parameterClause?.parameters.map { parameter in
                        (name: parameter.firstName?.text ?? "_", type: parameter.type)
                    } ?? []
                    cases.append(.init(action: element.name.text, fields: fields))
                }
            }
            for key in names(of: outer) { actionRequests[key] = cases }
        }
        return .visitChildren
    }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        for key in names(of: outer + [node.name.text]) { aliases[key] = node.initializer.value }
        return .skipChildren
    }
    override func visitPost(_ node: EnumDeclSyntax) { outer.removeLast() }

    /// `Inner`, `Outer.Inner`: how other declarations may spell a nested type.
    private func names(of path: [String]) -> [String] {
        (0..<path.count).map { path[$0...].joined(separator: ".") }
    }

    private func enter(name: String, members: MemberBlockSyntax, inheritance: InheritanceClauseSyntax?) {
        outer.append(name)
        let record = StrategyDeclarations.Record(properties: Self.storedProperties(members))
        for key in names(of: outer) where records[key] == nil { records[key] = record }
        let conforms = inheritance?.inheritedTypes.contains {
            $0.type.trimmedDescription.hasSuffix("TypedScriptMessageStrategy")
        } ?? false
        if conforms { addStrategy(outer.joined(separator: "."), members: members) }
    }

    private func addStrategy(_ typeName: String, members: MemberBlockSyntax) {
        var identifier: String?
        var signature: (request: TypeSyntax, response: TypeSyntax)?
        for member in members.members {
            if let variable = member.decl.as(VariableDeclSyntax.self),
               variable.modifiers.contains(where: { $0.name.text == "static" }),
               let binding = variable.bindings.first,
               binding.pattern.trimmedDescription == "identifier",
               let literal = binding.initializer?.value.as(StringLiteralExprSyntax.self) {
                identifier = literal.segments.trimmedDescription
            }
            if let function = member.decl.as(FunctionDeclSyntax.self), function.name.text == "respond",
               let first = function.signature.parameterClause.parameters.first,
               let result = function.signature.returnClause?.type {
                signature = (first.type, result)
            }
        }
        guard let identifier else {
            warnings.append("\(file): \(typeName) has no `static let identifier = \"…\"` to read: left out")
            return
        }
        guard let signature else {
            warnings.append("\(file): \(typeName) has no `respond(to:context:)` to read: left out")
            return
        }
        strategies.append(.init(typeName: typeName, identifier: identifier, requestType: signature.request,
                                responseType: signature.response, file: file))
    }

    /// The stored instance properties the synthesized Codable conformance reads and writes,
    /// named as the `CodingKeys` enum says when there is one.
    static func storedProperties(_ members: MemberBlockSyntax) -> [(name: String, type: TypeSyntax)] {
        var properties: [(name: String, type: TypeSyntax)] = []
        var codingKeys: [String: String]?
        for member in members.members {
            if let keys = member.decl.as(EnumDeclSyntax.self), keys.name.text == "CodingKeys" {
                var renamed: [String: String] = [:]
                for case let cases? in keys.memberBlock.members.map({ $0.decl.as(EnumCaseDeclSyntax.self) }) {
                    for element in cases.elements {
                        let literal = element.rawValue?.value.as(StringLiteralExprSyntax.self)
                        renamed[element.name.text] = literal?.segments.trimmedDescription ?? element.name.text
                    }
                }
                codingKeys = renamed
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  !variable.modifiers.contains(where: { ["static", "class"].contains($0.name.text) })
            else { continue }
            for binding in variable.bindings {
                guard binding.accessorBlock == nil, let type = binding.typeAnnotation?.type,
                      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
                else { continue }
                // A `let` with a value is not decoded (and encoded as is): the page still sees it.
                properties.append((name, type))
            }
        }
        guard let codingKeys else { return properties }
        return properties.compactMap { property in codingKeys[property.name].map { ($0, property.type) } }
    }
}
