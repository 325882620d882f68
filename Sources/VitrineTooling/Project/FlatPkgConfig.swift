// Tools/flat-pkg-config compiles these files together with the core's file helpers, in
// one module of their own: no Vitrine to import there.
#if canImport(Vitrine)
import Vitrine
#endif

/// One system library's `.pc` file for SwiftPM, flattened: the compiler and linker flags
/// `pkg-config --cflags --libs NAME` resolves (every `Requires:` already followed), keeping
/// only those SwiftPM passes on (`-I`, `-F`; `-L`, `-l`, `-F`, `-framework`, `-w`), with no
/// `Requires:` of its own.
///
/// SwiftPM reads a `pkgConfig:` system library's `.pc` files itself and drops any other flag
/// with a `warning: prohibited flag(s)` — GLib's `-pthread` and GModule's
/// `-Wl,--export-dynamic` in every build that links WebKitGTK. Found first through `swift
/// build --pkg-config-path FOLDER`, the flattened file gives SwiftPM the same flags with
/// nothing to drop. (The build loses nothing: glibc has the threads, and the program
/// exports what it needs on its own.)
public struct FlatPkgConfig: Sendable, Equatable {
    /// The `pkgConfig:` names of Vitrine's system libraries (Package.swift), which every
    /// package that depends on Vitrine asks for.
    public static let vitrineLibraries = ["webkit2gtk-4.1", "libgcrypt"]

    /// The package's name (`webkit2gtk-4.1`): the file is `NAME.pc`.
    public let name: String
    public let version: String
    public let cFlags: [String]
    public let libs: [String]
    /// The flags left out, which SwiftPM would have dropped (and warned about).
    public let dropped: [String]

    /// The file for `name` from pkg-config's answers to `--modversion`, `--cflags` and `--libs`.
    public init(name: String, version: String, cflagsOutput: String, libsOutput: String) throws(FlatPkgConfigError) {
        guard Self.isPackageName(name) else { throw FlatPkgConfigError("'\(name)' is not a pkg-config package name") }
        let version = version.trimmingWhitespace
        guard !version.isEmpty, version.allSatisfy({ $0.isLetter || $0.isNumber || ".-_+~".contains($0) }) else {
            throw FlatPkgConfigError("pkg-config gave \(name) the version '\(version)'")
        }
        let compile = Self.keep(try Self.arguments(cflagsOutput), allowed: ["-I", "-F"])
        let link = Self.keep(try Self.arguments(libsOutput), allowed: ["-L", "-l", "-F", "-framework", "-w"])
        for flag in compile.kept + link.kept where !Self.isWritable(flag) {
            throw FlatPkgConfigError("\(name)'s flag '\(flag)' cannot be written in a .pc file")
        }
        self.name = name
        self.version = version
        self.cFlags = compile.kept
        self.libs = link.kept
        self.dropped = compile.dropped + link.dropped
    }

    /// The file's text: the resolved flags, no variables and no `Requires:`.
    public var text: String {
        """
        # \(name) as pkg-config resolves it, without the flags SwiftPM drops; written by vitrine.
        Name: \(name)
        Description: \(name), flattened for swift build --pkg-config-path
        Version: \(version)
        Cflags: \(cFlags.map(Self.escaped).joined(separator: " "))
        Libs: \(libs.map(Self.escaped).joined(separator: " "))

        """
    }

    /// The file's name in its folder.
    public var fileName: String { name + ".pc" }

    /// A pkg-config package name: what may name a file in a folder and an argument of pkg-config.
    public static func isPackageName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix("-") && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._+-".unicodeScalars.contains($0)) }
    }

    /// pkg-config's output split as a shell splits it (pkg-config escapes a space in a path
    /// with a backslash; quotes are honoured too). An unterminated quote is an error.
    public static func arguments(_ output: String) throws(FlatPkgConfigError) -> [String] {
        var arguments: [String] = []
        var current = ""
        var inArgument = false
        var quote: Character?
        var escaped = false
        for character in output {
            if escaped {
                current.append(character)
                escaped = false
            } else if let open = quote {
                if character == open { quote = nil } else if character == "\\" && open == "\"" { escaped = true } else { current.append(character) }
            } else if character == "\\" {
                escaped = true
                inArgument = true
            } else if character == "\"" || character == "'" {
                quote = character
                inArgument = true
            } else if character.isWhitespace {
                if inArgument { arguments.append(current) }
                current = ""
                inArgument = false
            } else {
                current.append(character)
                inArgument = true
            }
        }
        guard quote == nil, !escaped else { throw FlatPkgConfigError("pkg-config's output ends inside a quote: \(output)") }
        if inArgument { arguments.append(current) }
        return arguments
    }

    /// The flags SwiftPM keeps (its allow-list, prefixes; a bare `-I`/`-L`… takes the next
    /// argument as its value) and those it drops.
    static func keep(_ flags: [String], allowed: [String]) -> (kept: [String], dropped: [String]) {
        var kept: [String] = []
        var dropped: [String] = []
        var index = 0
        while index < flags.count {
            let flag = flags[index]
            index += 1
            guard let prefix = allowed.first(where: { flag.hasPrefix($0) }), !(prefix == "-w" && flag != "-w") else {
                dropped.append(flag)
                continue
            }
            kept.append(flag)
            if flag == prefix && flag != "-w" {
                // A value on its own ("-I /usr/include/x"); a flag with none is dropped.
                guard index < flags.count else {
                    kept.removeLast()
                    dropped.append(flag)
                    continue
                }
                kept.append(flags[index])
                index += 1
            }
        }
        return (kept, dropped)
    }

    /// Whether SwiftPM's .pc reader reads `flag` back as it is: it ends a line's value at `#`,
    /// expands `${…}`, and splits lines at newlines.
    static func isWritable(_ flag: String) -> Bool {
        !flag.isEmpty && !flag.contains("#") && !flag.contains("${")
            && !flag.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// A flag as SwiftPM's .pc reader splits it back: a backslash before a space, a quote or a backslash.
    static func escaped(_ flag: String) -> String {
        var text = ""
        for character in flag {
            if character == " " || character == "\"" || character == "\\" { text.append("\\") }
            text.append(character)
        }
        return text
    }
}

/// Why a library's flags cannot be flattened.
public struct FlatPkgConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
