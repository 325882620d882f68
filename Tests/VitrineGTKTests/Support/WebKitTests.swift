import Testing

/// Every test that touches GTK or WebKit, in one serialized tree: GTK has one thread and
/// one loop, and Swift Testing would otherwise run suites in parallel.
@Suite(.serialized)
enum WebKitTests {}
