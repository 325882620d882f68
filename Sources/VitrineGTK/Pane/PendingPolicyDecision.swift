import CWebKitGTK
import Vitrine

/// A WebKit policy decision held while the Swift chain decides.
///
/// It keeps a reference so WebKit waits, and answers exactly once (`AnswerOnce`): `apply`
/// is the normal path; if the object is dropped unanswered (container torn down), it
/// ignores the navigation, failing closed.
@MainActor
final class PendingPolicyDecision {
    private let once: AnswerOnce<NavigationPolicy>

    init(_ decision: UnsafeMutablePointer<WebKitPolicyDecision>) {
        g_object_ref(gptr(decision))
        once = AnswerOnce(unanswered: .cancel) { policy in
            switch policy {
            case .allow: webkit_policy_decision_use(decision)
            case .cancel: webkit_policy_decision_ignore(decision)
            case .download: webkit_policy_decision_download(decision)
            }
            g_object_unref(gptr(decision))
        }
    }

    var isAnswered: Bool { once.isAnswered }

    /// Answers WebKit. Returns false if it was answered already.
    @discardableResult
    func apply(_ policy: NavigationPolicy) -> Bool {
        once.answer(policy)
    }
}
