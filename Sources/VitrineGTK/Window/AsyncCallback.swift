import CWebKitGTK

/// Bridges one GIO-style async call (`…, GAsyncReadyCallback, gpointer`) to Swift
/// concurrency: the retained box is the callback's user data and is released exactly
/// once, when GIO calls back (GIO always calls back, also on error or cancellation).
@MainActor
enum AsyncCallback {
    final class Box {
        let finish: (UnsafeMutablePointer<GObject>?, OpaquePointer?) -> Void
        init(_ finish: @escaping (UnsafeMutablePointer<GObject>?, OpaquePointer?) -> Void) { self.finish = finish }
    }

    typealias ReadyCallback = @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void

    /// Starts `start` with a callback and user data; `finish` runs with the source object
    /// and the `GAsyncResult`.
    static func call(
        _ start: (ReadyCallback, gpointer) -> Void,
        finish: @escaping (UnsafeMutablePointer<GObject>?, OpaquePointer?) -> Void
    ) {
        let data = Unmanaged.passRetained(Box(finish)).toOpaque()
        start({ source, result, data in
            guard let data else { return }
            let box = Unmanaged<Box>.fromOpaque(data).takeRetainedValue()
            onMainLoop((box, source, result)) { box, source, result in box.finish(source, result) }
        }, data)
    }
}

/// A GError as a Swift error, freeing the GError.
struct GLibError: Error, CustomStringConvertible {
    let description: String

    static func take(_ error: inout UnsafeMutablePointer<GError>?, _ fallback: String) -> GLibError {
        defer { g_clear_error(&error) }
        return GLibError(description: error.flatMap { $0.pointee.message.map { String(cString: $0) } } ?? fallback)
    }
}
