#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// The RPM package `vitrine bundle --rpm` builds beside the `.deb`: the same files in the
/// same places (the app folder under `/usr/lib/<package>/`, the program on the PATH, the
/// desktop entry, icon, metainfo, manual page and copyright), described by a spec file that
/// `rpmbuild -bb` packs from the staged root as it is (no build, no install scripts).
/// Requires are rpmbuild's own, from the program's ELF needs (`libwebkit2gtk-4.1.so.0()(64bit)`:
/// sonames, the same on every RPM distribution), plus the web processes' sandbox.
extension AppPackage {
    /// The RPM's entries: the `.deb`'s, without Debian's changelog (an RPM carries its
    /// changelog in its header).
    public func rpmEntries(_ inputs: Inputs, date: BundleDate) throws(AppPackageError) -> [Entry] {
        try debEntries(inputs, date: date).filter { $0.path != debianChangelogPath }
    }

    private var debianChangelogPath: String { "usr/share/doc/\(metadata.packageName)/changelog.gz" }

    /// `<package>-<version>-1.<machine>.rpm`: the version as dpkg accepts it (RPM does too),
    /// the machine as `uname -m` says it (x86_64).
    public func rpmFileName(machine: String) -> String { "\(metadata.packageName)-\(metadata.version)-1.\(machine).rpm" }

    /// The spec file: header, description, the staged files (`%files`: the app folder as one
    /// directory, the rest one by one, the copyright as the licence) and one changelog entry.
    public func rpmSpec(_ inputs: Inputs, date: BundleDate) throws(AppPackageError) -> String {
        let folder = installedFolder, path = { (path: String) in "/" + Self.specText(path) }
        var files = ["%dir " + path(folder), path(folder + "/*")]
        for entry in try rpmEntries(inputs, date: date) where !entry.path.hasPrefix(folder + "/") {
            files.append((entry.path.hasSuffix("/copyright") ? "%license " : "") + path(entry.path))
        }
        let requires = (Self.runtimeDepends + Self.rpmRuntimeRequires).map { "Requires: \($0)" }.joined(separator: "\n")
        return """
            Name: \(Self.specValue(metadata.packageName))
            Version: \(Self.specValue(metadata.version))
            Release: 1
            Summary: \(Self.specValue(metadata.summary))
            License: \(Self.specValue(metadata.license))
            Group: Applications/Productivity
            Packager: \(Self.specValue(metadata.maintainer))
            \(requires)

            %description
            \(Self.specValue(metadata.title)) is a desktop app built with Vitrine: a GTK window showing its
            web page in WebKitGTK, with its own program answering the page.

            %files
            \(files.joined(separator: "\n"))

            %changelog
            * \(Self.changelogDay(date)) \(Self.specValue(metadata.maintainer)) - \(Self.specValue(metadata.version))-1
            - Built by vitrine bundle.

            """
    }

    /// rpmlint's findings that do not apply to a package built here, with why (`addFilter`
    /// lines of an rpmlintrc): the package is signed, if at all, by whoever distributes it;
    /// Swift's FoundationEssentials (linked into every Swift program) calls `mktemp` for a
    /// temporary name and then opens it exclusively, which rpmlint cannot tell from misuse.
    public static let rpmlintFilters = ["no-signature", "call-to-mktemp"]

    /// The changelog's day, `Fri Nov 27 2026`, from the RFC 2822 date (`Fri, 27 Nov 2026 …`).
    static func changelogDay(_ date: BundleDate) -> String {
        let parts = date.rfc2822.replacing(",", with: "").split(separator: " ")
        guard parts.count >= 4 else { return date.rfc2822 }
        return "\(parts[0]) \(parts[2]) \(parts[1]) \(parts[3])"
    }

    /// A header value on one line, without `%` (a macro to rpmbuild).
    static func specValue(_ text: String) -> String {
        desktopValue(text).replacing("%", with: "%%")
    }

    /// Text in a spec's body: `%` escaped, no line that starts a section.
    static func specText(_ text: String) -> String {
        text.replacing("%", with: "%%")
    }
}
