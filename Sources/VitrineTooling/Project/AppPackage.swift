#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// What `vitrine bundle` ships of an app's package, as values: the app folder's layout, the
/// Debian package's file list and control fields, its desktop entry, AppStream metainfo,
/// manual page and documentation. Nothing is written here; the command copies the entries
/// and runs the tools (`swift build`, `dpkg-shlibdeps`, `dpkg-deb`, `tar`).
///
/// The app folder is the same in the `.deb` (`/usr/lib/<package>/`) and in the tarball
/// (`<package>-<version>/`), and finds everything relative to its program:
///
///     <Name>               the program (release build, Swift runtime inside, stripped)
///     vitrine.toml         its configuration: found next to the program (ConfigFileLocation)
///     web/                 the app's folder, where vitrine.toml's relative app-dir names it
///     vitrine-resources/   Vitrine's page SDK, error pages, keyboard layouts (ResourceLocator)
public struct AppPackage: Sendable, Equatable {
    public let metadata: AppPackageMetadata

    /// The folder beside the program holding Vitrine's own resources (see `ResourceLocator`).
    public static let resourcesFolder = ResourceLocator.besideProgramFolder
    /// The parts of Vitrine's Resources an app uses at run time (not the demo, templates or samples).
    public static let bundledResources = ["sdk", "errors", "keyboard"]
    /// The app's icon in its package's folder: the desktop entry's and the menu's.
    public static let iconFile = "icon.svg"

    public init(metadata: AppPackageMetadata) {
        self.metadata = metadata
    }

    /// Where one entry comes from.
    public enum Source: Sendable, Equatable {
        /// A file copied as is (`executable`: mode 0755, else 0644).
        case file(URL, executable: Bool)
        /// A folder copied with everything under it (files 0644, folders 0755; symbolic
        /// links are refused by the copier, so nothing outside the folder is shipped).
        case folder(URL)
        /// A file written with this text (0644).
        case text(String)
        /// A symbolic link to this (relative) target.
        case symlink(String)
        /// A file written with this text, gzip-compressed (`gzip -9n`) as Debian wants
        /// manual pages and changelogs.
        case gzippedText(String)
    }

    /// One entry: its path relative to the root it is staged in.
    public struct Entry: Sendable, Equatable {
        public var path: String
        public var source: Source

        public init(_ path: String, _ source: Source) {
            self.path = path
            self.source = source
        }
    }

    /// What the app folder is made of, on the build machine.
    public struct Inputs: Sendable, Equatable {
        /// The release build of the program.
        public var executable: URL
        /// The package's `vitrine.toml`.
        public var configFile: URL
        /// The app's web folder (the configuration's `app-dir`), if it has one.
        public var appDirectory: URL?
        /// Vitrine's Resources folder (`ResourceLocator().directory`).
        public var resources: URL
        /// The package's `icon.svg`.
        public var icon: URL
        /// The configuration's `[[sidecars]]`: their programs in the app folder are shipped.
        public var sidecars: [SidecarDeclaration]

        public init(executable: URL, configFile: URL, appDirectory: URL?, resources: URL, icon: URL, sidecars: [SidecarDeclaration] = []) {
            self.executable = executable
            self.configFile = configFile
            self.appDirectory = appDirectory
            self.resources = resources
            self.icon = icon
            self.sidecars = sidecars
        }
    }

    /// The app folder's entries, relative to it. The web folder keeps its path relative to
    /// vitrine.toml, so the copied file's relative `app-dir` names the copied folder; one
    /// outside the configuration's folder cannot be shipped beside it and is refused.
    public func appFolder(_ inputs: Inputs) throws(AppPackageError) -> [Entry] {
        var entries = [
            Entry(metadata.product, .file(inputs.executable, executable: true)),
            Entry("vitrine.toml", .file(inputs.configFile, executable: false)),
            // The running version, against which an update is strictly newer.
            Entry(UpdateSettings.versionFileName, .text(metadata.version + "\n")),
        ]
        if let appDirectory = inputs.appDirectory {
            let base = inputs.configFile.deletingLastPathComponent().standardizedFileURL.pathComponents
            let folder = appDirectory.standardizedFileURL.pathComponents
            guard folder.count > base.count, Array(folder.prefix(base.count)) == base else {
                throw AppPackageError("the app's folder \(appDirectory.path) is not inside \(inputs.configFile.deletingLastPathComponent().path): vitrine.toml's app-dir must name a folder beside it to be bundled")
            }
            let relative = folder.dropFirst(base.count).joined(separator: "/")
            guard relative != Self.resourcesFolder, relative != metadata.product, relative != UpdateSettings.versionFileName else {
                throw AppPackageError("the app's folder cannot be named \(relative): the bundle's program or Vitrine's resources have that name")
            }
            entries.append(Entry(relative, .folder(appDirectory)))
        }
        entries += try sidecarEntries(inputs, taken: entries.map(\.path) + [Self.resourcesFolder])
        for part in Self.bundledResources {
            entries.append(Entry("\(Self.resourcesFolder)/\(part)", .folder(inputs.resources.appendingPathComponent(part))))
        }
        return entries
    }

    /// The app folder inside the Debian package.
    public var installedFolder: String { "usr/lib/\(metadata.packageName)" }

    /// The Debian package's entries, relative to its root: the app folder under
    /// `/usr/lib/<package>/`, the program on the PATH as `/usr/bin/<package>`, and the desktop
    /// entry, icon and metainfo under the app id, a manual page, the copyright and changelog.
    public func debEntries(_ inputs: Inputs, date: BundleDate) throws(AppPackageError) -> [Entry] {
        let package = metadata.packageName
        var entries = try appFolder(inputs).map { Entry("\(installedFolder)/\($0.path)", $0.source) }
        entries += [
            Entry("usr/bin/\(package)", .symlink("../lib/\(package)/\(metadata.product)")),
            Entry("usr/share/applications/\(metadata.appID).desktop", .text(desktopEntry)),
            Entry("usr/share/icons/hicolor/scalable/apps/\(metadata.appID).svg", .file(inputs.icon, executable: false)),
            Entry("usr/share/metainfo/\(metadata.appID).metainfo.xml", .text(metainfo(date: date))),
            Entry("usr/share/man/man1/\(package).1.gz", .gzippedText(manPage)),
            Entry("usr/share/doc/\(package)/copyright", .text(copyright)),
            Entry("usr/share/doc/\(package)/changelog.gz", .gzippedText(changelog(date: date))),
        ]
        return entries
    }

    /// The tarball's entries, under its one top folder `<package>-<version>/`: the app
    /// folder (run `./<Name>` from wherever it is unpacked), its icon and desktop entry.
    public func tarballEntries(_ inputs: Inputs) throws(AppPackageError) -> [Entry] {
        try appFolder(inputs).map { Entry("\(tarballFolder)/\($0.path)", $0.source) } + [
            Entry("\(tarballFolder)/\(metadata.appID).svg", .file(inputs.icon, executable: false)),
            Entry("\(tarballFolder)/\(metadata.appID).desktop", .text(desktopEntry)),
        ]
    }

    public var debFileName: String { "\(metadata.packageName)_\(metadata.version)_\(metadata.architecture).deb" }
    public var tarballFolder: String { "\(metadata.packageName)-\(metadata.version)" }
    /// `<package>-<version>-<machine>.tar.gz` (the machine as `uname -m` says it: x86_64).
    public func tarballName(machine: String) -> String { "\(tarballFolder)-\(machine).tar.gz" }

    /// The packages every bundled app needs besides the shared libraries `dpkg-shlibdeps`
    /// finds: the web processes' sandbox, on unless `[security] sandbox = false`.
    public static let runtimeDepends = ["bubblewrap", "xdg-dbus-proxy"]
    /// What the `.deb` alone adds, under Debian's names: GdkPixbuf's SVG loader, for an SVG
    /// tray icon (as Vitrine's own debian/control has it), and the libraries the program
    /// opens on first use, which `dpkg-shlibdeps` cannot see (libmosquitto for MQTT,
    /// libarchive for playlist bundles). RPM distributions name them otherwise.
    public static let debianRuntimeDepends = ["librsvg2-common", "libmosquitto1", "libarchive13"]
    /// The libraries opened on first use, as an RPM requires them (by soname, the same on
    /// every RPM distribution): rpmbuild's ELF scan cannot see them either.
    public static let rpmRuntimeRequires = ["libmosquitto.so.1()(64bit)", "libarchive.so.13()(64bit)"]

    /// What `vitrine bundle` prints for a file it wrote: its path and size in KiB, rounded
    /// up (the path alone if the file cannot be read: never a made-up size). The size comes
    /// from stat: FoundationEssentials' `attributesOfItem` holds `.size` as another integer
    /// type than `Int`, which an `as? Int` cast read as nothing (every file "0 KiB").
    public static func writtenLine(_ path: String) -> String {
        guard let bytes = FileSystem.size(path) else { return path }
        return "\(path) (\((bytes + 1023) / 1024) KiB)"
    }

    /// `DEBIAN/control`: `shlibsDepends` is what `dpkg-shlibdeps` computed (its
    /// `shlibs:Depends=` value); `installedSize` in KiB, as dpkg counts it.
    public func control(shlibsDepends: String, installedSize: Int) -> String {
        let depends = shlibsDepends.split(separator: ",").map { $0.trimmingWhitespace }.filter { !$0.isEmpty }
            + Self.runtimeDepends + Self.debianRuntimeDepends
        return """
            Package: \(metadata.packageName)
            Version: \(metadata.version)
            Architecture: \(metadata.architecture)
            Maintainer: \(metadata.maintainer)
            Installed-Size: \(installedSize)
            Depends: \(depends.joined(separator: ", "))
            Section: misc
            Priority: optional
            Description: \(metadata.summary)
             \(metadata.title) is a desktop app built with Vitrine: a GTK window showing its
             web page in WebKitGTK, with its own program answering the page.

            """
    }

    /// The desktop entry, `<app-id>.desktop`: the program on the PATH, the icon and the
    /// window class under the app id (the window's WM_CLASS is the app id).
    public var desktopEntry: String {
        """
        [Desktop Entry]
        Type=Application
        Name=\(Self.desktopValue(metadata.title))
        Comment=\(Self.desktopValue(metadata.summary))
        Exec=\(metadata.packageName)
        Icon=\(metadata.appID)
        Terminal=false
        Categories=Utility;
        StartupNotify=true
        StartupWMClass=\(metadata.appID)

        """
    }

    /// AppStream metainfo, `<app-id>.metainfo.xml`.
    public func metainfo(date: BundleDate) -> String {
        let xml = Self.xmlText
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <component type="desktop-application">
              <id>\(xml(metadata.appID))</id>
              <metadata_license>CC0-1.0</metadata_license>
              <project_license>\(xml(metadata.license))</project_license>
              <name>\(xml(metadata.title))</name>
              <summary>\(xml(metadata.summary))</summary>
              <description>
                <p>\(xml(metadata.title)) is a desktop app built with Vitrine.</p>
              </description>
              <launchable type="desktop-id">\(xml(metadata.appID)).desktop</launchable>
              <provides>
                <binary>\(xml(metadata.packageName))</binary>
              </provides>
              <content_rating type="oars-1.1"/>
              <releases>
                <release version="\(xml(metadata.version))" date="\(date.day)"/>
              </releases>
            </component>

            """
    }

    /// A manual page stub, `<package>(1)`: the program's own options and where it looks for
    /// its configuration.
    public var manPage: String {
        let roff = Self.roffText
        return """
            .TH \(roff(metadata.packageName.uppercased())) 1 "" "\(roff(metadata.packageName)) \(roff(metadata.version))" "User Commands"
            .SH NAME
            \(roff(metadata.packageName)) \\- \(roff(metadata.summary))
            .SH SYNOPSIS
            .B \(roff(metadata.packageName))
            [\\fB\\-\\-config\\fR \\fIfile\\fR] [\\fB\\-\\-screenshot\\fR \\fIfile\\fR] [\\fB\\-\\-exit\\-after\\-load\\fR] [\\fB\\-\\-automation\\fR]
            .SH DESCRIPTION
            \(roff(metadata.title)) opens its window: a web page shown by WebKitGTK, answered by the program.
            .PP
            Its configuration is the first of: the file \\fB\\-\\-config\\fR names;
            .I /\(installedFolder)/vitrine.toml
            (next to the program);
            .IR $XDG_CONFIG_HOME/\(roff(metadata.appID))/vitrine.toml .
            .SH OPTIONS
            .TP
            .BI \\-\\-config " file"
            Read this configuration file.
            .TP
            .BI \\-\\-screenshot " file"
            Write a PNG of the page once it has loaded, then end.
            .TP
            .B \\-\\-exit\\-after\\-load
            End once the page has loaded and its bridge is up (status 0; 2 if not within 60 s).
            .TP
            .B \\-\\-automation
            Be driven by WebDriver, through WebKitWebDriver.

            """
    }

    /// `/usr/share/doc/<package>/copyright`: the app's own notice, and the licence of the
    /// Vitrine runtime and Swift runtime linked into the program.
    public var copyright: String {
        """
        \(metadata.title) (\(metadata.packageName))

        Copyright: \(metadata.maintainer)
        License: \(metadata.license)

        The program contains the Vitrine libraries and the Swift runtime, both under the
        Apache License 2.0 (with the Runtime Library Exception for Swift). On Debian systems
        the full text of the Apache License 2.0 is in /usr/share/common-licenses/Apache-2.0.

        """
    }

    /// The Debian changelog, one entry for this version.
    public func changelog(date: BundleDate) -> String {
        """
        \(metadata.packageName) (\(metadata.version)) unstable; urgency=medium

          * Built by vitrine bundle.

         -- \(metadata.maintainer)  \(date.rfc2822)

        """
    }

    /// A desktop entry's value on one line (the format has no line breaks in values).
    static func desktopValue(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    static func xmlText(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
            .replacing("\"", with: "&quot;")
    }

    /// Text safe in a roff line: backslashes escaped, hyphens as minus signs, and no line
    /// starting with a control character.
    static func roffText(_ text: String) -> String {
        let escaped = text.split(whereSeparator: \.isNewline).joined(separator: " ")
            .replacing("\\", with: "\\e").replacing("-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }
}

/// The build's date, as the metainfo (`2026-11-27`) and the changelog (RFC 2822) write it.
public struct BundleDate: Sendable, Equatable {
    public var day: String
    public var rfc2822: String

    public init(day: String, rfc2822: String) {
        self.day = day
        self.rfc2822 = rfc2822
    }
}

/// Why `vitrine bundle` cannot ship the app.
public struct AppPackageError: Error, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
