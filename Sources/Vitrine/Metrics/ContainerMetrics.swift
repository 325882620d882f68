#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A container's health as Prometheus metrics, counted from its events: an `EventSink`
/// (`WebContainer.addEventSink`) whose `families(memory:)` a writer renders with
/// `PrometheusText` (the program writes them to a file for node_exporter's textfile
/// collector, see `[metrics]` in the README).
///
/// Labels only ever carry values from a small set Vitrine names itself (handler names,
/// outcomes, failure kinds, termination reasons): never a URL or anything a page chooses,
/// so the number of series stays bounded whatever the pages do.
///
/// Time comes from an injected clock, anchored to the wall-clock time at creation, so
/// tests move it by hand.
@MainActor
public final class ContainerMetrics: EventSink {
    /// 1 while the program runs; the program writes 0 at a clean exit.
    public var up = true
    private let startTime: Double
    private let elapsed: @Sendable () -> Duration

    private var loadsStarted = 0
    private var loadsFinished = 0
    private var loadFailures: [String: Int] = [:]
    private var errorPages = 0
    private var terminations: [String: Int] = [:]
    private var crashRecoveries = 0
    private var crashLoops = 0
    private var loadRecoveries = 0
    private var hangs = 0
    private var navigations: [NavigationKey: Int] = [:]
    private var messages: [String: Int] = [:]
    private var lastSuccessfulLoad: Double?
    private var displayOn = true
    private var printJobs: [String: Int] = [:]
    /// Proof of play per playlist item (its index: a number the configuration bounds) and outcome.
    private var plays: [PlayKey: Int] = [:]
    private var playSeconds: [Int: Double] = [:]

    private struct PlayKey: Hashable {
        let item: Int
        let outcome: String
    }

    /// Whether the load under way failed: WebKit ends a failed load with `finished` too,
    /// and it is no page shown.
    private var currentLoadFailed = false

    private struct NavigationKey: Hashable {
        let handler: String
        let policy: String
        let phase: String
    }

    /// - Parameters:
    ///   - clock: measures time from now on.
    ///   - wallTime: the Unix time (seconds) at this instant; timestamps are this plus the
    ///     clock's elapsed time.
    public init<C: Clock>(clock: C, wallTime: Double) where C.Duration == Duration {
        let start = clock.now
        startTime = wallTime
        elapsed = { start.duration(to: clock.now) }
    }

    /// Metrics on the continuous clock, anchored to the system's time.
    public convenience init() {
        self.init(clock: ContinuousClock(), wallTime: Date().timeIntervalSince1970)
    }

    /// The Unix time now, by the injected clock.
    public var now: Double { startTime + elapsed().inSeconds }

    public func record(_ event: ContainerEvent) {
        switch event {
        case let .load(event, _, _, _, shown):
            loadChanged(event, shown: shown)
        case let .navigation(_, handler, policy, _, _, phase):
            navigations[NavigationKey(handler: handler, policy: policy.rawValue, phase: phase.rawValue), default: 0] += 1
        case let .message(_, outcome, _, _, _):
            messages[outcome.rawValue, default: 0] += 1
        case let .native(action, detail):
            nativeEvent(action, detail)
        case .permission, .mediaCodecs, .renderer, .bundleSync, .startup, .sidecar, .sidecarOutput:
            break
        case let .print(_, _, outcome, _):
            printJobs[outcome.rawValue, default: 0] += 1
        case let .proofOfPlay(record):
            plays[PlayKey(item: record.item, outcome: record.outcome.rawValue), default: 0] += 1
            if record.outcome == .shown || record.outcome == .stale { playSeconds[record.item, default: 0] += record.seconds }
        }
    }

    /// Only live pages count: an error page or a kept copy is a load of its own (its
    /// event's `shown` says so), shown because the page itself could not be.
    private func loadChanged(_ event: ContainerEvent.LoadEvent, shown: ContainerEvent.ShownPage) {
        switch event {
        case .started:
            currentLoadFailed = false
            if shown == .live { loadsStarted += 1 }
        case .failed, .tlsError:
            currentLoadFailed = true
        case .finished where !currentLoadFailed && shown == .live:
            loadsFinished += 1
            lastSuccessfulLoad = now
        default:
            break
        }
    }

    private func nativeEvent(_ action: ContainerEvent.NativeAction, _ detail: String) {
        switch action {
        case .loadFailure: loadFailures[detail, default: 0] += 1
        case .errorPage: errorPages += 1
        case .webProcessTerminated: terminations[detail, default: 0] += 1
        case .recover: crashRecoveries += 1
        case .crashLoop: crashLoops += 1
        case .recovered: loadRecoveries += 1
        case .unresponsive: hangs += 1
        // The schedule's, a command's or input's (`SignageScheduler`'s events).
        case .displayOn: displayOn = true
        case .displayOff: displayOn = false
        default: break
        }
    }

    /// Every metric, in a fixed order; `memory` is the process tree's, when sampled.
    public func families(memory: ProcessTreeMemory?) -> [MetricFamily] {
        var families: [MetricFamily] = [
            MetricFamily("vitrine_up", .gauge, help: "1 while Vitrine runs; 0 written when it exits cleanly.", value: up ? 1 : 0),
            MetricFamily("vitrine_start_time_seconds", .gauge, help: "Unix time Vitrine started.", value: startTime),
            MetricFamily("vitrine_loads_started_total", .counter, help: "Page loads started (error pages and kept copies not counted).",
                         value: Double(loadsStarted)),
            MetricFamily("vitrine_loads_finished_total", .counter,
                         help: "Page loads finished successfully (not failed, not an error page, not a kept copy).",
                         value: Double(loadsFinished)),
            MetricFamily("vitrine_load_failures_total", .counter,
                         help: "Loads that could not reach their page, by kind (connection-refused, host-not-found, timed-out, tls, http-502/503/504, network).",
                         samples: labelled("kind", loadFailures)),
            MetricFamily("vitrine_error_pages_total", .counter, help: "Vitrine's error page shown (load failure or crash loop).",
                         value: Double(errorPages)),
            MetricFamily("vitrine_last_successful_load_timestamp_seconds", .gauge,
                         help: "Unix time the last live page load finished successfully; 0 before the first.",
                         value: lastSuccessfulLoad ?? 0),
            MetricFamily("vitrine_web_process_terminations_total", .counter,
                         help: "Web processes that ended under a page, by reason (crashed, exceeded-memory-limit, terminated).",
                         samples: labelled("reason", terminations)),
            MetricFamily("vitrine_crash_recoveries_total", .counter, help: "Pages reloaded after their web process ended.",
                         value: Double(crashRecoveries)),
            MetricFamily("vitrine_crash_loops_total", .counter, help: "Crash loops detected (the crash-loop page shown instead of a reload).",
                         value: Double(crashLoops)),
            MetricFamily("vitrine_load_recoveries_total", .counter, help: "Pages that loaded again after failing.",
                         value: Double(loadRecoveries)),
            MetricFamily("vitrine_hangs_total", .counter, help: "Pages that stopped answering and were terminated.",
                         value: Double(hangs)),
            MetricFamily("vitrine_navigations_total", .counter,
                         help: "Navigation decisions, by the handler that decided, the policy (allow, cancel, download) and the phase (request, response).",
                         samples: navigations.sorted { ($0.key.handler, $0.key.policy, $0.key.phase) < ($1.key.handler, $1.key.policy, $1.key.phase) }
                            .map { MetricFamily.Sample(Double($0.value), labels: [.init("handler", $0.key.handler),
                                                                                  .init("phase", $0.key.phase),
                                                                                  .init("policy", $0.key.policy)]) }),
            MetricFamily("vitrine_script_messages_total", .counter, help: "Script messages from pages, by outcome (resolved, rejected).",
                         samples: labelled("outcome", messages)),
            MetricFamily("vitrine_display_on", .gauge, help: "1 while the display is on, 0 while it is off.", value: displayOn ? 1 : 0),
            MetricFamily("vitrine_print_jobs_total", .counter, help: "Print jobs ([printing]), by outcome (printed, failed, refused).",
                         samples: labelled("outcome", printJobs)),
            MetricFamily("vitrine_playlist_item_plays_total", .counter,
                         help: "Playlist items' turns, by item (its place in the playlist, from 0) and outcome (shown, skipped, failed, stale).",
                         samples: plays.sorted { ($0.key.item, $0.key.outcome) < ($1.key.item, $1.key.outcome) }
                            .map { MetricFamily.Sample(Double($0.value), labels: [.init("item", String($0.key.item)),
                                                                                  .init("outcome", $0.key.outcome)]) }),
            MetricFamily("vitrine_playlist_item_seconds_total", .counter,
                         help: "Seconds each playlist item was on screen (shown or stale), by item.",
                         samples: playSeconds.sorted { $0.key < $1.key }
                            .map { MetricFamily.Sample($0.value, labels: [.init("item", String($0.key))]) }),
        ]
        if let memory {
            families += [
                MetricFamily("vitrine_process_tree_processes", .gauge,
                             help: "Processes in Vitrine's tree (the program and WebKit's processes).", value: Double(memory.processes)),
                MetricFamily("vitrine_process_tree_resident_memory_bytes", .gauge,
                             help: "Resident memory (RSS) summed over the process tree; shared pages counted in each process.",
                             value: Double(memory.residentBytes)),
                MetricFamily("vitrine_process_tree_proportional_memory_bytes", .gauge,
                             help: "Proportional set size (PSS) summed over the process tree: what the tree costs.",
                             value: Double(memory.proportionalBytes)),
            ]
        }
        return families
    }

    /// The metrics in Prometheus's text format.
    public func render(memory: ProcessTreeMemory?) -> String {
        PrometheusText.render(families(memory: memory))
    }

    private func labelled(_ label: String, _ counts: [String: Int]) -> [MetricFamily.Sample] {
        counts.sorted { $0.key < $1.key }.map { MetricFamily.Sample(Double($0.value), labels: [.init(label, $0.key)]) }
    }
}
