/// When the service is ready and what it shows, from the container's events: ready once
/// the first page — or the error page or kept copy that replaced it — has finished
/// loading; the status follows the page shown (the load event's `shown`). A load that
/// failed is not a page shown (WebKit ends it with `finished` too).
public struct ServiceReadiness: Sendable {
    private var isReady = false
    /// The last `error-page` event's detail (the failure's kind and URL), for the status.
    private var errorPageDetail: String?
    private var currentLoadFailed = false

    public init() {}

    /// The notifications `event` calls for (usually none).
    public mutating func record(_ event: ContainerEvent) -> [ServiceNotification] {
        switch event {
        case .native(.errorPage, let detail):
            errorPageDetail = detail
        case .load(.started, _, _, _, _):
            currentLoadFailed = false
        case .load(.failed, _, _, _, _), .load(.tlsError, _, _, _, _):
            currentLoadFailed = true
        case .load(.finished, let url, _, _, let shown) where !currentLoadFailed:
            let status = switch shown {
            case .live: "Showing \(url)"
            case .errorPage: "Error page: \(errorPageDetail ?? url)"
            case .snapshot: "Showing a kept copy: \(url)"
            }
            defer { isReady = true }
            return [isReady ? .status(status) : .ready(status: status)]
        default:
            break
        }
        return []
    }
}
