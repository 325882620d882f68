#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine
import Glibc

/// The one place remote commands are carried out, whoever sent them: the session bus
/// (`RemoteControl`) and an MQTT broker (`MQTTRemote`) both call `perform`. `reload`,
/// `home`, `display`, `next`, `alert` and `alert-clear` are the whole kiosk's (every
/// `[[displays]]` window);
/// `navigate` and `screenshot` the first display's.
///
/// Every command is answered exactly once. A navigation is answered from its load's
/// outcome (`WebContainer.load(_:)`): allowed, or refused with the handler that refused it;
/// a decision that never comes is answered after the chain's own timeout.
@MainActor
public final class RemoteDispatch {
    /// The container commands act on; the program swaps it when a pushed configuration applies.
    /// With `[[displays]]`, the first display's window.
    public weak var container: WebContainer?
    /// Every window the kiosk-wide commands (`reload`, `home`, `display`, `next`) act on,
    /// with `[[displays]]`; nil: `container` alone.
    public var everyWindow: (() -> [WebContainer])?
    /// Checks, applies and keeps or rolls back a pushed configuration; nil: refused.
    public var applyConfiguration: ((String, @escaping @MainActor (RemoteReply) -> Void) -> Void)?
    /// Makes a support bundle's bytes; nil: bundles are refused.
    public var makeSupportArchive: (@MainActor () async throws -> [UInt8]?)?
    /// Whether a bundle is being made: one at a time (a flood of requests makes one).
    public private(set) var isMakingSupportArchive = false
    /// Ends the program as SIGTERM does (`quit`, which only the session bus carries).
    public var quit: (() -> Void)?

    public init() {}

    public func perform(_ command: RemoteCommand, reply: @escaping @MainActor (RemoteReply) -> Void) {
        if command == .quit {
            // Carried by the session bus only (`RemoteCommandName.transports`).
            guard let quit else { return reply(.failure("this program cannot be ended remotely")) }
            quit()
            return reply(.success)
        }
        guard let container else { return reply(.failure("the kiosk has no window")) }
        let kiosk = everyWindow?() ?? [container]
        switch command {
        case .reload:
            for window in kiosk { window.reload() }
            reply(.success)
        case .home:
            for window in kiosk { window.goHome() }
            reply(.success)
        case .next:
            for window in kiosk { window.feature(SignageFeature.self)?.next() }
            reply(.success)
        case .display(let on):
            for window in kiosk { window.feature(SignageFeature.self)?.setDisplay(on: on) }
            reply(.success)
        case .navigate(let url):
            // Immediate: the load starts before `perform` returns, as the other commands act.
            Task.immediate { @MainActor in reply(await container.load(url).reply(loading: url)) }
        case .screenshot(let path):
            guard let path else { return reply(.failure("a screenshot needs a file to write")) }
            Task { @MainActor [weak container] in
                do {
                    guard let container else { return reply(.failure("the kiosk has no window")) }
                    try await container.snapshot(to: path)
                    reply(.success)
                } catch {
                    reply(.failure("the screenshot failed: \(error)"))
                }
            }
        case .support(let path):
            guard let path else { return reply(.failure("a support bundle needs a file to write")) }
            // Answered at once; the link that puts the bundle in place refuses a late one too.
            var status = stat()
            guard lstat(path, &status) != 0 else {
                return reply(.failure("\(path) already exists; a support bundle never replaces a file"))
            }
            supportArchive { result in
                switch result {
                case .success(let bytes):
                    do {
                        try SupportArchiveMaker.writeExclusively(bytes, to: path)
                        reply(.success)
                    } catch {
                        reply(.failure("\(error)"))
                    }
                case .failure(let error):
                    reply(.failure(error.description))
                }
            }
        case .quit:
            break  // answered above, with or without a window
        case .alert(let url, let seconds):
            // Every display at once; the reply is the first display's decision.
            for window in kiosk where window !== container {
                window.feature(SignageFeature.self)?.showAlert(url, seconds: seconds) { _ in }
            }
            guard let signage = container.feature(SignageFeature.self) else { return reply(.failure("the kiosk's window is closed")) }
            signage.showAlert(url, seconds: seconds, reply: reply)
        case .alertClear:
            let cleared = kiosk.map { $0.feature(SignageFeature.self)?.clearAlert() ?? false }.contains(true)
            reply(cleared ? .success : .failure("no alert is shown"))
        case .config(let text):
            guard let applyConfiguration else { return reply(.failure("this kiosk takes no configuration pushes")) }
            applyConfiguration(text, reply)
        }
    }

    /// Makes one support bundle and hands over its bytes, or why there are none; refused
    /// while another is being made.
    public func supportArchive(_ done: @escaping @MainActor (Result<[UInt8], RemoteCommandError>) -> Void) {
        guard let makeSupportArchive else { return done(.failure(RemoteCommandError("this program makes no support bundles"))) }
        guard !isMakingSupportArchive else {
            return done(.failure(RemoteCommandError("a support bundle is already being made; ask again when it is done")))
        }
        isMakingSupportArchive = true
        Task { @MainActor [weak self] in
            let result: Result<[UInt8], RemoteCommandError>
            do {
                guard let bytes = try await makeSupportArchive() else { throw RemoteCommandError("the kiosk has closed") }
                result = .success(bytes)
            } catch {
                result = .failure(error as? RemoteCommandError ?? RemoteCommandError("\(error)"))
            }
            self?.isMakingSupportArchive = false
            done(result)
        }
    }
}
