import Foundation
import Testing
import Vitrine
import VitrineConfigFile
import VitrineTesting
import VitrineTestSupport

/// `[printing]` (silent printing): the file's keys onto `PrintSettings`, the rules for an
/// output file, one job at a time, and the job's event and metric (display-free).
@Suite("Printing")
struct PrintingTests {
    @Test func everyKeyMapsOntoTheSettings() throws {
        let settings = try #require(try ConfigFile(text: """
            preset = "kiosk"
            [printing]
            printer = "Tickets"
            paper-size = "80x200mm"
            orientation = "landscape"
            copies = 2
            margins = 5
            """, path: "/tmp/p.toml").configuration().printing)
        #expect(settings.destination == .printer("Tickets"))
        #expect(settings.paperSize == .custom(widthMillimetres: 80, heightMillimetres: 200))
        #expect(settings.orientation == .landscape && settings.copies == 2 && settings.margins == 5)

        let defaults = try #require(try ConfigFile(text: "[printing]\n", path: "/tmp/p.toml").configuration().printing)
        #expect(defaults.destination == .systemDefault && defaults.copies == 1 && defaults.paperSize == nil && defaults.margins == nil)
        #expect(try ConfigFile(text: "[printing]\nprinter = \"default\"", path: "/tmp/p.toml").configuration().printing?.destination
                == .systemDefault)
        #expect(try ConfigFile(text: "[printing]\npaper-size = \"A4\"", path: "/tmp/p.toml").configuration().printing?.paperSize
                == .named("iso_a4"))
        // Without [printing] nothing prints silently: the kiosk refuses print() as before.
        #expect(try ConfigFile(text: "preset = \"kiosk\"", path: "/tmp/p.toml").configuration().printing == nil)
    }

    @Test func anOutputFileInARealFolderIsTaken() throws {
        let folder = try ConfigFolder()
        let settings = try ConfigFile(text: "[printing]\noutput-uri = \"file://\(folder.path)/out.pdf\"",
                                      path: folder.path + "/p.toml").configuration().printing
        #expect(settings?.destination == .file(URL(string: "file://\(folder.path)/out.pdf")!))
    }

    @Test func badValuesAreReported() throws {
        let folder = try ConfigFolder()
        func problems(_ text: String) -> [String] { configurationErrors("[printing]\n" + text, named: "p.toml", in: folder) }
        #expect(problems(#"printer = "a/b""#).first?.contains("printing.printer must be a CUPS queue name") == true
                || problems(#"printer = "a/b""#).first?.contains("CUPS queue name") == true, "\(problems(#"printer = "a/b""#))")
        #expect(problems(#"printer = """#).count == 1)
        #expect(problems(#"paper-size = "huge""#).first?.contains("a4, a3, a5, a6, letter, legal, or WIDTHxHEIGHTmm") == true)
        #expect(problems(#"paper-size = "0x200mm""#).count == 1)
        #expect(problems(#"orientation = "sideways""#).count == 1)
        #expect(problems("copies = 0").count == 1 && problems("copies = 100").count == 1 && problems("copies = 99").isEmpty)
        #expect(problems("margins = -1").count == 1 && problems("margins = 101").count == 1)
        #expect(problems("printer = \"Q\"\noutput-uri = \"file://\(folder.path)/o.pdf\"").first?
            .contains("give either printer or output-uri") == true)
    }

    /// Where a kiosk writes is the operator's choice alone: never another scheme, a relative
    /// or dotted path, a missing folder, another kind of file, or a path through a link
    /// (which could send the kiosk's writes anywhere its user may write).
    @Test func anOutputURIMustBeAPlainPDFFileReachedWithoutLinks() throws {
        let folder = try ConfigFolder()
        let real = try folder.makeFolder("real")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link", withDestinationPath: real)
        try FileManager.default.createSymbolicLink(atPath: real + "/planted.pdf", withDestinationPath: folder.path + "/p.toml")
        try FileManager.default.createDirectory(atPath: real + "/dir.pdf", withIntermediateDirectories: false)
        func problem(_ uri: String) -> String? { PrintOutputFile.problem(URL(string: uri)!) }
        #expect(problem("file://\(real)/out.pdf") == nil)
        #expect(problem("https://printer.corp/out.pdf")?.contains("must be a file:/// URI") == true)
        #expect(problem("ipp://printer.corp/q")?.contains("must be a file:/// URI") == true)
        #expect(problem("file://otherhost/tmp/out.pdf")?.contains("on this machine") == true)
        #expect(problem("file://\(real)/../out.pdf")?.contains("without '.' or '..'") == true)
        #expect(problem("file://\(real)/out.txt")?.contains(".pdf") == true)
        #expect(problem("file://\(folder.path)/missing/out.pdf")?.contains("not an existing folder") == true)
        #expect(problem("file://\(folder.path)/link/out.pdf")?.contains("symbolic link '\(folder.path)/link'") == true)
        #expect(problem("file://\(real)/planted.pdf")?.contains("symbolic link") == true)
        #expect(problem("file://\(real)/dir.pdf")?.contains("not a regular file") == true)
        // check-config says so, at build.
        let errors = configurationErrors("[printing]\noutput-uri = \"file://\(folder.path)/link/out.pdf\"", named: "p.toml", in: folder)
        #expect(errors.count == 1 && errors.first?.contains("goes through the symbolic link") == true, "\(errors)")
    }

    /// A pushed configuration (MQTT `cmd/config`) may not point printing at a file.
    @Test func aPushMayNotAddOrChangeTheOutputFile() throws {
        let folder = try ConfigFolder()
        let path = folder.path + "/kiosk.toml"
        let running = "preset = \"kiosk\"\n[printing]\nprinter = \"Tickets\"\n"
        #expect(throws: ConfigFileError.self) {
            try ConfigFile.checkPush("preset = \"kiosk\"\n[printing]\noutput-uri = \"file://\(folder.path)/x.pdf\"\n",
                                     replacing: running, at: path)
        }
        #expect(throws: Never.self) { try ConfigFile.checkPush(running + "copies = 2\n", replacing: running, at: path) }
    }

    @Test func oneJobAtATimeAndEachFinishedOnce() {
        var jobs = PrintJobs(settings: PrintSettings(destination: .printer("Q")))
        guard case .print(let first, _) = jobs.request(at: .seconds(100)) else { Issue.record("the first request prints"); return }
        // A flood while it prints: every request refused, numbered, none queued.
        for expected in 2...50 {
            guard case .refused(let event) = jobs.request(at: .seconds(100)) else { Issue.record("request \(expected) was not refused"); return }
            #expect(event == .print(queue: "Q", job: expected, outcome: .refused, error: "job \(first) is still printing"))
        }
        #expect(jobs.finish(first + 1, error: nil, at: .seconds(101)) == nil, "a job that is not running does not end")
        #expect(jobs.finish(first, error: nil, at: .seconds(101)) == .print(queue: "Q", job: first, outcome: .printed, error: nil))
        #expect(jobs.finish(first, error: nil, at: .seconds(101)) == nil, "a job ends once")
        // WebKit returns from print() once its job is done: a loop asks again at once.
        guard case .refused(let soon) = jobs.request(at: .milliseconds(101_500)) else { Issue.record("a loop's next call is refused"); return }
        #expect(soon == .print(queue: "Q", job: 51, outcome: .refused, error: "too soon after the last job (one a second at most)"))
        guard case .print(let next, _) = jobs.request(at: .seconds(102)) else { Issue.record("printing again a second later"); return }
        #expect(next == 52)
        #expect(jobs.finish(next, error: "printer on fire", at: .seconds(102)) == .print(queue: "Q", job: next, outcome: .failed, error: "printer on fire"))
        var none = PrintJobs(settings: nil)
        #expect(none.request(at: .zero) == .notConfigured)
    }

    /// A page printing once a second (each job quick) gets `perMinute` jobs a minute, no more.
    @Test func atMostTenJobsAMinute() {
        var jobs = PrintJobs(settings: PrintSettings(destination: .systemDefault))
        var printed: [Int] = []
        for second in 0..<120 {
            guard case .print(let job, _) = jobs.request(at: .seconds(second)) else { continue }
            printed.append(second)
            _ = jobs.finish(job, error: nil, at: .seconds(second))
        }
        #expect(printed == Array(0..<10) + Array(60..<70), "\(printed)")
    }

    /// The output file is checked again before each job: a link planted after start is refused.
    @Test func aLinkPlantedAfterStartFailsTheJob() throws {
        let folder = try ConfigFolder()
        let uri = URL(string: "file://\(folder.path)/out.pdf")!
        var jobs = PrintJobs(settings: PrintSettings(destination: .file(uri)))
        guard case .print(let job, _) = jobs.request(at: .zero) else { Issue.record("the file is fine at first"); return }
        _ = jobs.finish(job, error: nil, at: .zero)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/out.pdf", withDestinationPath: folder.path + "/victim")
        guard case .refused(let event) = jobs.request(at: .seconds(5)) else { Issue.record("a planted link must fail the job"); return }
        guard case let .print(_, _, outcome, error) = event else { Issue.record("not a print event"); return }
        #expect(outcome == .failed && error?.contains("symbolic link") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/victim"))
    }

    @MainActor
    @Test func jobsAreCountedByOutcome() {
        let metrics = ContainerMetrics(clock: ManualClock(), wallTime: 0)
        metrics.record(.print(queue: "Q", job: 1, outcome: .printed, error: nil))
        metrics.record(.print(queue: "Q", job: 2, outcome: .refused, error: "busy"))
        metrics.record(.print(queue: "Q", job: 3, outcome: .refused, error: "busy"))
        let text = metrics.render(memory: nil)
        #expect(text.contains("vitrine_print_jobs_total{outcome=\"printed\"} 1\n"))
        #expect(text.contains("vitrine_print_jobs_total{outcome=\"refused\"} 2\n"))
        #expect(!text.contains("\"Q\""), "no queue name is a label")
    }

    @Test func checkConfigWarnsOfAnUnknownQueueWithoutFailing() {
        let tickets = PrintSettings(destination: .printer("Tickets"))
        #expect(tickets.queueWarning(knownQueues: ["Tickets", "Office"]) == nil)
        #expect(tickets.queueWarning(knownQueues: ["Office"]) == "printer 'Tickets' is not a CUPS queue here (known: Office): jobs will fail until it is added")
        #expect(tickets.queueWarning(knownQueues: nil)?.contains("cannot list CUPS's printers") == true)
        #expect(PrintSettings(destination: .systemDefault).queueWarning(knownQueues: [])?.contains("no printers") == true)
        #expect(PrintSettings(destination: .file(URL(string: "file:///tmp/x.pdf")!)).queueWarning(knownQueues: nil) == nil)
    }
}
