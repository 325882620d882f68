#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CWebKitGTK
import Glibc
import Vitrine

/// The kiosk on an MQTT broker: its retained `state` (last will `{"online":false}`), every
/// events-log line on `events` (and proof-of-play lines on `proof-of-play` too), Home Assistant's discovery messages, and the commands on
/// `cmd/<name>` carried out by the shared `RemoteDispatch` and answered on `reply/<name>`.
/// Commands sent to one of its fleet groups (`PREFIX/group/NAME/cmd/<name>`) are taken
/// exactly as its own, and answered on its own `reply/<name>`.
///
/// Ownership: it holds the session (libmosquitto's handle and loop thread) and ends it in
/// deinit; the session's reports reach it on the main loop through a weak reference, so
/// they fail closed once it is gone. Publishing never blocks: at most `outstandingLimit`
/// messages wait for the broker's acknowledgement; events beyond that, or while the broker
/// is away, are dropped and counted (`droppedMessages`). State and discovery are retained
/// and published again on every (re)connection.
@MainActor
public final class MQTTRemote: EventSink {
    public static let outstandingLimit = 100

    public let settings: MQTTSettings
    public let topics: MQTTTopics
    private let dispatch: RemoteDispatch
    private var session: MosquittoSession?
    private var state: KioskState
    private var lastPublishedState: JSONValue?
    private var outstanding = 0
    public private(set) var isConnected = false
    public private(set) var droppedMessages = 0
    /// Called on every (re)connection, after state and discovery went out.
    public var onConnected: (() -> Void)?

    public init(settings: MQTTSettings, version: String, dispatch: RemoteDispatch) {
        self.settings = settings
        topics = settings.topics
        self.dispatch = dispatch
        state = KioskState(version: version, groups: settings.groups)
    }

    /// Starts connecting on the session's own thread; returns at once.
    public func start() throws {
        guard session == nil else { return }
        let will = Array(KioskState.offline.jsonText.utf8)
        let session = try MosquittoSession(settings: settings, will: will) { [weak self] report in
            MainLoopHop.post { [weak self] in self?.handle(report) }
        }
        self.session = session
        session.start()
    }

    private func handle(_ report: MosquittoSession.Report) {
        switch report {
        case .connected:
            isConnected = true
            outstanding = 0
            for pattern in [topics.commands] + topics.groupCommands { session?.subscribe(pattern) }
            lastPublishedState = nil
            publishState()
            if settings.homeAssistant {
                for (topic, payload) in HomeAssistantDiscovery(topics: topics, version: state.version).messages {
                    send(topic, Array(payload.jsonText.utf8), retain: true, essential: true)
                }
            }
            onConnected?()
        case .disconnected:
            isConnected = false
        case .published:
            outstanding = max(0, outstanding - 1)
        case .message(let topic, let payload, let retained):
            guard let name = topics.commandName(of: topic) else { return }
            // A retained command would run again at every reconnection.
            guard !retained else { return replyOnly(name, .failure("retained commands are ignored: publish commands without the retain flag")) }
            command(name, payload)
        }
    }

    /// Answers `name` on its reply topic (`reply/unknown` for a name that is no command).
    private func replyOnly(_ name: String, _ result: RemoteReply) {
        let known = RemoteCommandName(name, on: .mqtt) != nil
        send(topics.reply(known ? name : MQTTTopics.unknownCommandReply), Array(result.json.jsonText.utf8), retain: false, essential: true)
    }

    private func command(_ name: String, _ payload: [UInt8]) {
        let reply: @MainActor (RemoteReply) -> Void = { [weak self] result in self?.replyOnly(name, result) }
        switch RemoteCommand.parse(name: name, argument: payload, from: .mqtt) {
        case .failure(let error):
            reply(.failure(error.description))
        case .success(.screenshot):
            // Taken to a private file, published as PNG on `screenshot`, then removed.
            let path = String(cString: g_get_tmp_dir()) + "/vitrine-mqtt-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).png"
            dispatch.perform(.screenshot(path: path)) { [weak self] result in
                defer { unlink(path) }
                if result.ok, let self {
                    guard let png = FileManager.default.contents(atPath: path) else { return reply(.failure("the screenshot file is gone")) }
                    self.send(self.topics.screenshot, Array(png), retain: false, essential: true)
                }
                reply(result)
            }
        case .success(.support):
            support(reply: reply)
        case .success(let command):
            dispatch.perform(command, reply: reply)
            publishState() // a display command changes it without an event
        }
    }

    /// A support bundle, uploaded to `[remote] support-upload` when set, else published on
    /// `support` if it is within `SupportArchive.mqttLimit`.
    private func support(reply: @escaping @MainActor (RemoteReply) -> Void) {
        let upload = dispatch.container?.configuration.supportUpload
        dispatch.supportArchive { [weak self] result in
            switch result {
            case .failure(let error):
                reply(.failure(error.description))
            case .success(let bytes):
                if let upload {
                    SupportUpload.put(bytes, to: upload.revealed) { problem in reply(problem.map { .failure($0) } ?? .success) }
                } else if bytes.count > SupportArchive.mqttLimit {
                    reply(.failure("the support bundle is \(bytes.count) bytes, over the \(SupportArchive.mqttLimit) bytes (\(SupportArchive.mqttLimit >> 20) MiB) "
                                   + "published over MQTT; set [remote] support-upload to have it uploaded instead"))
                } else if let self {
                    self.send(self.topics.support, bytes, retain: false, essential: true)
                    reply(.success)
                }
            }
        }
    }

    /// Every events-log line goes out on `events`; the state follows loads and titles.
    public func record(_ event: ContainerEvent) {
        record(event, ownsURL: true)
    }

    /// An event of one of several windows (`[[displays]]`): the state's URL is the first
    /// display's (`ownsURL`), its errors and crashes every window's.
    public func record(_ event: ContainerEvent, ownsURL: Bool) {
        if let line = try? JSONEncoder.compactSorted.encode(event) {
            send(topics.events, Array(line), retain: false, essential: false)
            if case .proofOfPlay = event { send(topics.proofOfPlay, Array(line), retain: false, essential: true) }
        }
        state.observe(event, ownsURL: ownsURL)
        publishState()
    }

    /// Another window became the first display's (its monitor went away, or came back).
    public func firstWindowChanged(url: URL?) {
        state.url = url?.absoluteString ?? ""
        publishState()
    }

    /// Publishes the state again if it changed. The URL is the last page that finished
    /// loading (the view's own address already shows a request the chain may still refuse).
    public func publishState() {
        if let container = dispatch.container {
            state.title = container.pageTitle
            let signage = container.feature(SignageFeature.self)
            state.display = signage?.isDisplayOn ?? true ? "on" : "off"
            state.alert = signage?.alert?.url.absoluteString ?? ""
            state.alertUntil = signage?.alert?.until.timeIntervalSince1970.rounded()
        }
        let json = state.json
        guard json != lastPublishedState, isConnected else { return }
        lastPublishedState = json
        send(topics.state, Array(json.jsonText.utf8), retain: true, essential: true)
    }

    /// Queues one message. Events are dropped (and counted) when the broker is away or too
    /// many wait; replies, state and discovery wait in libmosquitto's queue, which the
    /// outstanding count bounds as well.
    private func send(_ topic: String, _ payload: [UInt8], retain: Bool, essential: Bool) {
        guard let session, isConnected, outstanding < Self.outstandingLimit * (essential ? 2 : 1) else {
            droppedMessages += 1
            return
        }
        if session.publish(topic, payload, retain: retain) { outstanding += 1 } else { droppedMessages += 1 }
    }

    isolated deinit {
        session?.stop()
    }
}
