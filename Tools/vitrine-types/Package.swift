// swift-tools-version:6.2
import PackageDescription

// vitrine-types: an app's typed strategies → its page's TypeScript declarations. A package of
// its own because it reads Swift with swift-syntax, whose first build takes minutes: Vitrine's
// own `swift build` (and every app's) does not pay for it. `swift package
// generate-vitrine-types` builds it the first time it is used.
let package = Package(
    name: "vitrine-types",
    products: [
        .executable(name: "vitrine-types", targets: ["vitrine-types"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "602.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "vitrine-types",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
    ]
)
