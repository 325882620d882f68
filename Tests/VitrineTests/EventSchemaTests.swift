import Foundation
import Testing
import Vitrine
import VitrineTesting
import VitrineTestSupport

/// Every event the container can record makes a line `Resources/events.schema.json`
/// accepts, the schema's lists are exactly the Swift enums' cases, and lines that are not
/// events are turned away.
@Suite("Event schema")
struct EventSchemaTests {
    /// One event per case of every enum an event carries.
    static var everyEvent: [ContainerEvent] {
        let events: [ContainerEvent] = ContainerEvent.NativeAction.allCases.map { .native(action: $0, detail: "detail") }
            + ContainerEvent.LoadEvent.allCases.map { .load(event: $0, url: "https://a.test/", error: nil) }
            + [.load(event: .failed, url: "https://a.test/", error: "refused"),
               .load(event: .finished, url: "https://a.test/missing", error: nil, status: 404)]
            + ContainerEvent.ShownPage.allCases.map { .load(event: .finished, url: "https://a.test/", error: nil, shown: $0) }
            + ContainerEvent.MessageOutcome.allCases.map { .message(name: "page", outcome: $0, error: nil) }
            + [.message(name: "cart", outcome: .rejected, error: "closed", origin: "app://demo", code: "Cart.closed")]
            + ContainerEvent.NavigationPhase.allCases.flatMap { phase in
                [NavigationPolicy.allow, .cancel, .download].map { policy in
                    .navigation(url: "https://a.test/", handler: "default-allow", policy: policy, navigationType: .formSubmitted,
                                target: .newWindow, phase: phase)
                }
            }
            + [.permission(kind: "camera", origin: "https://a.test", granted: true),
               .permission(kind: "camera", origin: "https://a.test", granted: false)]
            + ContainerEvent.PrintOutcome.allCases.map { .print(queue: "Tickets", job: 3, outcome: $0, error: nil) }
            + [.print(queue: "file:///tmp/r.pdf", job: 1, outcome: .failed, error: "no such printer")]
            + PlayRecord.Outcome.allCases.map { outcome in
                .proofOfPlay(PlayRecord(item: 2, url: "https://a.test/", start: Date(timeIntervalSince1970: 1_800_000_000.5),
                                        end: Date(timeIntervalSince1970: 1_800_000_030), outcome: outcome))
            }
        return events + machineEvents + bundleEvents
            + StartupPhase.allCases.map { .startup(StartupTrace.Mark(phase: $0, monotonic: 123_456.789)) }
            + SidecarRecord.Event.allCases.map { .sidecar(SidecarRecord(name: "api", event: $0)) }
            + [.sidecar(SidecarRecord(name: "api", event: .started, port: 40123, pid: 4242)),
               .sidecar(.exited("api", .code(3), pid: 4242)), .sidecar(.exited("model-runner", .signal(9), pid: 4243)),
               .sidecar(SidecarRecord(name: "api", event: .failed, detail: "not ready within 30 s")),
               .sidecarOutput(name: "api", stream: "stdout", line: "listening"), .sidecarOutput(name: "api", stream: "stderr", line: "")]
    }

    /// A playlist bundle's syncs: each outcome, with and without version and reason.
    static var bundleEvents: [ContainerEvent] {
        BundleSyncReport.Outcome.allCases.map { .bundleSync(BundleSyncReport(url: "https://cms.test/lobby.zip", outcome: $0)) }
            + [.bundleSync(BundleSyncReport(url: "https://cms.test/lobby.zip", outcome: .failed, version: "1800000000-ab12cd34",
                                            reason: "HTTP 503"))]
    }

    /// The start's lines: codecs (some missing, none missing) and each reason for a renderer choice.
    static var machineEvents: [ContainerEvent] {
        let codecs: [ContainerEvent] = [.mediaCodecs(MediaCodecs(decodable: [.vp9, .opus])),
                                        .mediaCodecs(MediaCodecs(decodable: Set(MediaCodecs.Format.allCases)))]
        return codecs + RenderingChoice.Reason.allCases.map { reason -> ContainerEvent in
            switch reason {
            case .configured: .renderer(RenderingChoice(configured: .always, renderer: nil))
            case .softwareRenderer: .renderer(RenderingChoice(configured: nil, renderer: "llvmpipe (LLVM 15.0.6, 256 bits)"))
            case .gpuRenderer: .renderer(RenderingChoice(configured: nil, renderer: "Mesa Intel(R) UHD Graphics 620"))
            case .unknownRenderer: .renderer(RenderingChoice(configured: nil, renderer: nil))
            case .automation: .renderer(RenderingChoice(configured: nil, renderer: "llvmpipe (LLVM 15.0.6, 256 bits)", automation: true))
            case .dmabufRendererOff: .renderer(RenderingChoice(configured: .always, renderer: nil, dmabufRenderer: false))
            }
        }
    }

    static func line(_ event: ContainerEvent) throws -> String {
        String(decoding: try JSONEncoder.compactSorted.encode(event), as: UTF8.self)
    }

    @Test func everyEventMakesAValidLine() throws {
        for event in Self.everyEvent {
            let line = try Self.line(event)
            #expect(throws: Never.self, "\(line)") { try EventSchema.validate(line: line) }
        }
    }

    @Test func theSchemaListsExactlyTheCases() {
        #expect(EventSchema.enumeration("nativeAction") == ContainerEvent.NativeAction.allCases.map(\.rawValue))
        #expect(EventSchema.enumeration("loadEvent") == ContainerEvent.LoadEvent.allCases.map(\.rawValue))
        #expect(EventSchema.enumeration("shownPage") == ContainerEvent.ShownPage.allCases.map(\.rawValue))
        #expect(EventSchema.enumeration("outcome") == ContainerEvent.MessageOutcome.allCases.map(\.rawValue))
        #expect(EventSchema.enumeration("printOutcome") == ContainerEvent.PrintOutcome.allCases.map(\.rawValue))
        #expect(EventSchema.enumeration("phase") == ContainerEvent.NavigationPhase.allCases.map(\.rawValue))
        #expect(EventSchema.enumeration("mediaFormat") == MediaCodecs.Format.allCases.map(\.rawValue))
        #expect(EventSchema.enumeration("renderingReason") == RenderingChoice.Reason.allCases.map(\.rawValue))
        #expect(EventSchema.enumeration("sidecarEvent") == SidecarRecord.Event.allCases.map(\.rawValue))
        #expect(EventSchema.enumeration("bundleSyncOutcome") == BundleSyncReport.Outcome.allCases.map(\.rawValue))
        #expect(EventSchema.enumeration("startupPhase") == StartupPhase.allCases.map(\.rawValue))
        #expect(Set(EventSchema.enumeration("navigationType")) == Set([NavigationAction.NavigationType.linkActivated, .formSubmitted,
                                                                       .backForward, .reload, .formResubmitted, .other].map(\.rawValue)))
    }

    @Test func everyKindHasItsForm() throws {
        let kinds = Set(try Self.everyEvent.map { try JSONValue(parsing: Self.line($0))["type"]?.stringValue })
        #expect(kinds == Set(ContainerEvent.Kind.allCases.map(\.rawValue)))
    }

    @MainActor
    @Test func theLogsDroppedLinesReportIsValid() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vitrine-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("events.jsonl").path
        do {
            let log = try JSONLinesEventLog(path: path, rateLimits: .init(burst: 1, perSecond: 0.001, reportInterval: .seconds(60)),
                                            clock: ManualClock())
            for _ in 0..<5 { log.record(.native(action: .blockedShortcut, detail: "ctrl+w")) }
            log.reportDrops()
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.last?.contains(#""type":"dropped""#) == true)
        for line in lines { #expect(throws: Never.self, "\(line)") { try EventSchema.validate(line: line) } }
    }

    @Test(arguments: [
        #"{"action":"format-disk","detail":"","type":"native"}"#,                        // no such action
        #"{"action":"recover","type":"native"}"#,                                        // detail missing
        #"{"action":"recover","detail":"","type":"native","url":"x"}"#,                  // a field of another form
        #"{"granted":"false","kind":"camera","origin":"https://a.test","type":"permission"}"#, // a string for a boolean
        #"{"granted":0,"kind":"camera","origin":"https://a.test","type":"permission"}"#,  // a number for a boolean
        #"{"event":"done","type":"load","url":"https://a.test/"}"#,                      // no such load event
        #"{"name":"page","outcome":"success","type":"message"}"#,                        // no such outcome
        #"{"handler":"h","navigationType":"other","phase":"later","policy":"allow","target":"currentView","type":"navigation","url":""}"#,
        #"{"kinds":{"native recover":0},"seconds":5,"type":"dropped"}"#,                 // nothing dropped is no report
        #"{"kinds":{"native recover":1.5},"seconds":5,"type":"dropped"}"#,
        #"{"job":0,"outcome":"printed","queue":"Q","type":"print"}"#,                   // jobs count from 1
        #"{"job":"1","outcome":"printed","queue":"Q","type":"print"}"#,                 // a string for a number
        #"{"job":1,"outcome":"shredded","queue":"Q","type":"print"}"#,                  // no such outcome
        #"{"type":"shell","command":"rm -rf /"}"#,                                       // no such type
        #"["native"]"#, #""native""#, "not json", "",
    ])
    func otherLinesAreRefused(_ line: String) {
        #expect(throws: EventSchema.Violation.self) { try EventSchema.validate(line: line) }
    }

    /// The pinned lines (`EventLineTests`) are valid too: the schema describes the lines as
    /// they are, not only as the encoder writes them now.
    @Test func thePinnedLinesAreValid() {
        for (_, line) in EventLineTests.pinned {
            #expect(throws: Never.self, "\(line)") { try EventSchema.validate(line: line) }
        }
    }
}
