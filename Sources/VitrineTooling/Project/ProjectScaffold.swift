#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// What `vitrine new NAME` writes: the template's files (Resources/templates/) with the
/// project's name and its Vitrine dependency filled in, as a plan of files (no file is
/// written here, so the plan is tested without touching a disk beyond the templates).
public struct ProjectScaffold: Sendable, Equatable {
    /// The templates `--template` names: `minimal` (an app window) or `kiosk`.
    public enum Template: String, CaseIterable, Sendable {
        case minimal, kiosk

        /// The template folders, in order: later ones replace earlier files of the same path.
        var folders: [String] { self == .minimal ? ["app"] : ["app", rawValue] }
    }

    /// How the new package depends on Vitrine.
    public enum VitrineDependency: Sendable, Equatable {
        /// A Vitrine checkout on this machine.
        case path(String)
        /// The published package.
        case url(String, from: String)

        /// The line in the new project's `dependencies:`.
        var packageLine: String {
            switch self {
            case .path(let path): ".package(name: \"Vitrine\", path: \(Self.swiftString(path)))"
            case .url(let url, let version): ".package(url: \(Self.swiftString(url)), from: \(Self.swiftString(version)))"
            }
        }

        private static func swiftString(_ text: String) -> String {
            "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
        }
    }

    /// One file of the new project, its path relative to the project's folder.
    public struct File: Sendable, Equatable {
        public var path: String
        public var contents: String
    }

    public let name: String
    public let template: Template
    public let dependency: VitrineDependency
    /// The app's reverse-DNS id, written into its configuration (`app-id`).
    public let appID: String

    /// Checks `name` (see `validate`) and `appID`; without an id, a new one of the app's own
    /// (`uniqueAppID(for:)`), so that no two new projects share a bus name or data folder.
    public init(name: String, template: Template, dependency: VitrineDependency, appID: String? = nil) throws(ProjectScaffoldError) {
        try Self.validate(name: name)
        let appID = appID ?? Self.uniqueAppID(for: name)
        if let problem = ApplicationID.problem(with: appID) {
            throw ProjectScaffoldError("--app-id '\(appID)' is not a reverse-DNS application id such as org.example.Shop: \(problem)")
        }
        self.name = name
        self.template = template
        self.dependency = dependency
        self.appID = appID
    }

    /// `org.vitrine.app.<name>_<8 random hex digits>`: an id no other project has; the
    /// project's README says to replace it with one under the author's own domain.
    public static func uniqueAppID(for name: String) -> String {
        let suffix = String(UInt32.random(in: .min ... .max), radix: 16)
        return "org.vitrine.app.\(name)_" + String(repeating: "0", count: 8 - suffix.count) + suffix
    }

    /// A project name is a Swift identifier (it names the package, its executable target
    /// and its module): a letter or `_`, then letters, digits and `_`; at most 64; not one
    /// of Vitrine's own module names, which the project imports.
    public static func validate(name: String) throws(ProjectScaffoldError) {
        func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) }
        guard let first = name.unicodeScalars.first, first == "_" || isLetter(first),
              name.unicodeScalars.allSatisfy({ $0 == "_" || isLetter($0) || ("0"..."9").contains($0) })
        else {
            throw ProjectScaffoldError("'\(name)' is not a valid project name: use letters, digits and _, starting with a letter (it becomes the Swift module's name)")
        }
        guard name.count <= 64 else { throw ProjectScaffoldError("the project name is longer than 64 characters") }
        let taken = ["Vitrine", "VitrineGTK", "VitrineConfigFile", "CWebKitGTK", "CMosquitto", "Foundation", "Swift"]
        guard !taken.contains(name) else {
            throw ProjectScaffoldError("'\(name)' is the name of a module the project imports: choose another")
        }
    }

    /// The project's files: each template folder's files under `templates` (placeholders
    /// `__NAME__` in paths and text, `__VITRINE_PACKAGE__`, `__APP_ID__` and `__PACKAGE__`
    /// (the Debian package `vitrine bundle` names) in text; `gitignore` becomes
    /// `.gitignore`), and `web/vitrine.d.ts` from `sdkTypes`. Sorted by path.
    public func files(templates: URL, sdkTypes: URL) throws(ProjectScaffoldError) -> [File] {
        var byPath: [String: String] = [:]
        for folder in template.folders {
            let root = templates.appendingPathComponent(folder)
            for relative in try Self.filePaths(under: root) {
                let text = try Self.read(root.appendingPathComponent(relative))
                byPath[outputPath(relative)] = fill(text)
            }
        }
        byPath["web/vitrine.d.ts"] = try Self.read(sdkTypes)
        return byPath.keys.sorted().map { File(path: $0, contents: byPath[$0]!) }
    }

    private func outputPath(_ templatePath: String) -> String {
        let path = templatePath.replacing("__NAME__", with: name)
        return path == "gitignore" ? ".gitignore" : path
    }

    private func fill(_ text: String) -> String {
        text.replacing("__VITRINE_PACKAGE__", with: dependency.packageLine)
            .replacing("__APP_ID__", with: appID)
            .replacing("__PACKAGE__", with: AppPackageMetadata.defaultPackageName(for: name))
            .replacing("__NAME__", with: name)
    }

    /// The paths of the regular files under `root`, relative to it.
    private static func filePaths(under root: URL) throws(ProjectScaffoldError) -> [String] {
        guard FileSystem.isDirectory(root.path),
              let paths = try? FileManager.default.subpathsOfDirectory(atPath: root.path)
        else { throw ProjectScaffoldError("no template folder at \(root.path)") }
        return paths.filter { !FileSystem.isDirectory(root.appendingPathComponent($0).path) }
    }

    private static func read(_ url: URL) throws(ProjectScaffoldError) -> String {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ProjectScaffoldError("cannot read the template file \(url.path)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// The Vitrine checkout `resources` (a Resources folder) belongs to, if it is one: its
    /// parent holds a Package.swift naming the package "Vitrine".
    public static func vitrineCheckout(resources: URL) -> URL? {
        let root = resources.standardizedFileURL.deletingLastPathComponent()
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent("Package.swift").path),
              String(decoding: data, as: UTF8.self).contains("name: \"Vitrine\"")
        else { return nil }
        return root
    }
}

