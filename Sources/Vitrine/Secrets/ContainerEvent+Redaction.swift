extension ContainerEvent {
    /// The event as it may leave the process: every text field through `Redaction.text(_:)`
    /// (URLs' passwords and secret parameters, the configuration's credentials). The
    /// container's sinks are told only this form (`EventSinks`), so the events log, MQTT,
    /// the state, metrics and support bundles never see a credential.
    public var redacted: ContainerEvent {
        let clean = Redaction.text
        switch self {
        case let .navigation(url, handler, policy, navigationType, target, phase):
            return .navigation(url: clean(url), handler: handler, policy: policy, navigationType: navigationType, target: target, phase: phase)
        case let .message(name, outcome, error, origin, code):
            return .message(name: name, outcome: outcome, error: error.map(clean), origin: origin.map(clean), code: code)
        case let .load(event, url, error, status, shown):
            return .load(event: event, url: clean(url), error: error.map(clean), status: status, shown: shown)
        case let .native(action, detail):
            return .native(action: action, detail: clean(detail))
        case let .permission(kind, origin, granted):
            return .permission(kind: kind, origin: clean(origin), granted: granted)
        case let .print(queue, job, outcome, error):
            return .print(queue: clean(queue), job: job, outcome: outcome, error: error.map(clean))
        case var .proofOfPlay(record):
            record.url = clean(record.url)
            return .proofOfPlay(record)
        case var .bundleSync(report):
            report.url = clean(report.url)
            report.reason = report.reason.map(clean)
            return .bundleSync(report)
        case var .sidecar(record):
            record.detail = record.detail.map(clean)
            return .sidecar(record)
        case let .sidecarOutput(name, stream, line):
            return .sidecarOutput(name: name, stream: stream, line: clean(line))
        case .mediaCodecs, .renderer, .startup:
            return self
        }
    }
}
