import Foundation
import Testing
import Vitrine
import VitrineTooling

/// `vitrine bundle --rpm`'s plan: the .deb's files in the same places, and a spec file that
/// packs them as they are.
@Suite("AppPackage RPM")
struct AppPackageRPMTests {
    @Test func theRPMShipsTheDebsFilesWithoutDebiansChangelog() throws {
        let bundle = AppPackage(metadata: try AppPackageTests.metadata())
        let deb = try bundle.debEntries(AppPackageTests.inputs(), date: AppPackageTests.date).map(\.path)
        let rpm = try bundle.rpmEntries(AppPackageTests.inputs(), date: AppPackageTests.date).map(\.path)
        #expect(rpm == deb.filter { $0 != "usr/share/doc/notes/changelog.gz" })
        #expect(rpm.contains("usr/lib/notes/Notes") && rpm.contains("usr/bin/notes"))
        #expect(bundle.rpmFileName(machine: "x86_64") == "notes-1.2.0-1.x86_64.rpm")
    }

    @Test func theSpecListsTheStagedFilesAndTheSandboxesAndOneChangelogEntry() throws {
        let bundle = AppPackage(metadata: try AppPackageTests.metadata())
        let spec = try bundle.rpmSpec(AppPackageTests.inputs(), date: AppPackageTests.date)
        for line in ["Name: notes", "Version: 1.2.0", "Release: 1", "Summary: Take <notes> quickly", "License: MIT",
                     "Packager: Ada Lovelace <ada@example.com>", "Requires: bubblewrap", "Requires: xdg-dbus-proxy",
                     "Requires: libmosquitto.so.1()(64bit)", "Requires: libarchive.so.13()(64bit)",
                     "%dir /usr/lib/notes", "/usr/lib/notes/*", "/usr/bin/notes",
                     "/usr/share/applications/com.example.Notes.desktop", "/usr/share/man/man1/notes.1.gz",
                     "%license /usr/share/doc/notes/copyright",
                     "* Fri Nov 27 2026 Ada Lovelace <ada@example.com> - 1.2.0-1"] {
            #expect(spec.split(separator: "\n").contains(Substring(line)), "\(line) in\n\(spec)")
        }
        #expect(!spec.contains("changelog.gz"))
        // The app folder is one directory entry plus its contents, never listed twice.
        #expect(!spec.contains("/usr/lib/notes/Notes"))
        // No build or install section: the staged root is packed as it is.
        for section in ["%prep", "%build", "%install", "%post", "%pre"] {
            #expect(!spec.split(separator: "\n").contains { $0.hasPrefix(section) }, "\(section)")
        }
    }

    /// A title or summary is the app developer's text: it must not open a spec section (a
    /// `%post` script would run as root on every machine that installs the package: the
    /// metadata refuses a second line) or expand a macro (`%(…)` runs a shell command when
    /// rpmbuild reads the spec: every `%` is escaped).
    @Test func metadataCannotOpenASectionOrRunAMacro() throws {
        #expect(throws: AppPackageError.self) {
            try AppPackageTests.metadata(title: "Notes\n%post\nrm -rf /")
        }
        let hostile = try AppPackageMetadata(product: "Notes", appID: "com.example.Notes", version: "1.2.0",
                                            title: "Notes %(touch /tmp/pwned)", summary: "Take %{?x} notes %%{y}",
                                            maintainer: "Ada %(id) <ada@example.com>", license: "MIT %{?x}", architecture: "amd64")
        let spec = try AppPackage(metadata: hostile).rpmSpec(AppPackageTests.inputs(), date: AppPackageTests.date)
        #expect(spec.contains("Name: notes\nVersion: 1.2.0\n"))
        let unescaped = spec.replacing("%%", with: "")
        #expect(!unescaped.contains("%(") && !unescaped.contains("%{"), "every % of the app's text is escaped:\n\(spec)")
    }
}
