/// The memory of a process and all its descendants (for Vitrine: the program and
/// WebKit's web and network processes), from Linux's /proc.
///
/// Descendants are found by parent id (`/proc/PID/stat`), so processes started through
/// a sandbox helper count too. Sizes come from `/proc/PID/smaps_rollup`: `Rss` (resident,
/// shared pages counted in every process that maps them) and `Pss` (each shared page
/// divided among its sharers: the sum is what the tree really costs).
public struct ProcessTreeMemory: Sendable, Equatable {
    /// Processes in the tree whose memory could be read.
    public var processes: Int
    public var residentBytes: Int
    public var proportionalBytes: Int

    public init(processes: Int, residentBytes: Int, proportionalBytes: Int) {
        self.processes = processes
        self.residentBytes = residentBytes
        self.proportionalBytes = proportionalBytes
    }

    /// Samples the tree rooted at `root`; `proc` is where procfs is mounted (another folder
    /// laid out the same way in tests). Nil when `proc` cannot be listed (not Linux).
    public static func sample(root: Int32, proc: String = "/proc") -> ProcessTreeMemory? {
        guard let names = FileSystem.entries(of: proc) else { return nil }
        var children: [Int32: [Int32]] = [:]
        for name in names {
            guard let pid = Int32(name), let stat = FileSystem.contents(of: "\(proc)/\(name)/stat", limit: 4096),
                  let parent = parentID(fromStat: stat) else { continue }
            children[parent, default: []].append(pid)
        }
        var memory = ProcessTreeMemory(processes: 0, residentBytes: 0, proportionalBytes: 0)
        var pending = [root]
        var seen: Set<Int32> = []
        while let pid = pending.popLast() {
            guard seen.insert(pid).inserted else { continue }
            pending += children[pid] ?? []
            // A process that ended meanwhile (or a kernel thread) has nothing to add.
            guard let rollup = FileSystem.contents(of: "\(proc)/\(pid)/smaps_rollup", limit: 8192) else { continue }
            let sizes = kilobytes(in: rollup, of: ["Rss:", "Pss:"])
            memory.processes += 1
            memory.residentBytes += (sizes["Rss:"] ?? 0) * 1024
            memory.proportionalBytes += (sizes["Pss:"] ?? 0) * 1024
        }
        return memory
    }

    /// The parent id from a `stat` line: the fourth field, counted after the command name's
    /// closing parenthesis (the name itself may hold spaces and parentheses).
    static func parentID(fromStat stat: String) -> Int32? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    /// `Key:   1234 kB` lines of a smaps file, for the keys asked.
    static func kilobytes(in text: String, of keys: Set<String>) -> [String: Int] {
        var found: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, keys.contains(String(fields[0])), let value = Int(fields[1]) else { continue }
            found[String(fields[0])] = value
        }
        return found
    }
}
