#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// Who and what a bundled app is: its names, version and maintainer, checked so that
/// `dpkg-deb`, lintian and the desktop never see a malformed value.
public struct AppPackageMetadata: Sendable, Equatable {
    /// The program's name (the package's executable product, `Sources/<product>/main.swift`).
    public let product: String
    /// The reverse-DNS app id (vitrine.toml's `app-id`): desktop entry, icon and metainfo names.
    public let appID: String
    /// The Debian package's name, also the program's on the PATH (`/usr/bin/<package>`).
    public let packageName: String
    public let version: String
    /// The window's title: the desktop entry's and metainfo's name.
    public let title: String
    /// One line saying what the app is.
    public let summary: String
    /// `Full Name <email@domain>`.
    public let maintainer: String
    /// An SPDX licence expression (metainfo's `project_license`, the copyright file).
    public let license: String
    /// Debian's name for the machine (`dpkg --print-architecture`: amd64, arm64).
    public let architecture: String

    /// Checks every value. `packageName` defaults to `defaultPackageName(for: product)`.
    public init(product: String, appID: String, packageName: String? = nil, version: String, title: String,
                summary: String, maintainer: String, license: String, architecture: String) throws(AppPackageError) {
        let packageName = packageName ?? Self.defaultPackageName(for: product)
        if let problem = ApplicationID.problem(with: appID) {
            throw AppPackageError("the app id '\(appID)' is not a reverse-DNS application id: \(problem)")
        }
        if let problem = Self.packageNameProblem(packageName) {
            throw AppPackageError("'\(packageName)' cannot be a Debian package's name: \(problem) (choose one with --package-name)")
        }
        if let problem = Self.versionProblem(version) {
            throw AppPackageError("'\(version)' is not a version dpkg accepts: \(problem) (such as 1.0.2)")
        }
        if let problem = Self.maintainerProblem(maintainer) {
            throw AppPackageError("the maintainer '\(maintainer)' \(problem): write it as \"Full Name <you@example.com>\"")
        }
        for (what, value) in [("title", title), ("summary", summary), ("license", license)] {
            guard !value.trimmingWhitespace.isEmpty, !value.contains(where: \.isNewline) else {
                throw AppPackageError("the \(what) must be one line of text, not '\(value)'")
            }
        }
        // Debian's synopsis describes the package; one that starts with its name is an error.
        if summary.lowercased().hasPrefix(packageName) {
            throw AppPackageError("the summary '\(summary)' starts with the package name '\(packageName)': say what the app is (--summary)")
        }
        guard !architecture.isEmpty, architecture.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") }) else {
            throw AppPackageError("'\(architecture)' is not a Debian architecture")
        }
        self.product = product
        self.appID = appID
        self.packageName = packageName
        self.version = version
        self.title = title
        self.summary = summary
        self.maintainer = maintainer
        self.license = license
        self.architecture = architecture
    }

    /// The product's name in lower case, `_` as `-`: `Notes` → `notes`.
    public static func defaultPackageName(for product: String) -> String {
        product.lowercased().replacing("_", with: "-")
    }

    /// Debian policy 5.6.1: at least two characters of `a-z 0-9 + - .`, starting with a
    /// letter or digit. `vitrine` is Vitrine's own package.
    static func packageNameProblem(_ name: String) -> String? {
        guard name.count >= 2 else { return "it needs at least two characters" }
        guard name.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else { return "use lower-case letters, digits, +, - and ." }
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) || ("0"..."9").contains(first)
        else { return "it must start with a letter or a digit" }
        guard name != "vitrine" && !name.hasPrefix("vitrine-") else { return "Vitrine's own packages have that name" }
        return nil
    }

    /// A native package's version (policy 5.6.12, no revision, no epoch): it starts with a
    /// digit and holds letters, digits and `. + ~`.
    static func versionProblem(_ version: String) -> String? {
        guard let first = version.unicodeScalars.first, ("0"..."9").contains(first) else { return "it must start with a digit" }
        guard version.unicodeScalars.allSatisfy({
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || ".+~".unicodeScalars.contains($0)
        }) else { return "use letters, digits, ., + and ~" }
        return nil
    }

    /// `Name <local@domain.tld>`, on one line, not on localhost (lintian's errors
    /// maintainer-address-malformed and maintainer-address-is-on-localhost).
    static func maintainerProblem(_ maintainer: String) -> String? {
        guard !maintainer.contains(where: \.isNewline),
              let open = maintainer.firstIndex(of: "<"), maintainer.hasSuffix(">"),
              !maintainer[..<open].trimmingWhitespace.isEmpty
        else { return "is not a name and an address in <>" }
        let address = maintainer[maintainer.index(after: open)..<maintainer.index(before: maintainer.endIndex)]
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !address.contains(where: \.isWhitespace)
        else { return "has no valid e-mail address" }
        guard !["localhost", "localhost.localdomain"].contains(parts[1].lowercased()), !parts[1].hasSuffix(".localdomain")
        else { return "has an address on localhost" }
        return nil
    }
}
