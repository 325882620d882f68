import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
import VitrineConfigFile
import VitrineGTK
import VitrineTooling

/// `vitrine bundle [DIR]`: in an app's package (a `vitrine new` project), the release build
/// of its program and, in `dist/`, a Debian package and a relocatable tarball. What goes
/// where is `AppPackage`'s plan; this command only runs the tools.
struct BundleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Build your app's package in release and write a .deb and a relocatable tarball into dist/.",
        discussion: """
            Run in a `vitrine new` project (DIR, default .). Ships the program with its \
            vitrine.toml, its web folder and Vitrine's SDK beside it (/usr/lib/PACKAGE/ in the \
            .deb, PACKAGE-VERSION/ in the tarball), a desktop entry, icon (the package's \
            icon.svg) and AppStream metainfo under the app id, and a manual page. The .deb's \
            Depends come from dpkg-shlibdeps; lintian checks it (errors fail the command).
            """)

    @Argument(help: ArgumentHelp("The app's package (default: .).", valueName: "dir"))
    var target: String = "."

    @Option(help: ArgumentHelp("The program to bundle (default: the one Sources/NAME/main.swift).", valueName: "name"))
    var product: String?

    @Option(help: ArgumentHelp("swift build's build folder (default: .build in the package).", valueName: "dir"))
    var scratchPath: String?

    @Option(name: .customLong("app-version"), help: ArgumentHelp("The app's version.", valueName: "version"))
    var appVersion: String = "0.1.0"

    @Option(help: ArgumentHelp("The package's maintainer, \"Full Name <email>\" (default: $DEBFULLNAME <$DEBEMAIL>).", valueName: "who"))
    var maintainer: String?

    @Option(help: ArgumentHelp("One line saying what the app is (default: the title's).", valueName: "text"))
    var summary: String?

    @Option(help: ArgumentHelp("The app's licence, an SPDX expression.", valueName: "spdx"))
    var license: String = "LicenseRef-proprietary"

    @Option(help: ArgumentHelp("The Debian package's name, also the program's on the PATH (default: the program's in lower case).", valueName: "name"))
    var packageName: String?

    @Option(help: ArgumentHelp("Where the .deb and the tarball are written (default: dist in the package).", valueName: "dir"))
    var output: String?

    @Flag(help: "Also build an RPM package (needs rpmbuild: Debian's rpm package; rpmlint checks it when installed).")
    var rpm = false

    @Flag(help: "Do not run lintian on the .deb (nor rpmlint on the .rpm).")
    var noLintian = false

    @Option(help: ArgumentHelp("Write a new update signing key pair, FILE (secret, mode 0600) and FILE.pub, and stop.", valueName: "file"))
    var newKey: String?

    @Option(help: ArgumentHelp("Sign the packages with this key (from --new-key) into dist/update.json, the apps' update feed.", valueName: "file"))
    var signKey: String?

    @Option(help: ArgumentHelp("With --sign-key: the https URL where dist/'s files are published.", valueName: "url"))
    var updateURL: String?

    @Option(help: ArgumentHelp("With --sign-key: the release's channel, matched by the apps' [update] channel.", valueName: "name"))
    var channel: String = "stable"

    @Option(help: ArgumentHelp("With --sign-key: the release notes the app's page is shown.", valueName: "text"))
    var notes: String = ""

    @Flag(help: "With --sign-key: sign the packages already in dist/ for --app-version, without building.")
    var signOnly = false

    func run() throws {
        if let newKey { return try writeNewKey(at: newKey) }
        let updateKey = try signingKey()
        guard let project = try DevProject(folder: URL(fileURLWithPath: target), product: product,
                                           scratchPath: scratchPath.map { URL(fileURLWithPath: $0) })
        else { throw RuntimeFailure("\(target) has no Package.swift: run vitrine bundle in your app's package (made by vitrine new)") }
        let configFile = project.folder.appendingPathComponent(ConfigFileLocation.fileName)
        let configuration: Configuration
        switch Result(catching: { () throws(ConfigFileError) in try ConfigFile(path: configFile.path).configuration() }) {
        case .success(let built): configuration = built
        case .failure(let error):
            for problem in error.allErrors { printToStandardError(problem.description) }
            throw ExitCode.failure
        }
        guard !configuration.applicationIDIsDerived, configuration.applicationID != ApplicationID.stock else {
            throw RuntimeFailure("\(configFile.path) names no app-id: a bundled app needs its own (app-id = \"com.example.\(project.product)\")")
        }
        if configuration.developerTools {
            printToStandardError("vitrine bundle: warning: \(configFile.path) turns developer-tools on: the shipped app opens the web inspector (set developer-tools = false to ship it without)")
        }
        let icon = project.folder.appendingPathComponent(AppPackage.iconFile)
        guard FileSystem.isRegularFile(icon.path) else {
            throw RuntimeFailure("\(icon.path) is missing: the app's icon (an SVG), shown in the menu and the window list")
        }
        let bundle = try AppPackage(metadata: AppPackageMetadata(
            product: project.product, appID: configuration.applicationID, packageName: packageName, version: appVersion,
            title: configuration.title, summary: summary ?? "Desktop app \(configuration.title)", // never the package name first (lintian)
            maintainer: try maintainer ?? Self.maintainerFromEnvironment(), license: license,
            architecture: try tool(["dpkg", "--print-architecture"]).trimmingWhitespace))
        let dist = output.map { URL(fileURLWithPath: $0).standardizedFileURL } ?? project.folder.appendingPathComponent("dist")

        let machine = try tool(["uname", "-m"]).trimmingWhitespace
        var packages: [(UpdateFormat, URL)] = [(.deb, dist.appendingPathComponent(bundle.debFileName)),
                                               (.tarball, dist.appendingPathComponent(bundle.tarballName(machine: machine)))]
        if rpm { packages.append((.rpm, dist.appendingPathComponent(bundle.rpmFileName(machine: machine)))) }
        if !signOnly {
            let executable = try build(project)
            let inputs = AppPackage.Inputs(executable: executable, configFile: configFile,
                                          appDirectory: configuration.appDirectory?.path, resources: ResourceLocator().directory, icon: icon,
                                          sidecars: configuration.sidecars)
            try FileManager.default.createDirectory(at: dist, withIntermediateDirectories: true)
            let deb = try debianPackage(bundle, inputs, in: dist)
            let tarball = try relocatableTarball(bundle, inputs, in: dist)
            if rpm {
                let package = try rpmPackage(bundle, inputs, in: dist)
                print(AppPackage.writtenLine(package.path))
            }
            print(AppPackage.writtenLine(deb.path))
            print(AppPackage.writtenLine(tarball.path))
        }
        if let updateKey {
            print(AppPackage.writtenLine(try writeUpdateFeed(bundle, files: packages, key: updateKey, in: dist).path))
        }
    }

    /// `$DEBFULLNAME <$DEBEMAIL>` (or `$DEBEMAIL` alone when it has both), as Debian's tools read them.
    static func maintainerFromEnvironment() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        if let email = environment["DEBEMAIL"], !email.isEmpty {
            if email.contains("<") { return email }
            if let name = environment["DEBFULLNAME"], !name.isEmpty { return "\(name) <\(email)>" }
        }
        throw RuntimeFailure("who maintains the package? give --maintainer \"Full Name <you@example.com>\" (or set DEBFULLNAME and DEBEMAIL)")
    }

    /// `swift build -c release` with the Swift runtime linked in (Debian has no Swift
    /// runtime package), linked as Vitrine's own package is (lld, packed relocations,
    /// read-only relocations bound at start: Debian's hardening).
    /// Keeps Foundation's internationalization (34 MB of ICU data) out, as the `vitrine`
    /// package does (packaging/release-build.mk): TOMLKit's `import Foundation` alone would link it.
    static let withoutFullFoundation = ["Foundation", "FoundationInternationalization", "_FoundationICU", "CoreFoundation"]
        .flatMap { ["-Xswiftc", "-Xfrontend", "-Xswiftc", "-disable-autolink-library", "-Xswiftc", "-Xfrontend", "-Xswiftc", $0] }

    private func build(_ project: DevProject) throws -> URL {
        let arguments = ["swift", "build", "-c", "release", "--static-swift-stdlib",
                         "--package-path", project.folder.path, "--scratch-path", project.scratchPath.path,
                         "--product", project.product, "--pkg-config-path", project.pkgConfigPath,
                         "-Xswiftc", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                         "-Xlinker", "-z", "-Xlinker", "relro", "-Xlinker", "-z", "-Xlinker", "now"]
            + Self.withoutFullFoundation
        do { try FlatPkgConfigFolder(path: project.pkgConfigPath).refresh() } catch { throw RuntimeFailure("cannot prepare the build: \(error)") }
        printToStandardError("vitrine bundle: " + arguments.joined(separator: " "))
        guard try run(arguments, showsOutput: true).status == 0 else { throw RuntimeFailure("the release build failed (its errors are above)") }
        return project.scratchPath.appendingPathComponent("release").appendingPathComponent(project.product)
    }

    /// Stages the package's files, strips the program, computes Depends, builds the .deb
    /// with root as every file's owner, and has lintian check it.
    private func debianPackage(_ bundle: AppPackage, _ inputs: AppPackage.Inputs, in dist: URL) throws -> URL {
        let root = dist.appendingPathComponent(".deb-root")
        try? FileManager.default.removeItem(at: root)
        defer { try? FileManager.default.removeItem(at: root) }
        let date = BundleDate(day: try tool(["date", "-u", "+%F"]).trimmingWhitespace,
                              rfc2822: try tool(["date", "-u", "-R"]).trimmingWhitespace)
        try stager(root).stage(bundle.debEntries(inputs, date: date))
        let program = root.appendingPathComponent(bundle.installedFolder).appendingPathComponent(bundle.metadata.product)
        try stripProgram(program)

        // dpkg-shlibdeps reads debian/control in its working folder: a minimal one of its own.
        let shlibs = dist.appendingPathComponent(".shlibdeps")
        try? FileManager.default.removeItem(at: shlibs)
        defer { try? FileManager.default.removeItem(at: shlibs) }
        try FileManager.default.createDirectory(at: shlibs.appendingPathComponent("debian"), withIntermediateDirectories: true)
        try Data("Source: \(bundle.metadata.packageName)\n\nPackage: \(bundle.metadata.packageName)\nArchitecture: any\n".utf8)
            .write(to: shlibs.appendingPathComponent("debian/control"))
        let substvars = try tool(["dpkg-shlibdeps", "-O", "-e" + program.path], in: shlibs.path)
        let depends = substvars.split(separator: "\n").first { $0.hasPrefix("shlibs:Depends=") }
            .map { String($0.dropFirst("shlibs:Depends=".count)) } ?? ""

        let installedSize = Int(try tool(["du", "-s", "-k", "--apparent-size", root.path]).split(separator: "\t").first ?? "") ?? 0
        let control = root.appendingPathComponent("DEBIAN")
        try FileManager.default.createDirectory(at: control, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try Data(bundle.control(shlibsDepends: depends, installedSize: installedSize).utf8).write(to: control.appendingPathComponent("control"))
        let sums = try tool(["sh", "-c", "find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum"], in: root.path)
        try Data(sums.utf8).write(to: control.appendingPathComponent("md5sums"))

        let deb = dist.appendingPathComponent(bundle.debFileName)
        try tool(["dpkg-deb", "--root-owner-group", "-Zxz", "--build", root.path, deb.path])
        if !noLintian {
            // Errors fail; warnings and notes are shown.
            guard try run(["lintian", "--fail-on", "error", deb.path], showsOutput: true).status == 0 else {
                throw RuntimeFailure("lintian found errors in \(deb.path) (above)")
            }
        }
        return deb
    }

    /// The app folder under `<package>-<version>/`, packed with root as every file's owner.
    private func relocatableTarball(_ bundle: AppPackage, _ inputs: AppPackage.Inputs, in dist: URL) throws -> URL {
        let root = dist.appendingPathComponent(".tar-root")
        try? FileManager.default.removeItem(at: root)
        defer { try? FileManager.default.removeItem(at: root) }
        try stager(root).stage(bundle.tarballEntries(inputs))
        try stripProgram(root.appendingPathComponent(bundle.tarballFolder).appendingPathComponent(bundle.metadata.product))
        let tarball = dist.appendingPathComponent(bundle.tarballName(machine: try tool(["uname", "-m"]).trimmingWhitespace))
        try tool(["tar", "--owner=0", "--group=0", "--numeric-owner", "--sort=name", "-czf", tarball.path,
                  "-C", root.path, bundle.tarballFolder])
        return tarball
    }

    /// The same files as the .deb, packed by `rpmbuild -bb` from the staged root (Requires
    /// from the program's ELF needs), and checked by rpmlint when it is installed.
    private func rpmPackage(_ bundle: AppPackage, _ inputs: AppPackage.Inputs, in dist: URL) throws -> URL {
        let root = dist.appendingPathComponent(".rpm-root"), work = dist.appendingPathComponent(".rpm-build")
        for folder in [root, work] { try? FileManager.default.removeItem(at: folder) }
        defer { for folder in [root, work] { try? FileManager.default.removeItem(at: folder) } }
        let date = BundleDate(day: try tool(["date", "-u", "+%F"]).trimmingWhitespace,
                              rfc2822: try tool(["date", "-u", "-R"]).trimmingWhitespace)
        try stager(root).stage(bundle.rpmEntries(inputs, date: date))
        try stripProgram(root.appendingPathComponent(bundle.installedFolder).appendingPathComponent(bundle.metadata.product))
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let spec = work.appendingPathComponent("\(bundle.metadata.packageName).spec")
        try Data(bundle.rpmSpec(inputs, date: date).utf8).write(to: spec)
        let name = bundle.rpmFileName(machine: try tool(["uname", "-m"]).trimmingWhitespace)
        guard try run(["rpmbuild", "-bb", "--noclean", "--buildroot", root.path,
                       "--define", "_topdir \(work.path)", "--define", "_rpmdir \(dist.path)",
                       "--define", "_build_name_fmt \(name)", spec.path], showsOutput: true).status == 0 else {
            throw RuntimeFailure("rpmbuild could not build \(name) (above)")
        }
        let package = dist.appendingPathComponent(name)
        if !noLintian, (try? run(["rpmlint", "--version"]))?.status == 0 {
            let rc = work.appendingPathComponent("rpmlintrc")
            try Data(AppPackage.rpmlintFilters.map { "addFilter(\"\($0)\")\n" }.joined().utf8).write(to: rc)
            guard try run(["rpmlint", "-r", rc.path, package.path], showsOutput: true).status == 0 else {
                throw RuntimeFailure("rpmlint found errors in \(package.path) (above)")
            }
        }
        return package
    }

    /// Strips the program and drops SwiftPM's `RUNPATH $ORIGIN` (nothing is loaded from
    /// beside it; lintian calls a custom search path an error).
    private func stripProgram(_ program: URL) throws {
        try tool(["strip", "--remove-section=.comment", "--remove-section=.note", program.path])
        try tool(["chrpath", "--delete", program.path])
    }

    private func stager(_ root: URL) -> PackageStager {
        PackageStager(root: root) { plain in try tool(["gzip", "-9n", plain.path]) }
    }

    private func run(_ arguments: [String], in folder: String? = nil, showsOutput: Bool = false) throws -> ToolRun.Result {
        do {
            return try ToolRun.run(arguments, in: folder, showsOutput: showsOutput)
        } catch {
            throw RuntimeFailure("\(error.description) (vitrine bundle needs dpkg-dev, lintian, binutils, chrpath and the Swift toolchain: sudo apt install dpkg-dev lintian binutils chrpath; --rpm needs rpm)")
        }
    }

    /// A tool that must succeed; its standard output.
    @discardableResult
    private func tool(_ arguments: [String], in folder: String? = nil) throws -> String {
        let result = try run(arguments, in: folder)
        guard result.status == 0 else { throw RuntimeFailure("\(arguments.joined(separator: " ")) failed (status \(result.status))") }
        return result.output
    }
}
