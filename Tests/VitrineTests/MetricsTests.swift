import Foundation
import Testing
import Vitrine
import VitrineTesting
import VitrineConfigFile
import VitrineTestSupport

/// Prometheus's text format: every family has its HELP and TYPE, label values and help
/// are escaped, values are spelled as the format spells them.
@Suite("Metrics: the text format")
struct PrometheusTextTests {
    @Test func familiesRenderWithHelpTypeAndLabels() {
        let text = PrometheusText.render([
            MetricFamily("a_total", .counter, help: "A count.", samples: [
                .init(3, labels: [.init("kind", "x"), .init("phase", "request")]),
                .init(0.5, labels: [.init("kind", "y"), .init("phase", "response")]),
            ]),
            MetricFamily("b", .gauge, help: "Nothing yet.", samples: []),
            MetricFamily("c", .gauge, help: "One.", value: 1),
        ])
        #expect(text == """
            # HELP a_total A count.
            # TYPE a_total counter
            a_total{kind="x",phase="request"} 3
            a_total{kind="y",phase="response"} 0.5
            # HELP b Nothing yet.
            # TYPE b gauge
            # HELP c One.
            # TYPE c gauge
            c 1

            """)
    }

    @Test func labelValuesAndHelpAreEscaped() {
        #expect(PrometheusText.escapeLabelValue(#"a\b"c"# + "\nd") == #"a\\b\"c\nd"#)
        #expect(PrometheusText.escapeLabelValue("plain-value") == "plain-value")
        #expect(PrometheusText.escapeHelp(#"say "hi" \ then"# + "\nmore") == #"say "hi" \\ then\nmore"#)
        let text = PrometheusText.render([MetricFamily("x", .counter, help: "h", samples: [.init(1, labels: [.init("handler", "my \"odd\"\nname")])])])
        #expect(text.contains(#"x{handler="my \"odd\"\nname"} 1"#))
        #expect(text.split(separator: "\n").count == 3, "an escaped line feed does not break the line")
    }

    @Test(arguments: [(1.0, "1"), (0, "0"), (-2, "-2"), (0.25, "0.25"), (1_795_490_362.5, "1795490362.5"),
                      (.nan, "NaN"), (.infinity, "+Inf"), (-.infinity, "-Inf"), (1e300, "1e+300")])
    func valuesAreSpelledAsTheFormatSpellsThem(value: Double, spelled: String) {
        #expect(PrometheusText.format(value) == spelled)
    }
}

/// `ContainerMetrics` counts what the events say, with time from an injected clock.
@MainActor
@Suite("Metrics: counted from the container's events")
struct ContainerMetricsTests {
    let clock = ManualClock()

    /// The value of `name` with exactly `labels` in `metrics`' families, or nil.
    func value(_ metrics: ContainerMetrics, _ name: String, _ labels: [String: String] = [:]) -> Double? {
        let family = metrics.families(memory: nil).first { $0.name == name }
        return family?.samples.first { sample in
            Dictionary(uniqueKeysWithValues: sample.labels.map { ($0.name, $0.value) }) == labels
        }?.value
    }

    /// What WebKit and the recovery monitor report when a start page is refused, shown as
    /// an error page, then loads on the retry (the sequence a real run logs).
    static let failedThenRecovered: [ContainerEvent] = [
        .navigation(url: "http://a.test/", handler: "origin-allowlist", policy: .allow, navigationType: .other, target: .currentView, phase: .request),
        .load(event: .started, url: "http://a.test/", error: nil),
        .load(event: .failed, url: "http://a.test/", error: "Could not connect to a.test: Connection refused"),
        .native(action: .loadFailure, detail: "connection-refused"),
        .native(action: .retry, detail: "1 http://a.test/ in 1.0 s (connection-refused)"),
        .native(action: .errorPage, detail: "network http://a.test/"),
        .load(event: .finished, url: "", error: nil),  // WebKit ends the failed load
        .load(event: .started, url: "http://a.test/", error: nil, shown: .errorPage),
        .load(event: .committed, url: "http://a.test/", error: nil, shown: .errorPage),
        .load(event: .finished, url: "http://a.test/", error: nil, shown: .errorPage),
        .native(action: .retryLoad, detail: "1 http://a.test/ (backoff)"),
        .navigation(url: "http://a.test/", handler: "origin-allowlist", policy: .allow, navigationType: .other, target: .currentView, phase: .request),
        .load(event: .started, url: "http://a.test/", error: nil),
        .load(event: .committed, url: "http://a.test/", error: nil),
    ]

    @Test func loadsFailuresAndTheLastSuccessfulLoad() {
        let metrics = ContainerMetrics(clock: clock, wallTime: 1_000)
        for event in Self.failedThenRecovered { metrics.record(event) }
        #expect(value(metrics, "vitrine_last_successful_load_timestamp_seconds") == 0, "no page shown yet: the error page does not count")
        clock.advance(by: .seconds(5))
        metrics.record(.load(event: .finished, url: "http://a.test/", error: nil))
        metrics.record(.native(action: .recovered, detail: "http://a.test/"))
        #expect(value(metrics, "vitrine_loads_started_total") == 2)
        #expect(value(metrics, "vitrine_loads_finished_total") == 1)
        #expect(value(metrics, "vitrine_load_failures_total", ["kind": "connection-refused"]) == 1)
        #expect(value(metrics, "vitrine_error_pages_total") == 1)
        #expect(value(metrics, "vitrine_load_recoveries_total") == 1)
        #expect(value(metrics, "vitrine_last_successful_load_timestamp_seconds") == 1_005)
        #expect(value(metrics, "vitrine_start_time_seconds") == 1_000)
        clock.advance(by: .milliseconds(2500))
        metrics.record(.load(event: .started, url: "http://a.test/b", error: nil))
        metrics.record(.load(event: .finished, url: "http://a.test/b", error: nil))
        #expect(value(metrics, "vitrine_last_successful_load_timestamp_seconds") == 1_007.5)
    }

    /// What a load showed is the event's own word (`shown`), whatever came before it: an
    /// error page or a kept copy is never a page loaded, a live page always is.
    @Test func onlyLivePagesCountAsLoads() {
        let metrics = ContainerMetrics(clock: clock, wallTime: 2_000)
        for shown in [ContainerEvent.ShownPage.snapshot, .errorPage] {
            metrics.record(.load(event: .started, url: "vitrine-snapshot://abc/", error: nil, shown: shown))
            metrics.record(.load(event: .finished, url: "vitrine-snapshot://abc/", error: nil, shown: shown))
        }
        #expect(value(metrics, "vitrine_loads_started_total") == 0)
        #expect(value(metrics, "vitrine_loads_finished_total") == 0)
        #expect(value(metrics, "vitrine_last_successful_load_timestamp_seconds") == 0)
        // An error page announced, then a live load after all: the live load counts.
        metrics.record(.native(action: .errorPage, detail: "network http://a.test/"))
        clock.advance(by: .seconds(3))
        metrics.record(.load(event: .started, url: "http://a.test/", error: nil))
        metrics.record(.load(event: .finished, url: "http://a.test/", error: nil))
        #expect(value(metrics, "vitrine_loads_started_total") == 1)
        #expect(value(metrics, "vitrine_loads_finished_total") == 1)
        #expect(value(metrics, "vitrine_last_successful_load_timestamp_seconds") == 2_003)
        #expect(value(metrics, "vitrine_error_pages_total") == 1)
    }

    @Test func crashesHangsNavigationsMessagesAndTheDisplay() {
        let metrics = ContainerMetrics(clock: clock, wallTime: 0)
        let events: [ContainerEvent] = [
            .native(action: .webProcessTerminated, detail: "crashed"),
            .native(action: .recover, detail: "http://a.test/"),
            .native(action: .unresponsive, detail: "http://a.test/"),
            .native(action: .webProcessTerminated, detail: "terminated"),
            .native(action: .recover, detail: "http://a.test/"),
            .native(action: .webProcessTerminated, detail: "crashed"),
            .native(action: .crashLoop, detail: "http://a.test/"),
            .navigation(url: "https://evil.test/", handler: "origin-allowlist", policy: .cancel, navigationType: .linkActivated, target: .currentView, phase: .request),
            .navigation(url: "https://evil.test/2", handler: "origin-allowlist", policy: .cancel, navigationType: .other, target: .newWindow, phase: .request),
            .navigation(url: "http://a.test/", handler: "default-allow", policy: .allow, navigationType: .other, target: .currentView, phase: .response),
            .message(name: "ping", outcome: .resolved, error: nil, origin: "http://a.test"),
            .message(name: "ping", outcome: .resolved, error: nil, origin: "http://a.test"),
            .message(name: "nonsense", outcome: .rejected, error: "no strategy", origin: "https://evil.test"),
            .native(action: .displayOff, detail: "schedule"),
        ]
        for event in events { metrics.record(event) }
        #expect(value(metrics, "vitrine_web_process_terminations_total", ["reason": "crashed"]) == 2)
        #expect(value(metrics, "vitrine_web_process_terminations_total", ["reason": "terminated"]) == 1)
        #expect(value(metrics, "vitrine_crash_recoveries_total") == 2)
        #expect(value(metrics, "vitrine_crash_loops_total") == 1)
        #expect(value(metrics, "vitrine_hangs_total") == 1)
        #expect(value(metrics, "vitrine_navigations_total", ["handler": "origin-allowlist", "policy": "cancel", "phase": "request"]) == 2)
        #expect(value(metrics, "vitrine_navigations_total", ["handler": "default-allow", "policy": "allow", "phase": "response"]) == 1)
        #expect(value(metrics, "vitrine_script_messages_total", ["outcome": "resolved"]) == 2)
        #expect(value(metrics, "vitrine_script_messages_total", ["outcome": "rejected"]) == 1)
        #expect(value(metrics, "vitrine_display_on") == 0)
        metrics.record(.native(action: .displayOn, detail: "command"))
        #expect(value(metrics, "vitrine_display_on") == 1)
        #expect(value(metrics, "vitrine_up") == 1)
        metrics.up = false
        #expect(value(metrics, "vitrine_up") == 0)

        // Pages choose URLs and message names: none of them becomes a label.
        let text = metrics.render(memory: nil)
        for chosen in ["evil.test", "a.test", "nonsense", "ping"] { #expect(!text.contains(chosen), "\(chosen) in the metrics") }
    }

    @Test func everyFamilyIsDocumentedAndNamedByPrometheusConventions() throws {
        let memory = ProcessTreeMemory(processes: 3, residentBytes: 3_000, proportionalBytes: 2_000)
        let metrics = ContainerMetrics(clock: clock, wallTime: 0)
        let families = metrics.families(memory: memory)
        let readme = try Documentation().allText
        #expect(families.count == Set(families.map(\.name)).count)
        for family in families {
            #expect(family.name.hasPrefix("vitrine_"))
            #expect(family.name.wholeMatch(of: /[a-z_][a-z0-9_]*/) != nil, "\(family.name)")
            #expect(family.name.hasSuffix("_total") == (family.kind == .counter), "\(family.name): counters, and only they, end in _total")
            #expect(!family.help.isEmpty)
            #expect(readme.contains("`\(family.name)`"), "no document documents \(family.name)")
        }
        let text = metrics.render(memory: memory)
        #expect(text.contains("vitrine_process_tree_proportional_memory_bytes 2000\n"))
        #expect(text.contains("vitrine_process_tree_processes 3\n"))
        #expect(!metrics.render(memory: nil).contains("process_tree"), "no memory family when it could not be read")
    }
}

/// The process tree's memory, read from a /proc laid out in a folder, and from the real one.
@Suite("Metrics: process-tree memory")
struct ProcessTreeMemoryTests {
    @Test func sumsTheRootAndItsDescendantsOnly() throws {
        let proc = try ConfigFolder()
        func process(_ pid: Int, parent: Int, name: String, rss: Int?, pss: Int?) throws {
            try proc.write("\(pid)/stat", "\(pid) (\(name)) S \(parent) \(pid) \(pid) 0 -1 4194304 100 0 0 0\n")
            if let rss, let pss {
                try proc.write("\(pid)/smaps_rollup", """
                    55d0c0000000-7ffd00000000 ---p 00000000 00:00 0                          [rollup]
                    Rss:               \(rss) kB
                    Pss:               \(pss) kB
                    Pss_Anon:           100 kB
                    Shared_Clean:       500 kB

                    """)
            }
        }
        try process(100, parent: 1, name: "vitrine", rss: 1000, pss: 600)
        try process(101, parent: 100, name: "WebKitWebProcess) (x", rss: 2000, pss: 1500)  // a name with ") ("
        try process(102, parent: 101, name: "bwrap child", rss: 10, pss: 5)
        try process(103, parent: 100, name: "gone", rss: nil, pss: nil)  // ended between the listing and the read
        try process(200, parent: 1, name: "other", rss: 9999, pss: 9999)
        try proc.write("self/stat", "not a process")
        let memory = try #require(ProcessTreeMemory.sample(root: 100, proc: proc.path))
        #expect(memory == ProcessTreeMemory(processes: 3, residentBytes: 3010 * 1024, proportionalBytes: 2105 * 1024))
        #expect(ProcessTreeMemory.sample(root: 100, proc: proc.path + "/missing") == nil)
    }

    @Test func readsThisProcessFromTheRealProc() throws {
        let memory = try #require(ProcessTreeMemory.sample(root: getpid()))
        #expect(memory.processes >= 1)
        #expect(memory.proportionalBytes > 1 << 20 && memory.residentBytes >= memory.proportionalBytes)
    }
}

/// `[metrics]`: declared once, checked by check-config at its position.
@Suite("Config file: [metrics]")
struct MetricsConfigTests {
    @Test func aRelativeTextfileIsRelativeToTheFileAndTheIntervalDefaultsTo15Seconds() throws {
        let configuration = try ConfigFile.parse(text: "[metrics]\ntextfile = \"prom/vitrine.prom\"\n", path: "/etc/vitrine/kiosk.toml").build()
        #expect(configuration.metricsTextfile == URL(fileURLWithPath: "/etc/vitrine/prom/vitrine.prom"))
        #expect(configuration.metricsInterval == .seconds(15))
        let set = try ConfigFile.parse(text: "[metrics]\ntextfile = \"/var/lib/prometheus/node-exporter/vitrine.prom\"\ninterval = 2.5\n",
                                       path: "/tmp/k.toml").build()
        #expect(set.metricsTextfile?.path == "/var/lib/prometheus/node-exporter/vitrine.prom")
        #expect(set.metricsInterval == .milliseconds(2500))
        #expect(try ConfigFile.parse(text: "", path: "/tmp/k.toml").build().metricsTextfile == nil)
    }

    @Test(arguments: [
        ("[metrics]\ntextfile = \"/var/lib/vitrine.txt\"",
         #"k.toml:2:12: metrics.textfile must be a file name ending in .prom, got "/var/lib/vitrine.txt" (node_exporter's textfile collector reads only *.prom files)"#),
        ("[metrics]\ntextfile = \"/var/lib/.prom\"",
         #"k.toml:2:12: metrics.textfile must be a file name ending in .prom, got "/var/lib/.prom" (node_exporter's textfile collector reads only *.prom files)"#),
        ("[metrics]\ntextfile = \"\"", #"k.toml:2:12: metrics.textfile must be a path, got """#),
        ("[metrics]\ninterval = 0", "k.toml:2:12: metrics.interval must be a positive number of seconds, got 0"),
        ("[metrics]\ntextfiles = \"a.prom\"", "k.toml:2:1: unknown key 'metrics.textfiles' (did you mean 'textfile'?); expected in [metrics]: textfile, interval"),
    ])
    func badValuesAreReportedAtTheirPosition(text: String, message: String) {
        do {
            _ = try ConfigFile(text: text, path: "k.toml").configuration(overrides: ConfigOverrides())
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func checkConfigSummarisesIt() throws {
        let file = try ConfigFile(text: "[metrics]\ntextfile = \"/run/v.prom\"\ninterval = 30\n", path: "/tmp/k.toml")
        let summary = ConfigFile.summary(of: try file.configuration(overrides: ConfigOverrides()), preset: .default)
        #expect(summary.contains { $0 == ("metrics", "/run/v.prom every 30 s") })
    }
}
