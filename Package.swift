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
        // OpenSSL's SHA-256 for the input checksums in run.json (uses the CPU's SHA instructions).
        .systemLibrary(
            name: "COpenSSL",
            providers: [.apt(["libssl-dev"])]
        ),
        .target(
            name: "RefundCost",
            dependencies: ["CLibCSV", "COpenSSL"],
            // libcsv's callbacks write to the batch object once per field; the dynamic
            // exclusivity checks on it cost more than the parsing. Debug builds keep them.
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
        ),
        .executableTarget(
            name: "refund-cost",
            dependencies: ["RefundCost"]
        ),
        .testTarget(
            name: "RefundCostTests",
            dependencies: ["RefundCost", "refund-cost"],
            exclude: ["Fixtures", "Golden"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
