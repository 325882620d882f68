// vitrine-types: writes the TypeScript declarations of a package's typed strategies
// (`TypedScriptMessageStrategy`): one `VitrineStrategies` entry per strategy, so that
// `vitrine.invoke(name, payload)` is checked in the page. It reads the sources with
// swift-syntax (no build, no runtime reflection).
//
//   vitrine-types [--root DIR] [--output FILE] [--into FILE] SOURCE_OR_FOLDER…
//
// Paths in the output are relative to --root (default: the current folder). Without
// --output the declarations go to standard output. With --into, the output is that
// hand-written declaration file with its marked region filled (the SDK's vitrine.d.ts).
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
var root = FileManager.default.currentDirectoryPath
var output: String?
var into: String?
var inputs: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--root" where !arguments.isEmpty: root = arguments.removeFirst()
    case "--output", "-o":
        guard !arguments.isEmpty else { break }
        output = arguments.removeFirst()
    case "--into" where !arguments.isEmpty: into = arguments.removeFirst()
    case "--help", "-h":
        print("usage: vitrine-types [--root DIR] [--output FILE] [--into FILE] SOURCE_OR_FOLDER…")
        exit(0)
    default: inputs.append(argument)
    }
}
guard !inputs.isEmpty else {
    FileHandle.standardError.write(Data("usage: vitrine-types [--root DIR] [--output FILE] [--into FILE] SOURCE_OR_FOLDER…\n".utf8))
    exit(64)
}

/// The Swift files named, and those under the folders named, in a stable order.
func swiftFiles(_ input: String, root: String) -> [String] {
    let path = input.hasPrefix("/") ? input : root + "/" + input
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
        FileHandle.standardError.write(Data("vitrine-types: \(input) does not exist\n".utf8))
        exit(1)
    }
    guard isFolder.boolValue else { return [path] }
    let found = (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []
    return found.filter { $0.hasSuffix(".swift") }.sorted().map { path + "/" + $0 }
}

var declarations = StrategyDeclarations()
for file in inputs.flatMap({ swiftFiles($0, root: root) }) {
    guard let source = try? String(contentsOfFile: file, encoding: .utf8) else {
        FileHandle.standardError.write(Data("vitrine-types: cannot read \(file)\n".utf8))
        exit(1)
    }
    let shown = file.hasPrefix(root + "/") ? String(file.dropFirst(root.count + 1)) : file
    declarations.read(source: source, file: shown)
}
for warning in declarations.warnings { FileHandle.standardError.write(Data("vitrine-types: \(warning)\n".utf8)) }

var text = DeclarationFile.text(for: declarations)
if let into {
    let path = into.hasPrefix("/") ? into : root + "/" + into
    guard let file = try? String(contentsOfFile: path, encoding: .utf8),
          let filled = DeclarationFile.filling(file, with: declarations) else {
        FileHandle.standardError.write(Data("vitrine-types: \(into) has no region from \"\(DeclarationFile.regionStart)\" to \"\(DeclarationFile.regionEnd)\"\n".utf8))
        exit(1)
    }
    text = filled
}
if let output {
    do {
        try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
    } catch {
        FileHandle.standardError.write(Data("vitrine-types: cannot write \(output): \(error)\n".utf8))
        exit(1)
    }
    FileHandle.standardError.write(Data("vitrine-types: \(declarations.strategies.count) strategies → \(output)\n".utf8))
} else {
    print(text, terminator: "")
}
