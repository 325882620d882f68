import CWebKitGTK

/// Casts a typed C callback to `GCallback` for `g_signal_connect_data`.
func gCallback<F>(_ function: F) -> GCallback {
    unsafeBitCast(function, to: GCallback.self)
}

/// A `gpointer` to any C object pointer.
@inline(__always) func gptr(_ pointer: OpaquePointer) -> gpointer { UnsafeMutableRawPointer(pointer) }
@inline(__always) func gptr<T>(_ pointer: UnsafeMutablePointer<T>) -> gpointer { UnsafeMutableRawPointer(pointer) }

/// The same GObject seen as another type in its class hierarchy (C's upcast/downcast macros).
@inline(__always) func cast<T, U>(_ pointer: UnsafeMutablePointer<U>) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: T.self)
}

/// Swift String from a C string owned by GLib (not freed here).
@inline(__always) func string(_ cString: UnsafePointer<gchar>?) -> String? { cString.map { String(cString: $0) } }

/// Swift String from a C string this code owns: frees it with g_free.
func takeString(_ cString: UnsafeMutablePointer<gchar>?) -> String? {
    guard let cString else { return nil }
    defer { g_free(cString) }
    return String(cString: cString)
}

extension Array where Element == String {
    /// Runs `body` with the strings as a NULL-terminated C array of C strings (copies,
    /// freed afterwards).
    func withCStringArray<Result>(_ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
        let copies = map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var pointers = copies.map { UnsafePointer($0) } + [nil]
        return body(&pointers)
    }
}
