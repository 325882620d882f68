import VitrineGTK

/// The CUPS queues this machine knows, as `lpstat -e` lists them (one per line); nil when
/// they cannot be listed (no `lpstat`, no scheduler).
enum CUPSQueues {
    static func list() -> [String]? {
        ProgramOutput.of("lpstat", ["-e"]).map { $0.split(whereSeparator: \.isNewline).map(String.init) }
    }
}
