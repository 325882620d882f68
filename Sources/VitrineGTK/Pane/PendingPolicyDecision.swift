import CWebKitGTK
import Vitrine

/// A WebKit policy decision held while the Swift chain decides.
///
/// It keeps a reference so WebKit waits, and answers exactly once: `apply` is the normal
/// path; if the object is dropped unanswered (container torn down), it ignores the
/// navigation, failing closed.
@MainActor
final class PendingPolicyDecision {
    private var decision: UnsafeMutablePointer<WebKitPolicyDecision>?

    init(_ decision: UnsafeMutablePointer<WebKitPolicyDecision>) {
        self.decision = decision
        g_object_ref(gptr(decision))
    }

    var isAnswered: Bool { decision == nil }

    /// Answers WebKit. Returns false if it was answered already.
    @discardableResult
    func apply(_ policy: NavigationPolicy) -> Bool {
        guard let decision else { return false }
        self.decision = nil
        switch policy {
        case .allow: webkit_policy_decision_use(decision)
        case .cancel: webkit_policy_decision_ignore(decision)
        case .download: webkit_policy_decision_download(decision)
        }
        g_object_unref(gptr(decision))
        return true
    }

    isolated deinit {
        apply(.cancel)
    }
}
