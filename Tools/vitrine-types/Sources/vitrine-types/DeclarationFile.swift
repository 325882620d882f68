/// The `.d.ts` file: the strategies merged into the SDK's global `VitrineStrategies`.
enum DeclarationFile {
    static func text(for declarations: StrategyDeclarations) -> String {
        var lines = [
            "// The app's typed strategies for `vitrine.invoke`, written by vitrine-types from the Swift",
            "// sources (`swift package generate-vitrine-types`): edit the Swift side, then run it again.",
            "declare global {",
            "  interface VitrineStrategies {",
        ]
        lines += entries(for: declarations)
        lines += ["  }", "}", "", "export {};", ""]
        return lines.joined(separator: "\n")
    }

    /// One `VitrineStrategies` member per strategy, by identifier.
    static func entries(for declarations: StrategyDeclarations) -> [String] {
        var lines: [String] = []
        for strategy in declarations.strategies.sorted(by: { $0.identifier < $1.identifier }) {
            let types = TypeScript(declarations: declarations, scope: strategy.typeName)
            let payload = types.render(strategy.requestType, side: .payload)
            let result = types.render(strategy.responseType, side: .result)
            lines.append("    /** `\(strategy.typeName)` in \(strategy.file). */")
            lines.append("    \(TypeScript.quoted(strategy.identifier)): { payload: \(payload); result: \(result) };")
        }
        return lines
    }

    /// The lines that open and close the part of a hand-written declaration file the
    /// generator writes (`--into`: the SDK's vitrine.d.ts and its built-in strategies).
    static let regionStart = "    // vitrine-types: from here to its end mark, written from the Swift sources (make sdk-types)."
    static let regionEnd = "    // vitrine-types: end."

    /// `file` with the lines between its region marks replaced by the declarations' entries,
    /// or nil when it has no region.
    static func filling(_ file: String, with declarations: StrategyDeclarations) -> String? {
        var lines = file.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: regionStart),
              let end = lines[start...].firstIndex(of: regionEnd) else { return nil }
        lines.replaceSubrange(start + 1..<end, with: entries(for: declarations))
        return lines.joined(separator: "\n")
    }
}
