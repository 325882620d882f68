import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
import VitrineGTK
import VitrineTooling

/// `vitrine pkg-config-path`: writes the flattened `.pc` files of Vitrine's system libraries
/// (`FlatPkgConfig`) into `<scratch>/pkg-config` and prints that folder, for `swift build
/// --pkg-config-path "$(vitrine pkg-config-path)"` in an app's package (its Makefile does so;
/// `vitrine dev` and `vitrine bundle` do it themselves).
struct PkgConfigPathCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pkg-config-path",
        abstract: "Write the system libraries' .pc files for swift build --pkg-config-path and print their folder.",
        discussion: """
            The files hold the flags pkg-config gives for \(FlatPkgConfig.vitrineLibraries.joined(separator: ", ")) \
            without those SwiftPM does not pass on (and warns about), and are written again at \
            every call. A library pkg-config does not know gets no file, so swift build reports \
            it as usual. Example: swift build --pkg-config-path "$(vitrine pkg-config-path)"
            """)

    @Option(help: ArgumentHelp("swift build's build folder; the files go into its pkg-config folder.", valueName: "dir"))
    var scratchPath: String = ".build"

    func run() throws {
        let folder = FlatPkgConfigFolder(scratchPath: URL(fileURLWithPath: scratchPath).standardizedFileURL.path)
        do {
            for case .unflattenable(let name, let error) in try folder.refresh() {
                printToStandardError("vitrine pkg-config-path: \(name) left to SwiftPM's own lookup: \(error)")
            }
        } catch {
            throw RuntimeFailure("cannot write \(folder.path): \(error)")
        }
        print(folder.path)
    }
}
