import CWebKitGTK
import Vitrine

/// `webkit_web_view_evaluate_javascript` as an async call returning JSON.
@MainActor
enum JavaScriptEvaluation {
    static func run(_ script: String, in webView: UnsafeMutablePointer<WebKitWebView>) async throws -> JSONValue {
        try await withCheckedThrowingContinuation { continuation in
            AsyncCallback.call({ callback, data in
                webkit_web_view_evaluate_javascript(webView, script, -1, nil, nil, nil, callback, data)
            }, finish: { _, result in
                var error: UnsafeMutablePointer<GError>?
                guard let value = webkit_web_view_evaluate_javascript_finish(webView, result, &error) else {
                    continuation.resume(throwing: GLibError.take(&error, "JavaScript evaluation failed"))
                    return
                }
                defer { g_object_unref(gptr(value)) }
                continuation.resume(with: Result { try JSONValue(jsValue: value) })
            })
        }
    }
}
