// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "refund-cost",
    products: [
        .executable(name: "refund-cost", targets: ["refund-cost"])
    ],
    targets: [
        // Debian's libcsv-dev ships no pkg-config file, so the module map names the library itself.
        .systemLibrary(
            name: "CLibCSV",
            providers: [.apt(["libcsv-dev"])]
        ),
        .target(
            name: "RefundCost",
            dependencies: ["CLibCSV"]
        ),
        .executableTarget(
            name: "refund-cost",
            dependencies: ["RefundCost"]
        ),
        .testTarget(
            name: "RefundCostTests",
            dependencies: ["RefundCost", "refund-cost"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
