#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Vitrine's own error pages, built from `Resources/errors/error.html` (with a small
/// built-in fallback when Resources cannot be found). None offers a way around the
/// failure; each is tried again by itself (network and TLS failures by `LoadRetrier`'s
/// schedule, the crash-loop page by its own countdown).
struct ErrorPage {
    enum Kind: String {
        /// The page could not be reached (or its server is not ready): tried again on a schedule.
        case network
        /// The certificate was not trusted: no bypass; tried again on a schedule.
        case tls
        /// The web process crashed too often: wait, then reload.
        case crashLoop = "crash-loop"
    }

    let kind: Kind
    let url: URL
    let detail: String
    let countdown: Int

    var title: String {
        switch kind {
        case .network: return "This page cannot be reached"
        case .tls: return "This connection is not secure"
        case .crashLoop: return "This page keeps stopping"
        }
    }

    var message: String {
        switch kind {
        case .network: return "The page will come back by itself when the network is available again."
        case .tls: return "The server's certificate is not trusted, so the page was not shown. Ask the administrator to fix the certificate or to trust it in the configuration."
        case .crashLoop: return "The page stopped several times in a short while. It will be tried again shortly."
        }
    }

    private var icon: String {
        switch kind {
        case .network: return "📡"
        case .tls: return "🔒"
        case .crashLoop: return "⟳"
        }
    }

    /// "scheduled": the page only counts down; the native `LoadRetrier` reloads (and logs
    /// each attempt). "countdown": the page reloads by itself when its countdown ends.
    private var mode: String {
        switch kind {
        case .network, .tls: return "scheduled"
        case .crashLoop: return "countdown"
        }
    }

    /// The page's HTML.
    func html(resources: ResourceLocator = ResourceLocator()) -> String {
        let templateURL = resources.directory.appendingPathComponent("errors/error.html")
        let template = (try? String(contentsOf: templateURL, encoding: .utf8)) ?? Self.fallbackTemplate
        let replacements: [(String, String)] = [
            ("{{KIND}}", kind.rawValue),
            ("{{TITLE}}", Self.escape(title)),
            ("{{MESSAGE}}", Self.escape(message)),
            ("{{DETAIL}}", Self.escape(detail)),
            ("{{ICON}}", icon),
            // JSON in a <script>: escape "<" so a URL cannot close the script element.
            ("{{URL_JSON}}", JSONValue.string(url.absoluteString).jsonText.replacingLessThan()),
            ("{{MODE_JSON}}", JSONValue.string(mode).jsonText),
            ("{{COUNTDOWN}}", String(countdown)),
        ]
        return replacements.reduce(template) { page, pair in page.replacingAll(pair.0, with: pair.1) }
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    static let fallbackTemplate = """
        <!doctype html><html id="vitrine-error" data-kind="{{KIND}}"><head><meta charset="utf-8"><title>{{TITLE}}</title></head>
        <body><h1>{{TITLE}}</h1><p>{{MESSAGE}}</p><p id="status"></p><p>{{DETAIL}}</p>
        <script>if ({{MODE_JSON}} === "countdown") setTimeout(function () { location.replace({{URL_JSON}}); }, Math.max({{COUNTDOWN}}, 5) * 1000);</script></body></html>
        """
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }

    fileprivate func replacingLessThan() -> String { replacingAll("<", with: "\\u003c") }
}
