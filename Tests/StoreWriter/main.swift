// A tiny program the storage tests run twice at once: one process of an app writing its
// store while another does. Usage: vitrine-store-writer FOLDER PREFIX COUNT — writes
// FOLDER/ready-PREFIX, waits for FOLDER/go (the test writes it once both are ready, so that
// they write at the same time), then sets PREFIX-1 … PREFIX-COUNT.
import Foundation
import Vitrine

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: vitrine-store-writer FOLDER PREFIX COUNT\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[1])
_ = FileManager.default.createFile(atPath: folder.appendingPathComponent("ready-\(arguments[2])").path, contents: nil)
while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("go").path) { usleep(1000) }
let failed = MainActor.assumeIsolated { () -> String? in
    let store = KeyValueStore(directory: folder.appendingPathComponent("store"))
    do {
        for index in 1...count {
            try store.set("\(arguments[2])-\(index)", .number(Double(index)))
            // A read between writes: what a page does, and a cache that must not go stale.
            _ = try store.value("\(arguments[2])-\(index)")
        }
        return nil
    } catch {
        return "\(error)"
    }
}
if let failed {
    FileHandle.standardError.write(Data("\(failed)\n".utf8))
    exit(1)
}
