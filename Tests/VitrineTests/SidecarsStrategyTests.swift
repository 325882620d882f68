import Foundation
import Testing
import Vitrine

/// The `sidecars` capability's decisions, no display: a granted page reads a sidecar's
/// port and state, an unknown name is refused with the names there are, and pages not
/// granted it (other origins, sandboxed frames) learn nothing.
@MainActor
@Suite
struct SidecarsStrategyTests {
    private final class Sidecars: SidecarsService {
        var statuses: [(String, SidecarStatus)] = [("api", SidecarStatus(port: 40123, state: .ready))]
        func sidecar(named name: String) -> SidecarStatus? { statuses.first { $0.0 == name }?.1 }
        var sidecarNames: [String] { statuses.map(\.0) }
    }

    private func dispatch(_ body: String, sidecars: Sidecars?, pageURL: URL = URL(string: "app://app/index.html")!) async
        -> Result<JSONValue, ScriptMessageError> {
        await ScriptMessageStrategies([SidecarsStrategy()]).dispatch(
            ScriptMessage(name: "sidecars", bodyJSON: body, pageURL: pageURL),
            context: ScriptMessageContext(host: DesktopTestHost(sidecars),
                                          capabilities: CapabilityGrants().granting([.sidecars], to: Origin(string: "app://app")!)))
    }

    @Test func aGrantedPageReadsASidecarsPortAndState() async throws {
        let sidecars = Sidecars()
        let reply = try await dispatch(#"{"action": "get", "name": "api"}"#, sidecars: sidecars).get()
        #expect(reply == .object(["port": .number(40123), "state": .string("ready")]))
        sidecars.statuses = [("api", SidecarStatus(port: 40123, state: .restarting)), ("model", SidecarStatus(port: 40200, state: .starting))]
        #expect(try await dispatch(#"{"action": "get", "name": "model"}"#, sidecars: sidecars).get()
            == .object(["port": .number(40200), "state": .string("starting")]))
        #expect(await dispatch(#"{"action": "get", "name": "db"}"#, sidecars: sidecars)
            == .failure(ScriptMessageError(#"sidecars: get: no sidecar named "db"; the app's are: api, model"#)))
        sidecars.statuses = []
        #expect(await dispatch(#"{"action": "get", "name": "api"}"#, sidecars: sidecars)
            == .failure(ScriptMessageError(#"sidecars: get: no sidecar named "api"; the app declares none ([[sidecars]])"#)))
    }

    @Test func garbageAndOtherPagesAreRefused() async {
        let sidecars = Sidecars()
        #expect(await dispatch(#"{"action": "get", "name": 7}"#, sidecars: sidecars)
            == .failure(ScriptMessageError(#"sidecars: get: field "name" must be a string, got an integer"#)))
        #expect(await dispatch(#"{"action": "start", "name": "api"}"#, sidecars: sidecars)
            == .failure(ScriptMessageError(#"sidecars: field "action" must be one of "get", got "start""#)))
        #expect(await dispatch(#"{"action": "get", "name": "api"}"#, sidecars: sidecars, pageURL: URL(string: "https://x.example/")!)
            == .failure(ScriptMessageError(#"capability "sidecars" is not granted to https://x.example — add it to [capabilities] in the config"#)))
        guard case .failure(let sandboxed) = await dispatch(#"{"action": "get", "name": "api"}"#, sidecars: sidecars,
                                                            pageURL: URL(string: "about:srcdoc")!) else {
            Issue.record("a sandboxed frame read a sidecar")
            return
        }
        #expect(sandboxed.message.contains(#"capability "sidecars" is not granted"#), "\(sandboxed)")
        #expect(await dispatch(#"{"action": "get", "name": "api"}"#, sidecars: nil)
            == .failure(ScriptMessageError("sidecars: this container has no desktop to do it")))
    }
}
