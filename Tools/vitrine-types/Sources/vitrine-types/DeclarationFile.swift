/// The `.d.ts` file: the strategies merged into the SDK's global `VitrineStrategies`.
enum DeclarationFile {
    static func text(for declarations: StrategyDeclarations) -> String {
        var lines = [
            "// The app's typed strategies for `vitrine.invoke`, written by vitrine-types from the Swift",
            "// sources (`swift package generate-vitrine-types`): edit the Swift side, then run it again.",
            "declare global {",
            "  interface VitrineStrategies {",
        ]
        for strategy in declarations.strategies.sorted(by: { $0.identifier < $1.identifier }) {
            let types = TypeScript(declarations: declarations, scope: strategy.typeName)
            let payload = types.render(strategy.requestType, side: .payload)
            let result = types.render(strategy.responseType, side: .result)
            lines.append("    /** `\(strategy.typeName)` in \(strategy.file). */")
            lines.append("    \(TypeScript.quoted(strategy.identifier)): { payload: \(payload); result: \(result) };")
        }
        lines += ["  }", "}", "", "export {};", ""]
        return lines.joined(separator: "\n")
    }
}
