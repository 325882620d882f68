// vitrine-embedder-check: a program built on Vitrine as `vitrine new` projects are, with no
// configuration file: its own Configurator, its own app id, the library's application object.
// Used by AppIDProgramTests as a subprocess.
//
//   vitrine-embedder-check APP-ID URL [CAPABILITY ...]
// opens URL as the app APP-ID, granting URL's origin the capabilities named.
import Foundation
import Vitrine
import VitrineGTK

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, let url = URL(string: arguments[1]), let origin = Origin(url) else {
    FileHandle.standardError.write(Data("usage: vitrine-embedder-check APP-ID URL [CAPABILITY ...]\n".utf8))
    exit(64)
}
let capabilities = Set(arguments.dropFirst(2).compactMap(Capability.init(rawValue:)))

MainActor.assumeIsolated {
    let configuration: Configuration
    do {
        configuration = try ConfiguratorFactory.make(for: .default)
            .appID(arguments[0])
            .startURL(url)
            .grantCapabilities(capabilities, to: origin)
            .build()
    } catch {
        FileHandle.standardError.write(Data("vitrine-embedder-check: \(error)\n".utf8))
        exit(1)
    }
    exit(VitrineApplication(configuration: configuration).run())
}
