import VitrineConfigFile
import VitrineTestSupport

/// Every error the file `text` at `path` gets, as `FILE:LINE:COLUMN: message` (none: it builds).
func configurationErrors(_ text: String, path: String) -> [String] {
    do {
        _ = try ConfigFile(text: text, path: path).configuration()
        return []
    } catch {
        return error.allErrors.map(\.description)
    }
}

/// The same for a file `name` inside `folder` (where the files it names live), the
/// folder's path written `DIR` so that messages compare as text.
func configurationErrors(_ text: String, named name: String, in folder: borrowing ConfigFolder) -> [String] {
    configurationErrors(text, path: folder.path + "/" + name).map { $0.replacingOccurrences(of: folder.path, with: "DIR") }
}
