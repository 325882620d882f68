#if canImport(Glibc)
import Glibc
#endif

// flat-pkg-config FOLDER: writes the flattened .pc files of Vitrine's system libraries into
// FOLDER (see Sources/VitrineTooling/Project/FlatPkgConfig.swift) for `swift build --pkg-config-path
// FOLDER`. Vitrine's own Makefile and debian/rules build it with swiftc from the core's
// sources (packaging/pkg-config.mk) since they have no `vitrine` yet; everything else runs
// `vitrine pkg-config-path`, which is the same code.
let arguments = CommandLine.arguments
guard arguments.count == 2, !arguments[1].hasPrefix("-") else {
    fputs("usage: flat-pkg-config FOLDER\n", stderr)
    exit(2)
}
do {
    for case .unflattenable(let name, let error) in try FlatPkgConfigFolder(path: arguments[1]).refresh() {
        fputs("flat-pkg-config: \(name) left to SwiftPM's own lookup: \(error)\n", stderr)
    }
} catch {
    fputs("flat-pkg-config: \(error)\n", stderr)
    exit(1)
}
