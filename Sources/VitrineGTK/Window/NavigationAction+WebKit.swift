import CWebKitGTK
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Vitrine

extension NavigationAction {
    /// The plain value of a WebKit policy decision, or nil for a URL Swift cannot parse.
    init?(decision policyDecision: UnsafeMutablePointer<WebKitPolicyDecision>, type: WebKitPolicyDecisionType) {
        switch type {
        case WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION, WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION:
            let decision: UnsafeMutablePointer<WebKitNavigationPolicyDecision> = cast(policyDecision)
            guard let action = webkit_navigation_policy_decision_get_navigation_action(decision) else { return nil }
            self.init(action: action, target: type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION ? .newWindow : .currentView)
        case WEBKIT_POLICY_DECISION_TYPE_RESPONSE:
            let decision: UnsafeMutablePointer<WebKitResponsePolicyDecision> = cast(policyDecision)
            guard let response = webkit_response_policy_decision_get_response(decision),
                  let uri = string(webkit_uri_response_get_uri(response)),
                  let url = URL(string: uri)
            else { return nil }
            let request = webkit_response_policy_decision_get_request(decision)
            self.init(
                url: url,
                httpMethod: request.flatMap { string(webkit_uri_request_get_http_method($0)) } ?? "GET",
                phase: .response(NavigationResponse(
                    mimeType: string(webkit_uri_response_get_mime_type(response)) ?? "",
                    statusCode: Int(webkit_uri_response_get_status_code(response)),
                    canShowMIMEType: webkit_response_policy_decision_is_mime_type_supported(decision) != 0,
                    isMainFrame: webkit_response_policy_decision_is_main_frame_main_resource(decision) != 0)))
        default:
            return nil
        }
    }
}

extension NavigationAction {
    /// The plain value of a `WebKitNavigationAction` (from a policy decision, or from the
    /// `create` signal of `window.open`).
    init?(action: OpaquePointer, target: Target) {
        guard let request = webkit_navigation_action_get_request(action),
              let uri = string(webkit_uri_request_get_uri(request)),
              let url = URL(string: uri)
        else { return nil }
        self.init(
            url: url,
            navigationType: NavigationType(webkit_navigation_action_get_navigation_type(action)),
            target: target,
            isUserGesture: webkit_navigation_action_is_user_gesture(action) != 0,
            isRedirect: webkit_navigation_action_is_redirect(action) != 0,
            httpMethod: string(webkit_uri_request_get_http_method(request)) ?? "GET")
    }
}

extension NavigationAction.NavigationType {
    init(_ type: WebKitNavigationType) {
        switch type {
        case WEBKIT_NAVIGATION_TYPE_LINK_CLICKED: self = .linkActivated
        case WEBKIT_NAVIGATION_TYPE_FORM_SUBMITTED: self = .formSubmitted
        case WEBKIT_NAVIGATION_TYPE_BACK_FORWARD: self = .backForward
        case WEBKIT_NAVIGATION_TYPE_RELOAD: self = .reload
        case WEBKIT_NAVIGATION_TYPE_FORM_RESUBMITTED: self = .formResubmitted
        default: self = .other
        }
    }
}
