#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Vitrine's own error pages, built from `Resources/errors/error.html` (with a small
/// built-in fallback when Resources cannot be found). Each retries by itself and none
/// offers a way around the failure.
struct ErrorPage {
    enum Kind: String {
        /// The network failed: probe until it is back, then reload.
        case network
        /// The certificate was not trusted: no bypass; try again later.
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

    private var mode: String {
        switch kind {
        case .network: return "network"
        case .tls, .crashLoop: return "countdown"
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
        <script>setTimeout(function () { location.replace({{URL_JSON}}); }, Math.max({{COUNTDOWN}}, 5) * 1000);</script></body></html>
        """
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }

    fileprivate func replacingLessThan() -> String { replacingAll("<", with: "\\u003c") }
}
