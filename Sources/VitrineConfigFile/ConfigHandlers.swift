#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
internal import TOMLKit

/// Every handler a `[[navigation.handlers]]` entry may name, once each: its `type`, what it
/// does, its keys, how an entry is read and the handler it makes. The decoder, the assembly
/// and the reference (`vitrine generate`) all read this table; adding a configurable handler
/// is one declaration here.
enum ConfigHandlers {
    static let all: [ConfigHandler] = [deepLink, home, nativeRoute, payment, externalBrowser, originAllowlist, defaultAllow]

    static func handler(_ type: String) -> ConfigHandler? { all.first { $0.type == type } }

    static let deepLink = ConfigHandler(
        DeepLinkHandler.typeName, "the app's own URL schemes (myapp://…) become the native route deep-link; the view never loads them",
        keys: [.init("schemes", #"an array of URL schemes, such as ["myapp"]"#, "the app's schemes (required, at least one)")]
    ) { decoder, entry, path in
        guard let schemes = decoder.schemes(entry, at: path) else {
            if entry["schemes"] == nil { decoder.missing("schemes", in: path, expected: #"the app's URL schemes, such as ["myapp"]"#) }
            return nil
        }
        if schemes.isEmpty {
            decoder.report(at: decoder.map.position(ofValue: path + [.key("schemes")]), "\(decoder.display(path + [.key("schemes")])) must list at least one scheme")
        }
        return { _ in DeepLinkHandler(schemes: Set(schemes)) }
    }

    static let home = ConfigHandler(
        HomePageHandler.typeName, "links to the home page: a tab bar switches to its first tab, else home loads",
        keys: [.init("url", "a URL", "the home page (default: the start page)")]
    ) { decoder, entry, path in
        let url = decoder.url(entry, "url", at: path)
        return { assembled throws(ConfigFileError) in
            guard let homeURL = url ?? assembled.startPage else {
                throw assembled.error("\(assembled.displayPath) is a home handler without url, and there is no start-url (or app-dir) for it to default to")
            }
            return HomePageHandler(homeURL: homeURL)
        }
    }

    static let nativeRoute = ConfigHandler(
        NativeRouteHandler.typeName, "URLs matching a path pattern become native routes; the web navigation is cancelled",
        keys: [.init("routes", #"a table of path pattern = route name, such as { "/product/:id" = "product" }"#,
                     "the patterns, the first match winning (required)"),
               .init("origins", "an array of origins", "only URLs of these origins are routed (default: any origin)")]
    ) { decoder, entry, path in
        guard let routes = decoder.decodeRoutes(entry, at: path) else { return nil }
        let origins = Set(decoder.origins(entry, "origins", at: path) ?? [])
        return { _ in NativeRouteHandler(routes: routes, origins: origins) }
    }

    static let payment = ConfigHandler(
        PaymentHandler.typeName, "payment pages wait for the user's native confirmation; declining cancels them",
        keys: [.init("path-prefixes", #"an array of paths starting with "/""#, #"the payment pages (default: ["/pay"])"#),
               .init("timeout", "a number of seconds above 0", "how long the confirmation may take (default: 300)")]
    ) { decoder, entry, path in
        let prefixes = decoder.array(entry, "path-prefixes", at: path, of: #"a path starting with "/", such as "/pay""#) { value in
            value.string.flatMap { $0.hasPrefix("/") ? $0 : nil }
        }
        let timeout = decoder.seconds(entry, "timeout", at: path, allowsZero: false)
        return { _ in PaymentHandler(pathPrefixes: prefixes ?? ["/pay"], timeout: timeout ?? .seconds(300)) }
    }

    static let externalBrowser = ConfigHandler(
        ExternalBrowserHandler.typeName, "links to sites outside the app open in the desktop's browser and are cancelled in the view",
        keys: [.init("origins", "an array of origins", "the app's own origins, which stay in the view (default: the app's origins)"),
               .init("schemes", "an array of URL schemes",
                     "the schemes sent to the desktop (default: " + ExternalBrowserHandler.defaultExternalSchemes.sorted().joined(separator: ", ") + ")")]
    ) { decoder, entry, path in
        let origins = decoder.origins(entry, "origins", at: path).map(Set.init)
        let schemes = decoder.array(entry, "schemes", at: path, of: #"a URL scheme such as "https""#) { value in
            value.string.flatMap { ConfigFileDecoder.isScheme($0) ? $0.lowercased() : nil }
        }
        return { _ in
            schemes.map { ExternalBrowserHandler(appOrigins: origins, externalSchemes: Set($0)) } ?? ExternalBrowserHandler(appOrigins: origins)
        }
    }

    static let originAllowlist = ConfigHandler(
        OriginAllowlistHandler.typeName, "cancels every navigation whose document's origin is not on the list",
        keys: [.init("origins", "an array of origins", "the allowed origins (default: the app's origins)")]
    ) { decoder, entry, path in
        let origins = decoder.origins(entry, "origins", at: path).map(Set.init)
        return { _ in OriginAllowlistHandler(origins: origins) }
    }

    static let defaultAllow = ConfigHandler(
        DefaultAllowHandler.typeName, "the end of an open chain: allows what is left; the chain must end with it",
        keys: [.init("downloads", "true or false", "download what the view cannot show (needs download-directory; default: whether one is set)")]
    ) { decoder, entry, path in
        let downloads = decoder.bool(entry, "downloads", at: path)
        if downloads == true && !decoder.downloadsConfigured {
            decoder.report(at: decoder.map.position(ofValue: path + [.key("downloads")]),
                           "\(decoder.display(path + [.key("downloads")])) = true needs download-directory: without one, downloads are refused")
        }
        return { assembled in DefaultAllowHandler(allowsDownloads: downloads ?? assembled.downloadsConfigured) }
    }
}

/// One configurable handler (see `ConfigHandlers`).
struct ConfigHandler: Sendable {
    struct Key: Sendable {
        let name: String
        /// What its value must be.
        let expected: String
        let doc: String
        init(_ name: String, _ expected: String, _ doc: String) {
            self.name = name
            self.expected = expected
            self.doc = doc
        }
    }

    /// Makes the handler once the configuration is assembled: the start page and the
    /// download directory are known only then.
    typealias Make = @Sendable (HandlerEntry) throws(ConfigFileError) -> any NavigationActionHandler
    /// Reads an entry whose keys are checked already; nil when a value is wrong (reported).
    typealias Decode = @Sendable (ConfigFileDecoder, TOMLTable, TOMLSourceMap.Path) -> Make?

    /// The chain's name for it and the entry's `type`.
    let type: String
    let doc: String
    let keys: [Key]
    let decode: Decode

    init(_ type: String, _ doc: String, keys: [Key], decode: @escaping Decode) {
        self.type = type
        self.doc = doc
        self.keys = keys
        self.decode = decode
    }
}

/// One `[[navigation.handlers]]` entry as the assembly meets it.
struct HandlerEntry: Sendable {
    let file: String
    /// Where the entry starts, for problems found once the command line has been applied.
    let position: TOMLSourceMap.Position
    /// `navigation.handlers[N]`, for messages.
    let displayPath: String
    let startPage: URL?
    let downloadsConfigured: Bool

    func error(_ message: String) -> ConfigFileError { ConfigFileError(file: file, at: position, message) }
}

/// What a configurable handler is, for the reference: read from `ConfigHandlers`.
public struct ConfigHandlerDescription: Sendable, Equatable {
    public struct Key: Sendable, Equatable {
        public let name: String
        public let expected: String
        public let doc: String
    }

    /// The entry's `type`.
    public let type: String
    public let doc: String
    public let keys: [Key]
}

extension ConfigFile {
    /// The handlers `[[navigation.handlers]]` may name, in the table's order.
    public static var handlerDescriptions: [ConfigHandlerDescription] {
        ConfigHandlers.all.map { handler in
            ConfigHandlerDescription(type: handler.type, doc: handler.doc,
                                     keys: handler.keys.map { .init(name: $0.name, expected: $0.expected, doc: $0.doc) })
        }
    }
}
