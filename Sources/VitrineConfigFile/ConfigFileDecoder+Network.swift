#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
internal import TOMLKit

/// `[network]`'s lists and arrays of tables. Every file is checked here, so `check-config`
/// reports a missing certificate or a too-open password file at its line and column; the
/// password itself is read here and appears in no message.
extension ConfigFileDecoder {
    func decodeNetwork(_ key: String, in network: TOMLTable, at here: Path, into settings: inout NetworkSettings) {
        switch key {
        case "no-proxy":
            settings.noProxy = array(network, key, at: here, of: #"a host or pattern such as "*.corp""#) { value in
                value.string.flatMap { !$0.isEmpty && !$0.contains(where: \.isWhitespace) ? $0 : nil }
            } ?? []
        case "ca-certificates":
            settings.caCertificates += existingFiles(network, key, at: here)
        case "client-certificate":
            settings.clientCertificates = (tables(network, key, at: here) ?? []).compactMap(decodeClientCertificate)
        default:  // credentials
            settings.credentials = (tables(network, key, at: here) ?? []).compactMap(decodeCredential)
        }
    }

    /// An array of paths to existing files (PEM certificates), resolved; each missing one
    /// is reported at its own position.
    func existingFiles(_ table: TOMLTable, _ key: String, at here: Path) -> [String] {
        guard let paths = array(table, key, at: here, of: "the path of a PEM file", { $0.string.flatMap { $0.isEmpty ? nil : $0 } })
        else { return [] }
        var files: [String] = []
        for (index, text) in paths.enumerated() {
            let resolved = resolve(text)
            noteLocalPath(here + [.key(key), .index(index)], resolved: resolved, in: table, at: here)
            if FileSystem.isRegularFile(resolved) {
                files.append(resolved)
            } else {
                mismatch(at: here + [.key(key), .index(index)], expected: "an existing file", got: text, note: resolved)
            }
        }
        return files
    }

    private func decodeClientCertificate(_ entry: TOMLTable, at path: Path) -> ClientCertificate? {
        checkKeys(entry, at: path, allowed: ["host", "certificate", "key"])
        let host = string(entry, "host", at: path, expected: #"a host name such as "kiosk.corp""#) {
            !$0.isEmpty && !$0.contains("/") && !$0.contains(":") && !$0.contains(where: \.isWhitespace)
        }
        let certificate = self.path(entry, "certificate", at: path, mustBe: .file)
        let key = self.path(entry, "key", at: path, mustBe: .file)
        if entry["host"] == nil { missing("host", in: path, expected: "the server that asks for the certificate") }
        if entry["certificate"] == nil { missing("certificate", in: path, expected: "the PEM file of the client certificate") }
        if entry["key"] == nil { missing("key", in: path, expected: "the PEM file of its private key") }
        guard let host, let certificate, let key else { return nil }
        return ClientCertificate(host: host, certificatePath: certificate.path, keyPath: key.path)
    }

    private func decodeCredential(_ entry: TOMLTable, at path: Path) -> HTTPCredential? {
        checkKeys(entry, at: path, allowed: ["origin", "username", "password-file"])
        let origin = string(entry, "origin", at: path, expected: Origin.serializedExpectation) { Origin(serialized: $0) != nil }
            .flatMap { Origin(serialized: $0) }
        let username = string(entry, "username", at: path, expected: "a non-empty user name") { !$0.isEmpty && !$0.contains(":") }
        let password = passwordFile(entry, at: path)
        if entry["origin"] == nil { missing("origin", in: path, expected: "the server's origin, such as https://intranet.corp") }
        if entry["username"] == nil { missing("username", in: path, expected: "the user name sent") }
        if entry["password-file"] == nil { missing("password-file", in: path, expected: "a file (mode 0600) holding the password") }
        guard let origin, let username, let password else { return nil }
        return HTTPCredential(origin: origin, username: username, password: password)
    }

    /// The password in `password-file`: refused unless only its owner may read it (0600 or
    /// stricter). Trailing line breaks are not part of it.
    func passwordFile(_ entry: TOMLTable, at path: Path) -> Credential? {
        guard let file = self.path(entry, "password-file", at: path, mustBe: .file)?.path else { return nil }
        return password(in: file, at: path)
    }

    /// The password in `file`, named by `password-file` in the table at `path`, checked as above.
    func password(in file: String, at path: Path) -> Credential? {
        guard readsPasswordFiles else { return Credential("") }
        let position = map.position(ofValue: path + [.key("password-file")])
        let name = display(path + [.key("password-file")])
        guard let mode = FileSystem.permissions(file), mode & 0o077 == 0 else {
            let mode = FileSystem.permissions(file).map { String($0, radix: 8) } ?? "?"
            report(at: position, "\(name) '\(file)' may be read by others (mode 0\(mode)); it must be mode 0600 or stricter (chmod 600)")
            return nil
        }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: file)) else {
            report(at: position, "\(name) '\(file)' cannot be read")
            return nil
        }
        var password = String(decoding: data, as: UTF8.self)
        while password.last?.isNewline == true { password.removeLast() }
        return Credential(password)
    }
}
