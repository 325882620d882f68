#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Configuration {
    /// Every credential the configuration holds, for `SecretMask`: the passwords of its
    /// URLs (start page, tabs, playlists, proxy), the support-upload and reports-upload URLs whole (a pre-signed URL is
    /// its own key), the broker's and the HTTP servers' passwords.
    public var credentials: [Credential] {
        var urls = [startURL].compactMap { $0 } + tabs.map(\.url)
            + (preferences.schedule.playlist + preferences.displays.flatMap(\.playlist)).map(\.url)
        if case .custom(let proxy)? = network.proxy { urls.append(proxy) }
        var secrets = urls.flatMap(Self.credentials(in:))
        if let upload = supportUpload { secrets.append(upload.credential) }
        if let upload = reportsUpload { secrets.append(upload.credential) }
        if let password = mqtt?.password { secrets.append(password) }
        secrets += network.credentials.map(\.password)
        return secrets
    }

    /// The password of `url`'s user info (or its user name when alone: often a token) and
    /// the values of its secret query parameters (`Redaction.isSecretParameter`).
    static func credentials(in url: URL) -> [Credential] {
        var secrets: [Credential] = []
        if let password = url.password(percentEncoded: false) { secrets.append(Credential(password)) }
        else if let user = url.user(percentEncoded: false) { secrets.append(Credential(user)) }
        for query in [url.query(percentEncoded: false), url.fragment(percentEncoded: false)].compactMap({ $0 }) {
            for pair in query.split(separator: "&") {
                guard let equals = pair.firstIndex(of: "="), Redaction.isSecretParameter(String(pair[..<equals])) else { continue }
                secrets.append(Credential(String(pair[pair.index(after: equals)...])))
            }
        }
        return secrets
    }
}
