import CMosquitto
import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import Synchronization
import Vitrine

/// One libmosquitto client and the thread that runs its network loop.
///
/// The loop thread is this class's own (not the main loop's): connecting, TLS, reading and
/// the broker's acknowledgements never block GTK. libmosquitto's `loop_forever` reconnects
/// with exponential backoff by itself; when it gives up on an error it deems fatal (a TLS
/// failure, an unknown host while the network is down) this loop waits and tries again, so
/// a kiosk never stays cut off. The handle is destroyed when the thread has ended and the
/// owner (`MQTTClient`) let go: whichever holds the last reference.
final class MosquittoSession: @unchecked Sendable {
    /// What the loop thread hands to the main loop.
    enum Report: Sendable {
        case connected
        case disconnected(code: Int32)
        case message(topic: String, payload: [UInt8], retained: Bool)
        case published
    }

    let handle: OpaquePointer
    private let host: String
    private let port: Int32
    private let stopping = Atomic<Bool>(false)
    /// Where reports go, on the main loop; cleared when the owner goes.
    private let deliver: @Sendable (Report) -> Void
    /// A CA bundle made for several CA files, removed with the session.
    private var temporaryCAFile: String?

    static let keepAlive: Int32 = 30

    /// A session as `clientID` (default: the kiosk's, `vitrine-ID`), leaving `will` on the
    /// kiosk's state topic when it goes (nil: no will, as an operator's tool).
    init(settings: MQTTSettings, clientID: String? = nil, will: [UInt8]?, deliver: @escaping @Sendable (Report) -> Void) throws {
        if let missing = vitrine_mosquitto_unavailable() {
            throw RemoteControlError("MQTT needs libmosquitto (Debian's libmosquitto1): \(String(cString: missing))")
        }
        mosquitto_lib_init()
        self.deliver = deliver
        host = settings.broker.host
        port = Int32(settings.broker.port)
        guard let handle = mosquitto_new(clientID ?? "vitrine-\(settings.deviceID)", true, nil) else {
            throw RemoteControlError("cannot make an MQTT client")
        }
        self.handle = handle
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5)
        // Small packets (an events line, a command's reply) go at once: with Nagle's
        // algorithm one waits for the broker's delayed ACK of the one before (~40 ms).
        mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1)
        mosquitto_threaded_set(handle, true)
        mosquitto_reconnect_delay_set(handle, 1, 30, true)
        mosquitto_max_inflight_messages_set(handle, 20)
        if let will { try check(mosquitto_will_set(handle, settings.topics.state, Int32(will.count), will, 1, true), "the last will") }
        if let username = settings.username {
            try check(mosquitto_username_pw_set(handle, username, settings.password?.revealed), "the user name")
        }
        if settings.broker.usesTLS { try setUpTLS(settings) }
        mosquitto_connect_callback_set(handle, onConnect)
        mosquitto_disconnect_callback_set(handle, onDisconnect)
        mosquitto_message_callback_set(handle, onMessage)
        mosquitto_publish_callback_set(handle, onPublish)
    }

    /// TLS that always verifies the broker's certificate and host name (there is no switch
    /// to turn that off): against the configured CA files, else the system's.
    private func setUpTLS(_ settings: MQTTSettings) throws {
        var caFile: String?
        if settings.caCertificates.count == 1 {
            caFile = settings.caCertificates[0]
        } else if settings.caCertificates.count > 1 {
            let bundle = settings.caCertificates.compactMap { FileManager.default.contents(atPath: $0) }.reduce(Data()) { $0 + $1 + Data("\n".utf8) }
            let path = String(cString: g_get_tmp_dir()) + "/vitrine-mqtt-ca-\(getpid()).pem"
            try bundle.write(to: URL(fileURLWithPath: path), options: .atomic)
            temporaryCAFile = path
            caFile = path
        } else {
            mosquitto_int_option(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1)
        }
        try check(mosquitto_tls_set(handle, caFile, caFile == nil ? "/etc/ssl/certs" : nil, settings.clientCertificate,
                                    settings.clientKey, nil), "TLS")
        try check(mosquitto_tls_opts_set(handle, 1, nil, nil), "TLS verification")
        try check(mosquitto_tls_insecure_set(handle, false), "TLS host name verification")
    }

    private func check(_ code: Int32, _ what: String) throws {
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            throw RemoteControlError("MQTT \(what): \(String(cString: mosquitto_strerror(code)))")
        }
    }

    /// Starts the loop thread; the connection is made there (a broker that is down, or a
    /// name that does not resolve, never delays the caller).
    func start() {
        // The thread holds the session until its loop ends.
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            let session = Unmanaged<MosquittoSession>.fromOpaque(context!).takeRetainedValue()
            session.runLoop()
            return nil
        }, context)
        if created == 0 { pthread_detach(thread) } else { Unmanaged<MosquittoSession>.fromOpaque(context).release() }
    }

    private var isStopping: Bool { stopping.load(ordering: .acquiring) }

    fileprivate func runLoop() {
        var delay = 1.0
        var code = mosquitto_connect_async(handle, host, port, Self.keepAlive)
        while !isStopping {
            // NO_CONN (the first connect failed) is retried by loop_forever itself.
            code = mosquitto_loop_forever(handle, 1000, 1)
            if isStopping { break }
            // Waits in short steps so that a stop is noticed at once.
            for _ in 0..<Int(delay * 10) where !isStopping { usleep(100_000) }
            delay = min(delay * 2, 30)
            if isStopping { break }
            code = mosquitto_reconnect_async(handle)
            _ = code
        }
    }

    /// Ends the session: the broker publishes the last will (an MQTT 5 disconnect "with
    /// will message"), the loop thread ends.
    func stop() {
        stopping.store(true, ordering: .releasing)
        mosquitto_disconnect_v5(handle, 4, nil)
    }

    /// Queues `payload` (QoS 1); false when libmosquitto refuses it.
    func publish(_ topic: String, _ payload: [UInt8], retain: Bool) -> Bool {
        mosquitto_publish(handle, nil, topic, Int32(payload.count), payload, 1, retain) == MOSQ_ERR_SUCCESS.rawValue
    }

    func subscribe(_ pattern: String) {
        mosquitto_subscribe(handle, nil, pattern, 1)
    }

    func report(_ report: Report) {
        guard !isStopping else { return }
        deliver(report)
    }

    deinit {
        mosquitto_destroy(handle)
        if let temporaryCAFile { unlink(temporaryCAFile) }
    }
}

private func session(_ data: UnsafeMutableRawPointer?) -> MosquittoSession? {
    data.map { Unmanaged<MosquittoSession>.fromOpaque($0).takeUnretainedValue() }
}

// The callbacks run on the loop thread: they copy what they need and hand it on.
private let onConnect: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Void = { _, data, code in
    session(data)?.report(code == 0 ? .connected : .disconnected(code: code))
}
private let onDisconnect: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Void = { _, data, code in
    session(data)?.report(.disconnected(code: code))
}
private let onPublish: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Void = { _, data, _ in
    session(data)?.report(.published)
}
private let onMessage: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafePointer<mosquitto_message>?) -> Void = {
    _, data, message in
    guard let message = message?.pointee, let topicPointer = message.topic else { return }
    let topic = String(cString: topicPointer)
    let count = Int(max(0, message.payloadlen))
    let payload = message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    session(data)?.report(.message(topic: topic, payload: payload, retained: message.retain))
}
