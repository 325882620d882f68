#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

extension AppPackage {
    /// Where a sidecar's absolute command may be: a system program that the target machine
    /// has from its own packages. Anything else would not be there after installing.
    public static let systemProgramFolders = ["/usr/", "/bin/", "/sbin/"]

    /// The sidecars' programs, executable (0755), at the path vitrine.toml names them by
    /// (relative to the app folder, which the checked declaration keeps them inside). A
    /// program inside the web folder is refused: that folder is served to pages and copied
    /// without execute bits. An absolute command outside the system's folders is refused:
    /// it would not be on the machine the bundle is installed on.
    func sidecarEntries(_ inputs: Inputs, taken: [String]) throws(AppPackageError) -> [Entry] {
        var entries: [Entry] = []
        for sidecar in inputs.sidecars {
            guard let path = sidecar.bundledPath else {
                guard Self.systemProgramFolders.contains(where: sidecar.command.hasPrefix) else {
                    throw AppPackageError("sidecar \(sidecar.name)'s command \(sidecar.command) is outside the app folder and not a system program (under \(Self.systemProgramFolders.joined(separator: ", "))): the bundle cannot ship it; put the program in the app folder and name it relative to vitrine.toml")
                }
                continue
            }
            if let clash = taken.first(where: { path == $0 || path.hasPrefix($0 + "/") }) {
                throw AppPackageError("sidecar \(sidecar.name)'s program \(path) is inside \(clash), which the bundle ships otherwise (the web folder is served to pages and copied without execute bits): keep sidecar programs in a folder of their own, such as bin/")
            }
            guard !entries.contains(where: { $0.path == path }) else { continue }  // two sidecars, one program
            entries.append(Entry(path, .file(URL(fileURLWithPath: sidecar.command), executable: true)))
        }
        return entries
    }
}
