#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What Vitrine hands to the desktop's URI launcher (`ContainerHost.openExternally`).
///
/// Mail clients read more than addresses from a `mailto:` URL: Evolution, KMail, Geary,
/// Claws and mutt attach the file an `attach` / `attachment` parameter names, and
/// `xdg-email` turns `attach` into Thunderbird's `attachment`. A page could then mail
/// `/etc/passwd` or the user's keys away with one click on "Send". Such parameters go
/// before the URL leaves the container, however their names are spelled or encoded.
public enum DesktopURL {
    /// `url` as the desktop may see it: a `mailto:` URL without file-naming parameters;
    /// any other URL unchanged.
    public static func forDesktop(_ url: URL) -> URL {
        guard url.scheme?.lowercased() == "mailto",
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let query = components.percentEncodedQuery
        else { return url }
        let pairs: [Substring] = query.split(separator: "&", omittingEmptySubsequences: false)
        let kept = pairs.filter { !namesAFile(parameterName(of: $0)) }
        components.percentEncodedQuery = kept.isEmpty ? nil : kept.joined(separator: "&")
        return components.url ?? url
    }

    /// The decoded name of a `name=value` query pair (`+` read as a space, as forms write it).
    static func parameterName(of pair: Substring) -> String {
        let encoded = String(pair.prefix { $0 != "=" }).split(separator: "+", omittingEmptySubsequences: false).joined(separator: " ")
        return encoded.percentDecoded ?? encoded
    }

    /// Whether a `mailto:` parameter name is one a mail client reads a local file from:
    /// `attach`, `attachment`, `attachments` and their variants (`x-attach`, …).
    static func namesAFile(_ name: String) -> Bool {
        name.lowercased().filter { !$0.isWhitespace && $0 != "\0" }.contains("attach")
    }
}
