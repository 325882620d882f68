import ArgumentParser
import VitrineGTK

/// `vitrine media-decoders` (hidden): the sink caps of GStreamer's decoders here, one per
/// line, for the running program (`ProcessRendering.decoderLister`), which so never reads
/// GStreamer's registry itself.
struct MediaDecodersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "media-decoders",
        abstract: "Print the sink caps of GStreamer's decoders, one per line.",
        shouldDisplay: false)

    func run() throws {
        switch ProcessRendering.decoderCaps {
        case .success(let caps):
            for line in caps { print(line) }
        case .failure(let error):
            throw RuntimeFailure(error.message)
        }
    }
}
