import Foundation
import Testing
import Vitrine
import VitrineConfigFile

/// The handler table (`ConfigHandlers`): what the reference documents is what a file may
/// write, and every type it names makes the chain's handler of that name.
@Suite("Config file: the handler table")
struct ConfigHandlersTests {
    /// A minimal entry of each type; a type added to the table without one here fails.
    private static let minimalEntries: [String: String] = [
        "deep-link": #"schemes = ["myapp"]"#,
        "home": #"url = "https://example.org/""#,
        "native-route": #"routes = { "/product/:id" = "product" }"#,
        "payment": "",
        "external-browser": "",
        "origin-allowlist": "",
        "default-allow": "",
    ]

    @Test func everyDocumentedTypeMakesTheHandlerOfThatName() throws {
        let descriptions = ConfigFile.handlerDescriptions
        #expect(Set(descriptions.map(\.type)) == Set(Self.minimalEntries.keys))
        for description in descriptions {
            let entry = try #require(Self.minimalEntries[description.type])
            let text = "[[navigation.handlers]]\ntype = \"\(description.type)\"\n\(entry)\n"
                + (description.type == "default-allow" ? "" : "[[navigation.handlers]]\ntype = \"default-allow\"\n")
            let configuration = try ConfigFile(text: text, path: "k.toml").configuration()
            #expect(configuration.navigationChain.names.first == description.type)
            #expect(!description.doc.isEmpty && description.keys.allSatisfy { !$0.doc.isEmpty && !$0.expected.isEmpty })
        }
    }

    /// An unknown key is refused with the keys the reference lists, in its order.
    @Test func theDocumentedKeysAreTheOnesAFileMayWrite() throws {
        for description in ConfigFile.handlerDescriptions {
            let entry = Self.minimalEntries[description.type] ?? ""
            let text = "[[navigation.handlers]]\ntype = \"\(description.type)\"\n\(entry)\nnot-a-key = 1\n"
                + (description.type == "default-allow" ? "" : "[[navigation.handlers]]\ntype = \"default-allow\"\n")
            do {
                _ = try ConfigFile(text: text, path: "k.toml").configuration()
                Issue.record("a \(description.type) handler accepted not-a-key")
            } catch {
                let listed = (["type"] + description.keys.map(\.name)).joined(separator: ", ")
                #expect(error.description.contains("expected for a \(description.type) handler: \(listed)"), "\(error.description)")
            }
        }
    }
}
