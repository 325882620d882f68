#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// A pushed configuration on probation: what to go back to, and whom to answer, once
/// (`AnswerOnce`; dropped unanswered, with a failure).
@MainActor
final class ConfigPushTrial {
    var verdictRule: ConfigTrial
    let previous: Configuration
    let previousText: [UInt8]
    private let once: AnswerOnce<RemoteReply>

    init(rule: ConfigTrial, previous: Configuration, previousText: [UInt8], reply: @escaping @MainActor (RemoteReply) -> Void) {
        verdictRule = rule
        self.previous = previous
        self.previousText = previousText
        once = AnswerOnce(unanswered: .failure("the kiosk closed while the pushed configuration was on trial"), deliver: reply)
    }

    /// Answers once; later calls do nothing.
    func answer(_ result: RemoteReply) {
        once.answer(result)
    }
}

/// `cmd/config`: a whole TOML configuration (without `[remote.mqtt]`: the running one's is
/// kept, `ConfigurationFile.completing`), refused if it adds or changes a key naming a
/// local path (`ConfigFile.checkPush`), checked exactly as `check-config` checks a file,
/// written atomically over the running one, applied by replacing the container (the MQTT
/// session, the bus name and the reply channel stay), and kept only if its start page
/// loads in time with a 2xx/3xx status (and its playlist's bundles sync); otherwise the
/// previous file and container come back (`ConfigTrial` decides).
extension VitrineApplication {
    func push(_ sent: String, reply: @escaping @MainActor (RemoteReply) -> Void) {
        guard let configFile, let configPath else {
            return reply(.failure("this kiosk was not started from a configuration file (--config), so there is nothing to replace"))
        }
        let text = configFile.completing(sent, try? String(contentsOfFile: configPath, encoding: .utf8))
        guard trial == nil else { return reply(.failure("another pushed configuration is still on trial; try again when it has been answered")) }
        let read: Configuration
        do {
            read = try configFile.read(text)
        } catch {
            return reply(.failure(String(describing: error)))
        }
        // A file that names no id is the running app's; one that names another is refused.
        guard let pushed = read.keepingApplicationID(configuration.applicationID) else {
            return reply(.failure(
                "refused: a pushed configuration must keep the app's id \(configuration.applicationID) (it names the app on the bus "
                + "and its data folder), got \(read.applicationID)"))
        }
        guard pushed.mqtt == configuration.mqtt else {
            return reply(.failure(
                "refused: a pushed configuration must keep the [remote.mqtt] section it arrived through unchanged "
                + "(broker, device-id, topic-prefix, credentials, certificates, groups, home-assistant); change it on the kiosk itself"))
        }
        guard let previousText = FileManager.default.contents(atPath: configPath) else {
            return reply(.failure("cannot read the running configuration file '\(configPath)'"))
        }
        do {
            try FileSystem.replaceAtomically(configPath, with: Array(text.utf8))
        } catch {
            return reply(.failure("cannot write the configuration: \(error)"))
        }
        let timeout = pushed.mqtt?.configTrialTimeout ?? .seconds(30)
        let trial = ConfigPushTrial(rule: ConfigTrial(of: pushed, timeout: timeout), previous: configuration,
                                    previousText: Array(previousText), reply: reply)
        self.trial = trial
        printToStandardError("\(Self.programName): applying a pushed configuration to \(configPath) (on trial for \(timeout.inSeconds) s)")
        container?.record(.native(action: .configPush, detail: "applying \(configPath)"))
        replaceContainer(with: pushed)
        Task { @MainActor [weak self, weak trial] in
            try? await Task.sleep(for: timeout)
            guard let self, let trial, self.trial === trial else { return }
            self.settle(trial.verdictRule.timedOutVerdict)
        }
    }

    /// Follows the pushed configuration's first events to its verdict.
    func observeTrial(_ event: ContainerEvent) {
        guard let trial, let verdict = trial.verdictRule.observe(event) else { return }
        // Settled after this event has reached every sink: the container is not replaced
        // from inside its own event.
        Task { @MainActor [weak self] in
            guard let self, self.trial === trial else { return }
            self.settle(verdict)
        }
    }

    private func settle(_ verdict: ConfigTrial.Verdict) {
        guard let trial else { return }
        self.trial = nil
        switch verdict {
        case .keep:
            printToStandardError("\(Self.programName): the pushed configuration is kept")
            container?.record(.native(action: .configPush, detail: "kept"))
            trial.answer(.success)
        case .rollBack(let reason):
            printToStandardError("\(Self.programName): rolling back the pushed configuration: \(reason)")
            var restored = ""
            do {
                try FileSystem.replaceAtomically(configPath ?? "", with: trial.previousText)
            } catch {
                restored = " (and the previous file could not be written back: \(error))"
            }
            replaceContainer(with: trial.previous)
            container?.record(.native(action: .configPush, detail: "rolled back: \(reason)\(restored)"))
            trial.answer(.failure(ConfigTrial.rolledBackPrefix + "\(reason)\(restored)"))
        }
    }
}
