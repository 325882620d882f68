import Foundation
import Testing
import VitrineTestSupport

/// The commands the documentation gives — in `sh` blocks and in inline code — against what
/// exists: `vitrine`'s subcommands and flags at any depth, the Makefiles' targets, and the
/// packaging tools and packages the Makefile installs.
extension DocumentationBlocksTests {
    static let packagingCommands: Set<String> = ["apt", "apt-get", "dpkg", "dpkg-buildpackage", "dpkg-deb",
                                                  "dpkg-shlibdeps", "lintian", "rpmbuild", "rpmlint", "debuild"]

    private var commands: [DocumentedCommands.Command] {
        DocumentedCommands(documentation, inlineFor: Self.packagingCommands.union(["vitrine", "make"])).all
    }

    /// Each `vitrine` command names subcommands that exist, at any depth (`fleet push`), and
    /// only flags its command's `--help` lists. A first word that is no subcommand is the
    /// default `open`'s URL, so it must read as one (a URL, a path or a PLACEHOLDER).
    @Test func everyVitrineCommandUsesRealSubcommandsAndFlags() throws {
        let tree = VitrineCommandTree(run: vitrine)
        #expect(try tree.subcommands([]).contains("bundle") && tree.subcommands(["fleet"]).contains("push"))
        var checked = 0
        for command in commands {
            guard let first = command.words.first, first == "vitrine" || first.hasSuffix("/vitrine") else { continue }
            let words = Array(command.words.dropFirst())
            var path: [String] = []
            while let next = words.dropFirst(path.count).first, next.wholeMatch(of: /[a-z][a-z0-9-]*/) != nil {
                if next == "help" { path.append(next); break }
                guard try tree.help(path + [next]) != nil else { break }
                path.append(next)
            }
            if let argument = words.dropFirst(path.count).first, !argument.hasPrefix("-"), argument != "SUBSTITUTED" {
                if path.isEmpty {
                    let readsAsURL = argument.contains { "/:.~$<".contains($0) } || argument == argument.uppercased()
                    #expect(readsAsURL, "\(command): vitrine has no subcommand \(argument)")
                } else if path != ["help"] {
                    let subcommands = try tree.subcommands(path)
                    let hasDefault = try tree.help(path)?.contains("(default)") ?? false
                    #expect(subcommands.isEmpty || hasDefault,
                            "\(command): vitrine \(path.joined(separator: " ")) has no subcommand \(argument) (\(subcommands))")
                }
            }
            if path != ["help"], let help = try tree.help(path.isEmpty ? ["open"] : path) {
                for flag in words where flag.hasPrefix("--") && flag.count > 2 {
                    let name = String(flag.split(separator: "=")[0])
                    if name == "--help" || name == "--version" { continue }
                    #expect(help.contains(name), "\(command): vitrine \(path.joined(separator: " ")) has no \(name)")
                }
            }
            checked += 1
        }
        #expect(checked >= 40)
    }

    /// Each `make TARGET` is a target of the Makefile, or of the one a `vitrine new` project
    /// gets (the app developers' pages run those in their project). The Makefile includes
    /// packaging/pkg-config.mk's targets.
    @Test func everyMakeTargetExists() throws {
        let makefile = try ["Makefile", "packaging/pkg-config.mk", "Resources/templates/app/Makefile"].map {
            try String(contentsOf: Documentation.root.appendingPathComponent($0), encoding: .utf8)
        }.joined(separator: "\n")
        let targets = Set(makefile.split(separator: "\n").compactMap { line -> String? in
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("\t"), !line.hasPrefix("#") else { return nil }
            let name = line[..<colon]
            return name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) ? String(name) : nil
        })
        var checked = 0
        for command in commands where command.words.first == "make" {
            for target in command.words.dropFirst() where !target.contains("=") && !target.hasPrefix("-") {
                #expect(targets.contains(target), "\(command): no make target \(target)")
                checked += 1
            }
        }
        #expect(checked >= 20)
    }

    /// A packaging tool (`dpkg-buildpackage`, `lintian`, `rpmbuild`…) is installed here by a
    /// package the Makefile installs; `apt install` installs packages the Makefile names, or
    /// a `.deb` that `make deb` (`out/`, this version) or `vitrine bundle` (`dist/`) writes.
    @Test func everyPackagingCommandIsAToolOrPackageTheMakefileNames() throws {
        let makefile = try String(contentsOf: Documentation.root.appendingPathComponent("Makefile"), encoding: .utf8)
        var packages = Set<String>()
        for line in makefile.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n") {
            guard let match = line.wholeMatch(of: /([A-Z_]*PACKAGES|DEB_TOOLS)\s*\+?:?=(.*)/) else { continue }
            packages.formUnion(match.2.split(separator: " ").map(String.init))
        }
        let changelog = try String(contentsOf: Documentation.root.appendingPathComponent("debian/changelog"), encoding: .utf8)
        let version = try #require(changelog.firstMatch(of: /\(([^)]+)\)/)).1
        var checked = 0
        for command in commands {
            guard let tool = command.words.first, Self.packagingCommands.contains(tool) else { continue }
            checked += 1
            if tool == "apt" || tool == "apt-get" {
                // `apt-get update`, or the tool named alone: nothing is installed.
                guard command.words.dropFirst().first == "install" else { continue }
                for argument in command.words.dropFirst(2) where !argument.hasPrefix("-") {
                    if argument.hasSuffix(".deb") {
                        let name = URL(fileURLWithPath: argument).lastPathComponent
                        let made = name.hasPrefix("vitrine_\(version)_") || argument.hasPrefix("./dist/")
                        #expect(made, "\(command): \(argument) is neither make deb's (vitrine_\(version)_…) nor vitrine bundle's")
                    } else {
                        #expect(packages.contains(argument), "\(command): the Makefile installs no package \(argument)")
                    }
                }
                continue
            }
            let found = try runProcess("/bin/sh", ["-c", "dpkg -S \"$(command -v \(tool))\""], timeout: 30)
            let package = found.stdout.split(separator: ":").first.map(String.init) ?? ""
            // dpkg itself (dpkg-deb) is Essential: on every Debian system.
            let essential = try runProcess("/usr/bin/dpkg-query", ["-W", "-f", "${Essential}", package], timeout: 30).stdout == "yes"
            #expect(found.status == 0 && (packages.contains(package) || essential),
                    "\(command): \(tool) is not installed by a package the Makefile names (\(found.stdout)\(found.stderr))")
        }
        #expect(checked >= 8)
    }
}
