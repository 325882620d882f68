// swift-tools-version:6.2
// Made by `vitrine new __NAME__`.
import PackageDescription

let package = Package(
    name: "__NAME__",
    dependencies: [
        __VITRINE_PACKAGE__,
    ],
    targets: [
        .executableTarget(
            name: "__NAME__",
            dependencies: [
                .product(name: "Vitrine", package: "Vitrine"),
                .product(name: "VitrineGTK", package: "Vitrine"),
                .product(name: "VitrineConfigFile", package: "Vitrine"),
            ],
            // Only the members of modules this app imports: a String method of Foundation's,
            // picked by accident, would link ICU (34 MB) into the app.
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
    ]
)
