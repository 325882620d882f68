/// When the service is ready and what it shows, from the container's events: ready once
/// the first page — or the error page that replaced it — has finished loading; the status
/// follows the page shown. A load that failed is not a page shown (WebKit ends it with
/// `finished` too); the error page is announced by its `error-page` event just before it
/// starts.
public struct ServiceReadiness: Sendable {
    private var isReady = false
    private var errorPageAnnounced: String?
    private var currentErrorPage: String?
    private var currentLoadFailed = false

    public init() {}

    /// The notifications `event` calls for (usually none).
    public mutating func record(_ event: ContainerEvent) -> [ServiceNotification] {
        switch event {
        case .native(.errorPage, let detail):
            errorPageAnnounced = detail
        case .load(.started, _, _, _):
            currentErrorPage = errorPageAnnounced
            errorPageAnnounced = nil
            currentLoadFailed = false
        case .load(.failed, _, _, _), .load(.tlsError, _, _, _):
            currentLoadFailed = true
        case .load(.finished, let url, _, _) where !currentLoadFailed:
            let status = currentErrorPage.map { "Error page: \($0)" } ?? "Showing \(url)"
            defer { isReady = true }
            return [isReady ? .status(status) : .ready(status: status)]
        default:
            break
        }
        return []
    }
}
