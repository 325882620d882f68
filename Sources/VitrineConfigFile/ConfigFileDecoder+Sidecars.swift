#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
internal import TOMLKit

/// `[[sidecars]]`: each entry checked by `SidecarDeclaration.declared`, its problem reported
/// at its field; names unique. Relative commands resolve in the file's folder (the app
/// folder). Each command is noted as a local path, so a pushed configuration can neither
/// add a sidecar nor change one (that would run a program of the pusher's choosing).
extension ConfigFileDecoder {
    static let sidecarKeys = ["name", "command", "args", "env", "ready", "ready-timeout", "restart"]

    func decodeSidecars(_ entries: [(TOMLTable, Path)]) -> [SidecarDeclaration] {
        var names: Set<String> = []
        return entries.compactMap { entry, path in
            let errorsBefore = errors.count
            guard let sidecar = decodeSidecar(entry, at: path), errors.count == errorsBefore else { return nil }
            guard names.insert(sidecar.name).inserted else {
                report(at: map.position(ofValue: path + [.key("name")]),
                       "\(display(path + [.key("name")])) \"\(sidecar.name)\" names another sidecar already; each needs its own name")
                return nil
            }
            return sidecar
        }
    }

    private func decodeSidecar(_ entry: TOMLTable, at path: Path) -> SidecarDeclaration? {
        checkKeys(entry, at: path, allowed: Self.sidecarKeys, context: "a sidecar")
        let name = string(entry, "name", at: path, expected: SidecarDeclaration.nameExpectation, where: SidecarDeclaration.accepts(name:))
        let command = string(entry, "command", at: path, expected: "a program's path", where: { !$0.isEmpty })
        let arguments = array(entry, "args", at: path, of: "a string") { $0.string } ?? []
        let ready = string(entry, "ready", at: path, expected: SidecarReadiness.expectation)
        let restart = string(entry, "restart", at: path, expected: "one of \(Self.list(SidecarRestartPolicy.allCases.map(\.rawValue)))") {
            SidecarRestartPolicy(rawValue: $0) != nil
        }
        let readyTimeout = seconds(entry, "ready-timeout", at: path, allowsZero: false) ?? SidecarDeclaration.defaultReadyTimeout
        var environment: [(String, String)] = []
        if let variables = table(entry, "env", at: path, expected: #"a table of NAME = "value""#) {
            for variable in variables.keys {
                if let value = string(variables, variable, at: path + [.key("env")]) { environment.append((variable, value)) }
            }
        }
        if entry["name"] == nil { missing("name", in: path, expected: "the sidecar's name (\(SidecarDeclaration.nameExpectation))") }
        if entry["command"] == nil { missing("command", in: path, expected: "the program to run, relative to the app folder or absolute") }
        guard let name, let command else { return nil }
        noteLocalPath(path + [.key("command")], resolved: resolve(command), in: entry, at: path)
        do {
            return try SidecarDeclaration.declared(name: name, command: command, arguments: arguments, environment: environment,
                                                   ready: ready, readyTimeout: readyTimeout, restart: restart, appFolder: directory)
        } catch {
            let field = Self.sidecarKeys.contains(error.field) ? error.field : "command"
            report(at: map.position(ofValue: path + [.key(field)]), "\(display(path + [.key(field)])) \(error.reason)")
            return nil
        }
    }
}
