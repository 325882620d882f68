#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

/// What the application keeps for the people who look after a kiosk: support bundles,
/// proof of play, and what the machine offers media and rendering.
extension VitrineApplication {
    /// A support bundle of the running kiosk (`cmd/support`, `vitrine ctl support-bundle`).
    func supportArchive() async throws -> [UInt8] {
        guard let container else { throw RemoteCommandError("the kiosk has no window") }
        var maker = SupportArchiveMaker(events: recentEvents.lines, metrics: (metricsFile?.metrics ?? bundleMetrics).render(memory: nil),
                                       container: container)
        if let configFile, let redact = configFile.redact {
            let text = FileManager.default.contents(atPath: configFile.path).map { String(decoding: $0, as: UTF8.self) }
            maker.configuration = text.flatMap(redact)
            if maker.configuration == nil { maker.configurationMissing = "cannot read \(configFile.path) as TOML" }
        }
        return try await maker.make()
    }

    /// `<app data>/proof-of-play/`, when the configuration has a playlist; its write errors are printed once each.
    func makeProofOfPlayLog() -> ProofOfPlayLog? {
        guard !configuration.schedule.playlist.isEmpty || configuration.displays.contains(where: { !$0.playlist.isEmpty }) else { return nil }
        let log = ProofOfPlayLog(folder: configuration.appDataDirectory.appendingPathComponent("proof-of-play"),
                                 keepDays: configuration.schedule.proofOfPlayDays)
        log.onError = { printToStandardError("\(Self.programName): proof of play: \($0)") }
        return log
    }

    /// Once, when GStreamer has listed its decoders, on standard error: playlist items no
    /// decoder here plays, or GStreamer's own failure (the renderer's choice is the events
    /// log's `renderer` line).
    func warnAboutMachineMedia(_ codecs: MachineFacts.Codecs) {
        switch codecs {
        case .success(let codecs):
            for warning in configuration.mediaWarnings(codecs) { printToStandardError("\(Self.programName): warning: \(warning)") }
        case .failure(let error):
            printToStandardError("\(Self.programName): warning: cannot list the media decoders: \(error)")
        }
    }
}
