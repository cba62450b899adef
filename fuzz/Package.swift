// swift-tools-version:6.0
import PackageDescription

// The fuzz targets (README.md here): a package of their own, so that the root package's
// `swift build` and `swift test` never build them. Build and run them with `bash fuzz/run.sh`.
let targets = ["FuzzExportXML", "FuzzHAE", "FuzzZip", "FuzzTimestamp", "FuzzNumber"]

let package = Package(
    name: "health-import-fuzz",
    platforms: [.macOS(.v15)],
    // Named, because a path dependency is otherwise known by its folder's name (`wt-fuzz`, `health-import`, …).
    dependencies: [.package(name: "health-import", path: "..")],
    targets: targets.map { name in
        .executableTarget(name: name, dependencies: [.product(name: "ExportParser", package: "health-import")], path: "Sources/\(name)")
    }
)
