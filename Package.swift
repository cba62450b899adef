// swift-tools-version:6.1
import PackageDescription

// HEALTH_IMPORT_WITHOUT_RECEIVE=1 builds the package without `receive`'s HTTP server: no Receiver
// target, no SwiftNIO or Hummingbird, the tool without its `receive` command, the tests without
// the ones that run it. CI's AddressSanitizer build uses it (.ci/run): SwiftNIO's stack is not
// ours to sanitize, and the Receiver target with it took 236 of that build's 505 s of CPU; the
// build without it took 256 s (docs/architecture.md, "Tests and CI"). The variable must be the
// same for the build and the `swift test` that runs it. The package dependencies stay listed
// (SwiftPM then warns that some are unused), so that both builds resolve the same
// Package.resolved, which the other build may be reading.
let withoutReceive = Context.environment["HEALTH_IMPORT_WITHOUT_RECEIVE"] == "1"
// Compiled as `#if WITHOUT_RECEIVE` where the command and its tests are named.
let receiveSettings: [SwiftSetting] = withoutReceive ? [.define("WITHOUT_RECEIVE")] : []

// The HTTP side of `receive`: everything it stores and checks lives in ExportParser
// (Receive/), so the library and its sanitizer build stay free of SwiftNIO.
let receiver = Target.target(
    name: "Receiver",
    dependencies: [
        "ExportParser",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
    ]
)

let package = Package(
    name: "health-import",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "health-import", targets: ["HealthImport"]),
        .library(name: "ExportParser", targets: ["ExportParser"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The tolerances file of `compare` may be TOML.
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        // `receive`'s HTTP server. No traits: swift-configuration is not needed (a cold build
        // is shorter without it) and Foundation is imported by this package anyway.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        // NIO's blocking thread pool, which `receive` checks and commits bodies on (Hummingbird
        // already depends on it; named so the Receiver may import NIOPosix).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // `receive`'s GET /metrics (Prometheus' text format) and its request log. swift-log is
        // Hummingbird's already; swift-metrics and swift-prometheus add about 10 s to a cold
        // debug build (docs/receive.md, "Metrics").
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Hummingbird's service group, named for the tests that run `receive`'s server in process and
        // stop it as SIGTERM would (a graceful shutdown).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // System libraries from Debian's -dev packages (see .ci/run).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CYajl", pkgConfig: "yajl", providers: [.apt(["libyajl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // PostgreSQL's own client for the fleet's store (`--store postgres://…`): the store seam is
        // synchronous and runs on NIO's thread pool, and libpq adds no Swift package to a cold build.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CZlibSystem", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // Intel's ISA-L inflates export.zip's entry about four times as fast as zlib (docs/export-xml.md,
        // "Inflating the zip"); Linux only, elsewhere zlib inflates.
        .systemLibrary(name: "CISAL", pkgConfig: "libisal", providers: [.apt(["libisal-dev"])]),
        // SHA-256 from OpenSSL's libcrypto (Debian's libssl-dev) on Linux; macOS has CommonCrypto.
        // Not swift-crypto: its BoringSSL was a large part of every cold build (Support/SHA256.swift).
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        // statfs(2) from the C library (no package): which file system a mapped file is on.
        .systemLibrary(name: "CFileSystem"),
        .target(
            name: "ExportParser",
            dependencies: [
                "CLibXML2", "CYajl", "CSQLite", "CLibPQ", "CZlibSystem",
                .target(name: "CISAL", condition: .when(platforms: [.linux])),
                .target(name: "CFileSystem", condition: .when(platforms: [.linux])),
                .target(name: "CLibCrypto", condition: .when(platforms: [.linux])),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        // `fixtures`: deterministic synthetic exports (export.xml/zip, HAE JSON, expected days).
        // Kept out of the library so ExportParser holds only what reads, computes and writes
        // real data; it reaches the library's types through `package` access.
        .target(
            name: "HealthFixtures",
            dependencies: ["ExportParser", "CZlibSystem"]
        ),
    ] + (withoutReceive ? [] : [receiver]) + [
        .executableTarget(
            name: "HealthImport",
            dependencies: [
                "ExportParser",
                "HealthFixtures",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ] + (withoutReceive ? [] : ["Receiver"]),
            exclude: withoutReceive ? ["Receive.swift"] : [],
            swiftSettings: receiveSettings
        ),
        .testTarget(
            name: "ExportParserTests",
            dependencies: ["ExportParser", "HealthFixtures"]
                + (withoutReceive
                    ? []
                    : [
                        "Receiver",
                        // `receive`'s server run in the tests' process on 127.0.0.1 (`InProcessReceiver`),
                        // beside the process tests. Not HummingbirdTesting: its HTTP client brings
                        // AsyncHTTPClient, SwiftNIO's TLS and HTTP/2 and a second BoringSSL, the largest
                        // part of a cold build (docs/architecture.md, "Tests and CI").
                        .product(name: "Hummingbird", package: "hummingbird"),
                        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                    ]),
            exclude: withoutReceive ? ["ReceiveServerTests.swift", "ReceiveMetricsTests.swift", "ReceiveInProcessSupport.swift"] : [],
            resources: [.copy("Fixtures")],
            swiftSettings: receiveSettings
        ),
    ]
)
