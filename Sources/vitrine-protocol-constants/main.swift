// Writes the core's `BridgeProtocol` enum from Resources/sdk/protocol.json (run by the
// BridgeProtocolConstants build plugin): `vitrine-protocol-constants INPUT OUTPUT`.
//
// The file is a flat JSON object of names to integers or strings; anything else is refused,
// so a typo stops the build instead of shipping a bridge whose two sides disagree.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

enum Constant: Decodable {
    case integer(Int)
    case string(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let integer = try? container.decode(Int.self) {
            self = .integer(integer)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// The Swift literal: strings as JSON text, which Swift reads the same for the
    /// characters a protocol constant uses, `\u{…}` escapes written the Swift way.
    var swiftDeclaration: String {
        switch self {
        case .integer(let value): return "Int = \(value)"
        case .string(let value):
            let escaped = value.unicodeScalars.map { scalar -> String in
                switch scalar {
                case "\\": return "\\\\"
                case "\"": return "\\\""
                case " "..."~": return String(scalar)
                default: return "\\u{\(String(scalar.value, radix: 16))}"
                }
            }.joined()
            return "String = \"\(escaped)\""
        }
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    fatalError("usage: vitrine-protocol-constants protocol.json BridgeProtocol.swift")
}
let text: String
do {
    text = try String(contentsOfFile: arguments[1], encoding: .utf8)
} catch {
    fatalError("vitrine-protocol-constants: cannot read \(arguments[1]): \(error)")
}
let constants: [String: Constant]
do {
    constants = try JSONDecoder().decode([String: Constant].self, from: Data(text.utf8))
} catch {
    fatalError("vitrine-protocol-constants: \(arguments[1]) is not a flat object of integers and strings: \(error)")
}
for name in constants.keys where !(name.first?.isLetter ?? false) || !name.allSatisfy({ $0.isLetter || $0.isNumber }) {
    fatalError("vitrine-protocol-constants: '\(name)' in \(arguments[1]) is not a plain name")
}
// A raw string literal long enough that no run of quotes and hashes in the text ends it.
var hashes = "#"
while text.contains("\"" + hashes) { hashes += "#" }
var swift = """
// Generated from Resources/sdk/protocol.json by vitrine-protocol-constants (the
// BridgeProtocolConstants build plugin). Do not edit: change protocol.json.

/// The constants the bridge's Swift and its JavaScript share (docs/bridge-protocol.md).
public enum BridgeProtocol {

"""
for name in constants.keys.sorted() {
    swift += "    public static let \(name): \(constants[name]!.swiftDeclaration)\n"
}
swift += """

    /// protocol.json's own text: the JavaScript's prelude (`const VITRINE_PROTOCOL = …;`).
    public static let json = \(hashes)\"\"\"
\(text.hasSuffix("\n") ? String(text.dropLast()) : text)
\"\"\"\(hashes)
}

"""
do {
    try swift.write(toFile: arguments[2], atomically: true, encoding: .utf8)
} catch {
    fatalError("vitrine-protocol-constants: cannot write \(arguments[2]): \(error)")
}
