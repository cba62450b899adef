import Foundation
import XCTest

@testable import ExportParser

/// Damaged copies of real and hand-written files: every one either reads or throws an
/// InputError with a byte offset inside the file, never crashes or hangs.
final class HAEReaderRobustnessTests: XCTestCase {
    private func damagedCopies(of path: String, count: Int, _ damage: (inout [UInt8], inout SystemRandomNumberGenerator) -> Void) throws {
        if TestPaths.isPublicSample(path) { try TestPaths.requirePublicSamples() }
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hae-robust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var g = SystemRandomNumberGenerator()
        for i in 0..<count {
            var bytes = original
            damage(&bytes, &g)
            let file = dir.appendingPathComponent("\(i).json")
            try Data(bytes).write(to: file)
            for details in [false, true] {
                do {
                    _ = try HAEReader(path: file.path, pendingLimit: i % 2 == 0 ? 1 : 50_000).read(into: CollectingSink(details: details))
                } catch let e as InputError {
                    let offset = e.location?.byteOffset ?? -1
                    XCTAssertTrue(offset >= 0 && offset <= Int64(bytes.count), "\(e)")
                }
            }
        }
    }

    func testTruncatedAnywhere() throws {
        try damagedCopies(
            of: HAEFixtures.publicPath("jimmylittle_metrics-day-aggregated_workouts-v2_medications_2026-02-14_2026-02-16.json"), count: 60
        ) { b, g in
            b.removeLast(Int.random(in: 1..<b.count, using: &g))
        }
    }

    func testBytesFlipped() throws {
        for name in ["metrics-units.json", "workouts-v1-v2-extras-array-wrapped.json", "sleep-aggregated-generations.json"] {
            try damagedCopies(of: HAEFixtures.path(name), count: 60) { b, g in
                for _ in 0..<3 {
                    b[Int.random(in: 0..<b.count, using: &g)] = [
                        UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"),
                        UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "1"), 0xFF,
                    ].randomElement(using: &g)!
                }
            }
        }
    }
}
