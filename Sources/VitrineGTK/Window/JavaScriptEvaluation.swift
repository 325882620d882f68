import CWebKitGTK
import Vitrine

/// Runs JavaScript in a view and returns its result as JSON.
@MainActor
enum JavaScriptEvaluation {
    /// Evaluates an expression (`webkit_web_view_evaluate_javascript`) in the page's world,
    /// or in the script world `world`.
    static func run(_ script: String, in webView: UnsafeMutablePointer<WebKitWebView>, world: String? = nil) async throws -> JSONValue {
        try await withCheckedThrowingContinuation { continuation in
            AsyncCallback.call({ callback, data in
                webkit_web_view_evaluate_javascript(webView, script, -1, world, nil, nil, callback, data)
            }, finish: { _, result in
                var error: UnsafeMutablePointer<GError>?
                let value = webkit_web_view_evaluate_javascript_finish(webView, result, &error)
                continuation.resume(with: convert(value, &error))
            })
        }
    }

    /// Runs a function body that may `await`; resolves with what its Promise resolves to
    /// (`webkit_web_view_call_async_javascript_function`).
    static func runAsyncFunction(_ body: String, in webView: UnsafeMutablePointer<WebKitWebView>) async throws -> JSONValue {
        try await withCheckedThrowingContinuation { continuation in
            AsyncCallback.call({ callback, data in
                webkit_web_view_call_async_javascript_function(webView, body, -1, nil, nil, nil, nil, callback, data)
            }, finish: { _, result in
                var error: UnsafeMutablePointer<GError>?
                let value = webkit_web_view_call_async_javascript_function_finish(webView, result, &error)
                continuation.resume(with: convert(value, &error))
            })
        }
    }

    private static func convert(_ value: UnsafeMutablePointer<JSCValue>?, _ error: inout UnsafeMutablePointer<GError>?) -> Result<JSONValue, Error> {
        guard let value else { return .failure(GLibError.take(&error, "JavaScript failed")) }
        defer { g_object_unref(gptr(value)) }
        return Result { try JSONValue(jsValue: value) }
    }
}
