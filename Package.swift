// swift-tools-version:6.2
import PackageDescription

// The modules linked into `vitrine` see only the members of modules they import themselves.
// TOMLKit imports Foundation, and without this its importers would call Foundation's
// String methods (`contains`, `replacingOccurrences`…) instead of the standard library's:
// one such call links all of Foundation, and with it 34 MB of ICU data, into the program.
let onlyImportedMembers: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

let package = Package(
    name: "Vitrine",
    products: [
        // The pure core: chain, strategies, configuration, presets. No display needed.
        .library(name: "Vitrine", targets: ["Vitrine"]),
        // The GTK/WebKitGTK adapter: build your own container with your own handlers.
        .library(name: "VitrineGTK", targets: ["VitrineGTK"]),
        // Configuration files (TOML) onto the Configurator.
        .library(name: "VitrineConfigFile", targets: ["VitrineConfigFile"]),
        // Testing an app's own handlers and strategies: `VitrineTesting` (no display: a
        // recording container host, a manual clock, the in-memory event log's stream) and
        // `VitrineTestingGTK` (a real WebKitGTK view under a display, GLib's loop on the main
        // thread, waits that end on events). A test target that links the GTK half gets its
        // `dispatch_main` (see Tests/MainQueueOnMainThread/dispatch_main.c).
        .library(name: "VitrineTesting", targets: ["VitrineTesting", "VitrineTestingGTK"]),
        .executable(name: "vitrine", targets: ["vitrine"]),
        // The page's TypeScript for an app's typed strategies, read from its sources by
        // Tools/vitrine-types (a package of its own, built the first time this is used).
        .plugin(name: "GenerateVitrineTypes", targets: ["GenerateVitrineTypes"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // `make docs`: the libraries' DocC catalogs (a command plugin; nothing links it).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CWebKitGTK",
            pkgConfig: "webkit2gtk-4.1",
            providers: [.apt(["libwebkit2gtk-4.1-dev", "libgtk-3-dev", "libgstreamer1.0-dev", "libegl-dev", "libgles-dev"])]
        ),
        // Mosquitto's MQTT client library (VitrineGTK/Remote) and libarchive (playlist
        // bundles, VitrineGTK/Signage): only some configurations use them, so they are opened
        // on first use (CLazyLibrary) rather than linked; their headers come from
        // libmosquitto-dev and libarchive-dev.
        .target(name: "CLazyLibrary"),
        .target(name: "CMosquitto", dependencies: ["CLazyLibrary"]),
        .target(name: "CArchive", dependencies: ["CLazyLibrary"]),
        // libgcrypt (WebKit links it already): Ed25519 and SHA-256 of signed updates.
        .systemLibrary(
            name: "CGcrypt",
            pkgConfig: "libgcrypt",
            providers: [.apt(["libgcrypt20-dev"])]
        ),
        // Signing and checking updates (Ed25519, SHA-256): for `vitrine bundle` and the adapter.
        .target(name: "VitrineSigning", dependencies: ["CGcrypt"]),
        .target(
            name: "Vitrine",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            // BridgeProtocol: the constants Swift shares with the SDK's JavaScript, from
            // Resources/sdk/protocol.json at build time.
            plugins: [.plugin(name: "BridgeProtocolConstants")]
        ),
        // protocol.json → BridgeProtocol.swift, for the plugin below.
        .executableTarget(name: "vitrine-protocol-constants"),
        .plugin(
            name: "BridgeProtocolConstants",
            capability: .buildTool(),
            dependencies: ["vitrine-protocol-constants"]
        ),
        // What only the `vitrine` tool does with an app, apart from the embedding API: the
        // app's package (.deb, .rpm, tarball), flattened pkg-config files, `vitrine new`'s
        // scaffold, a fleet rollout's plan and its tables. Not a product: embedders never link it.
        .target(name: "VitrineTooling", dependencies: ["Vitrine"], swiftSettings: onlyImportedMembers),
        // TOML configuration files → Configurator. Apart from the core because TOMLKit
        // links all of Foundation, which the core (and embedders) should not pay for.
        .target(
            name: "VitrineConfigFile",
            dependencies: ["Vitrine", .product(name: "TOMLKit", package: "TOMLKit")],
            swiftSettings: onlyImportedMembers
        ),
        .target(
            name: "VitrineGTK",
            dependencies: ["Vitrine", "VitrineSigning", "CWebKitGTK", "CMosquitto", "CArchive", .product(name: "Logging", package: "swift-log")]
        ),
        .executableTarget(
            name: "vitrine",
            dependencies: [
                "Vitrine", "VitrineGTK", "VitrineConfigFile", "VitrineTooling", "VitrineSigning",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: onlyImportedMembers
        ),
        // `swift package generate-vitrine-types`: vitrine-types on the package's sources. No
        // tool dependency: SwiftPM would build a plugin's tools (swift-syntax) in every `swift
        // build` of this package; the plugin builds Tools/vitrine-types itself when it runs.
        .plugin(
            name: "GenerateVitrineTypes",
            capability: .command(
                intent: .custom(verb: "generate-vitrine-types", description: "Write the page's TypeScript for the typed strategies"),
                permissions: [.writeToPackageDirectory(reason: "writes web/strategies.d.ts (or --output)")]
            )
        ),
        .target(name: "VitrineTesting", dependencies: ["Vitrine"]),
        .target(
            name: "VitrineTestingGTK",
            dependencies: ["Vitrine", "VitrineGTK", "VitrineTesting", "CWebKitGTK", "MainQueueOnMainThread"]
        ),
        // Helpers the test targets share: temporary folders, built products, subprocesses.
        .target(name: "VitrineTestSupport", dependencies: ["VitrineTesting"], path: "Tests/TestSupport"),
        // Tests that need no display (`make test-core` runs them with none set): the core,
        // the tool's own code and the program's command line.
        .testTarget(name: "VitrineTests", dependencies: ["Vitrine", "VitrineConfigFile", "VitrineTesting", "VitrineTestSupport", "VitrineSigning",
                                                     .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "VitrineToolingTests", dependencies: ["Vitrine", "VitrineTooling", "VitrineConfigFile", "VitrineTestSupport"]),
        .testTarget(name: "VitrineCLITests", dependencies: ["VitrineTestSupport"]),
        // A tiny program the window tests run as a subprocess: it checks the gtk_main path.
        .executableTarget(
            name: "vitrine-loop-check",
            dependencies: ["Vitrine", "VitrineGTK"],
            path: "Tests/LoopCheck"
        ),
        // Two of these write one store at once in the storage tests (other processes of an app).
        .executableTarget(
            name: "vitrine-store-writer",
            dependencies: ["Vitrine"],
            path: "Tests/StoreWriter"
        ),
        // A program built on the library as an embedder builds one (its own Configurator and
        // app id, the application object): the app id tests run it as a subprocess.
        .executableTarget(
            name: "vitrine-embedder-check",
            dependencies: ["Vitrine", "VitrineGTK"],
            path: "Tests/EmbedderCheck"
        ),
        // The test process runs GLib's loop on its main thread, where GTK and WebKit must
        // run, and drains the main queue from it (see Tests/MainQueueOnMainThread/
        // dispatch_main.c): its `dispatch_main` is exported so that it takes the place of
        // libdispatch's.
        .target(
            name: "MainQueueOnMainThread",
            dependencies: ["CWebKitGTK"], // GLib, whose loop it runs
            path: "Tests/MainQueueOnMainThread",
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic-symbol=dispatch_main"])]
        ),
        .testTarget(
            name: "VitrineGTKTests",
            dependencies: ["Vitrine", "VitrineGTK", "CWebKitGTK", "MainQueueOnMainThread", "VitrineTesting",
                           "VitrineTestingGTK", "VitrineTestSupport", "VitrineSigning"],
            // The loopback servers the tests start (Python), not sources.
            exclude: ["Support/test_server.py", "Support/fake_screensaver.py", "Support/fake_notifications.py",
                      "Support/standin.py", "Support/choose_file.py", "Support/keyboard_atspi.py",
                      "Support/rfb_pixel.py", "Support/rfb_probe.py", "Support/menu_atspi.py",
                      "Support/virtual_pointer.py", "Support/bundle_server.py",
                      "Support/fake_global_shortcuts_portal.py", "Support/fake_settings_portal.py", "Support/sidecar.py"]
        ),
    ]
)
