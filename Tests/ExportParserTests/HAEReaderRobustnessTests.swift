import Foundation
import XCTest

@testable import ExportParser

/// Damaged copies of real and hand-written files: every one either reads or throws an
/// InputError with a byte offset inside the file (or, when the damage renamed the `data` key
/// and the rest is still JSON, the whole-file sentence that it is not HAE JSON), never crashes
/// or hangs. The damage is drawn from a seed the failure message names.
final class HAEReaderRobustnessTests: XCTestCase {
    private func damagedCopies(
        of path: String, count: Int, seed: UInt64, _ damage: (inout [UInt8], inout SeededRandom) -> Void
    ) throws {
        if TestPaths.isPublicSample(path) { try TestPaths.requirePublicSamples() }
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hae-robust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var g = SeededRandom(defaultSeed: seed)
        for i in 0..<count {
            var bytes = original
            damage(&bytes, &g)
            let file = dir.appendingPathComponent("\(i).json")
            try Data(bytes).write(to: file)
            for details in [false, true] {
                do {
                    _ = try HAEReader(path: file.path, pendingLimit: i % 2 == 0 ? 1 : 50_000).read(into: CollectingSink(details: details))
                } catch let e as InputError {
                    if e.location == nil && e.message.hasPrefix("is not Health Auto Export JSON") { continue }
                    let offset = e.location?.byteOffset ?? -1
                    XCTAssertTrue(offset >= 0 && offset <= Int64(bytes.count), "copy \(i) \(g.replay): \(e)")
                }
            }
        }
    }

    func testTruncatedAnywhere() throws {
        try damagedCopies(
            of: HAEFixtures.publicPath("jimmylittle_metrics-day-aggregated_workouts-v2_medications_2026-02-14_2026-02-16.json"), count: 60,
            seed: 24
        ) { b, g in
            b.removeLast(Int.random(in: 1..<b.count, using: &g))
        }
    }

    func testBytesFlipped() throws {
        for name in ["metrics-units.json", "workouts-v1-v2-extras-array-wrapped.json", "sleep-aggregated-generations.json"] {
            try damagedCopies(of: HAEFixtures.path(name), count: 60, seed: 25) { b, g in
                for _ in 0..<3 {
                    b[Int.random(in: 0..<b.count, using: &g)] = [
                        UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"),
                        UInt8(ascii: ","), UInt8(ascii: "\""), UInt8(ascii: "1"), 0xFF,
                    ].randomElement(using: &g)!
                }
            }
        }
    }

    /// The copy that turned CI red once: a flip inside the `data` key leaves valid JSON that
    /// holds no HAE data. The answer is the whole-file sentence, which has no offset to give.
    func testRenamedDataKeyIsNotHAEJSON() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: HAEFixtures.path("metrics-units.json"))))
        let key = Array("\"data\"".utf8)
        let at = try XCTUnwrap((0...(bytes.count - key.count)).first { Array(bytes[$0..<($0 + key.count)]) == key })
        bytes[at + 1] = UInt8(ascii: "1")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("renamed.json")
        try Data(bytes).write(to: file)
        XCTAssertThrowsError(try HAEReader(path: file.path).read(into: CollectingSink())) { e in
            XCTAssertEqual((e as? InputError)?.message, "is not Health Auto Export JSON (no data.metrics or data.workouts)", "\(e)")
        }
    }
}
