// swift-tools-version:6.0
import PackageDescription

// The stages are targets, so the compiler keeps the pipeline's direction: each stage imports
// only the stages before it (Support <- Ingest <- Ledger <- Attribution <- Report), and a
// backward import does not compile. `Pipeline` runs the stages once for every command.
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
        // OpenSSL's SHA-256 for input checksums (uses the CPU's SHA instructions).
        .systemLibrary(
            name: "COpenSSL",
            providers: [.apt(["libssl-dev"])]
        ),
        // zlib, to gzip the tool's own files (snapshots, partials).
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Intel's ISA-L (igzip), to read gzip inputs as a stream: about three times zlib's speed.
        .systemLibrary(
            name: "CISAL",
            providers: [.apt(["libisal-dev"])]
        ),
        // libcurl, the HTTP client of the App Store Server API (TLS, proxies, timeouts).
        .systemLibrary(
            name: "CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // libpq, the PostgreSQL client, and SQLite: where `publish` loads a report for dashboards.
        .systemLibrary(
            name: "CLibPQ",
            providers: [.apt(["libpq-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // Linux calls the Swift Glibc module does not expose (header only).
        .systemLibrary(name: "CSystem"),
        // Money, time, durations, hashing, diagnostics, files and threads.
        .target(name: "Support", dependencies: ["COpenSSL", "CSystem"], swiftSettings: releaseSettings),
        // Reading inputs: libcsv, cost rows, App Store JSON and JWS, accounts, products, rates.
        .target(name: "Ingest", dependencies: ["Support", "CLibCSV", "CZlib", "CISAL"], swiftSettings: releaseSettings),
        // Transaction states, ends of access, family links, access timelines.
        .target(name: "Ledger", dependencies: ["Ingest", "Support"], swiftSettings: releaseSettings),
        // Cost row -> class, mergeable totals, and the figures every output shows.
        .target(name: "Attribution", dependencies: ["Ledger", "Ingest", "Support"], swiftSettings: releaseSettings),
        // Each output file and the HTML page, from figures alone.
        .target(name: "Report", dependencies: ["Attribution", "Support"], swiftSettings: releaseSettings),
        // Load -> ledger -> attribution -> report, once, for every command.
        .target(
            name: "Pipeline", dependencies: ["Report", "Attribution", "Ledger", "Ingest", "AppStoreAPI", "PlayAPI", "Support"],
            swiftSettings: releaseSettings),
        // Talking to Apple: the App Store Server API client (JWT, HTTP, retries, rate).
        .target(name: "AppStoreAPI", dependencies: ["Ingest", "Support", "CCurl"], swiftSettings: releaseSettings),
        // Talking to Google: the Play Developer API client (a service account's JWT exchanged for
        // an access token, retries), on the same HTTP client.
        .target(name: "PlayAPI", dependencies: ["AppStoreAPI", "Ingest", "Support"], swiftSettings: releaseSettings),
        // After the report: a finished report folder into PostgreSQL or SQLite, for dashboards
        // (each file's columns as the report declares them).
        .target(
            name: "Publish", dependencies: ["Report", "Ingest", "Support", "CLibPQ", "CSQLite"],
            swiftSettings: releaseSettings),
        // The synthetic dataset generator: writes inputs, so it sits beside Ingest, not above it.
        .target(name: "Synthetic", dependencies: ["Ingest", "Support"], swiftSettings: releaseSettings),
        .executableTarget(
            name: "refund-cost",
            dependencies: [
                "Pipeline", "Publish", "Synthetic", "Report", "Attribution", "Ledger", "Ingest", "AppStoreAPI", "PlayAPI",
                "Support",
            ]
        ),
        // What the tests of every stage share: temporary folders, the fixtures in Tests/Fixtures,
        // the built tool, signed App Store data, the API stub and a PostgreSQL server.
        .target(
            name: "TestSupport",
            dependencies: [
                "Support", "Ingest", "Ledger", "Attribution", "Report", "Pipeline", "Publish", "Synthetic", "AppStoreAPI",
            ],
            path: "Tests/TestSupport"
        ),
    ] + stageTests,
    swiftLanguageModes: [.v6]
)

/// A test target per stage, each testing its stage through the stages below it (and the
/// shared support); `CommandTests` runs the built tool as a user does.
var stageTests: [Target] {
    let all: [Target.Dependency] = [
        "Support", "Ingest", "Ledger", "Attribution", "Report", "Pipeline", "Publish", "Synthetic", "AppStoreAPI",
        "TestSupport",
    ]
    return [
        .testTarget(name: "SupportTests", dependencies: ["Support", "TestSupport"]),
        // Synthetic makes the test certificate chains the signature tests sign with.
        .testTarget(name: "IngestTests", dependencies: ["Support", "Ingest", "Synthetic", "TestSupport"]),
        .testTarget(name: "LedgerTests", dependencies: ["Support", "Ingest", "Ledger", "TestSupport"]),
        .testTarget(name: "AttributionTests", dependencies: ["Support", "Ingest", "Ledger", "Attribution", "TestSupport"]),
        .testTarget(name: "ReportTests", dependencies: all),
        .testTarget(name: "PipelineTests", dependencies: all),
        .testTarget(name: "PublishTests", dependencies: all),
        .testTarget(name: "SyntheticTests", dependencies: all),
        .testTarget(name: "CommandTests", dependencies: all + ["refund-cost"]),
    ]
}

/// Release builds of the library stages let the optimizer inline across stage boundaries
/// (package-level cross-module optimization), so splitting the stages costs the per-row
/// path nothing.
///
/// What the two extra flags buy, measured with `report --no-verify` on make bench's
/// 100,000-account set, 2 threads, seven runs of each build alternated (0.9.0, a noisy
/// day: single runs spread from 8.8 to 14.1 s):
/// - `-enforce-exclusivity=unchecked` drops the run-time check that two accesses to one
///   variable never overlap: median 10.9 s with it, 11.8 s without (about 8%, at the edge of
///   the noise). It gives up the trap that would catch such an overlap in a release build;
///   debug builds and `make test` keep the check, so the tests still catch one.
/// - `-enable-cmo-everything` lets every function, not only small ones, be inlined across
///   the stages: 10.9 s with it, 10.6 s without, no measurable gain on this machine. It costs
///   build time and exposes every function's body to the modules that import it (no effect on
///   behaviour). Kept until a quiet machine says otherwise.
var releaseSettings: [SwiftSetting] {
    [
        .unsafeFlags(
            ["-cross-module-optimization", "-Xfrontend", "-enable-cmo-everything", "-enforce-exclusivity=unchecked"],
            .when(configuration: .release))
    ]
}
