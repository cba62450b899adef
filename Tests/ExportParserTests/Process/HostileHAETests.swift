import Foundation
import XCTest

@testable import ExportParser

/// Hostile Health Auto Export JSON: refused with one sentence naming the file and the
/// byte offset (exit 1, bounded memory, --out and the store untouched), except non-finite and
/// negative-zero numbers, which are record-level: the datum is skipped and counted.
final class HostileHAETests: XCTestCase {
    private let prefix =
        #"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [{"date": "2024-03-04 00:00:00 +0100", "qty": 10, "source": ""#

    /// A 1 GB string (written streaming): refused once 16 MiB pass without a token ending, at the
    /// byte offset where the string starts; memory stays low (1.4 GB before: yajl held it whole).
    func testGigabyteStringIsRefusedInBoundedMemory() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let input = bench.path("huge-string.json")
        XCTAssertTrue(FileManager.default.createFile(atPath: input, contents: nil), input)
        let h = try FileHandle(forWritingTo: URL(fileURLWithPath: input))
        h.write(Data(prefix.utf8))
        HostileBench.stream(UInt8(ascii: "a"), count: 1 << 30, to: h)
        h.write(Data(#""}]}]}}"#.utf8))
        try h.close()
        let run = try bench.assertToolRefuses(input, mentioning: ["byte ", "longer than 16 MiB"])
        XCTAssertLessThan(run.seconds, 30)
        try bench.assertJobRefuses(input, mentioning: ["longer than 16 MiB"])
    }

    /// 10,000 nested arrays: refused at the 65th level.
    func testTenThousandNestedArraysAreRefused() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let input = bench.path("deep.json")
        try (#"{"data": {"metrics": "# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}}")
            .write(toFile: input, atomically: true, encoding: .utf8)
        try bench.assertToolRefuses(input, mentioning: ["byte ", "nested more than 64 levels"])
        try bench.assertJobRefuses(input, mentioning: ["nested more than 64 levels"])
    }

    /// A top-level scalar is not an HAE document: a string or number is not even recognised as
    /// JSON of ours; `[1, 2]` is JSON but holds no metric, and converts to nothing.
    func testTopLevelScalarIsRefused() throws {
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        for (i, text) in ["\"just a string\"", "42"].enumerated() {
            let input = bench.path("scalar\(i).json")
            try text.write(toFile: input, atomically: true, encoding: .utf8)
            try bench.assertToolRefuses(input, mentioning: ["nor Health Auto Export JSON"])
        }
    }

    /// Duplicate keys: JSON leaves open which of two values counts (parsers differ), so any key
    /// appearing twice in an object the reader reads refuses the file, naming the key and where
    /// it is: `qty` twice in a datum (10 or 20 steps?), `metrics` twice in the body, and keys it
    /// has no name for: `note` in a metric, `weather` in a workout (whose other
    /// fields become metadata). Only an object the reader skips whole is not looked into.
    func testDuplicateKeysAreRefused() throws {
        XCTAssertLessThan(HAEKey.route.rawValue, 64, "every key has a bit in HAEFrame.seenKeys")
        let bench = try HostileBench()
        try bench.prepareGoodOutput()
        let cases: [(String, String, [String])] = [
            (
                "dup-qty.json",
                #"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [{"date": "2024-03-04 00:00:00 +0100", "qty": 10, "qty": 20, "source": "iPhone"}]}]}}"#,
                [#"the key "qty" appears twice"#, "data.metrics[0].data[0].qty"]
            ),
            (
                "dup-metrics.json",
                #"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": []}], "metrics": []}}"#,
                [#"the key "metrics" appears twice"#, "data.metrics"]
            ),
            (
                "dup-note.json",
                #"{"data": {"metrics": [{"name": "step_count", "units": "count", "note": 1, "note": 2, "data": []}]}}"#,
                [#"the key "note" appears twice"#, "data.metrics[0].note"]
            ),
            (
                "dup-workout-field.json",
                #"{"data": {"workouts": [{"name": "Walk", "start": "2024-03-04 08:00:00 +0100", "end": "2024-03-04 08:30:00 +0100", "weather": "sun", "weather": "rain"}]}}"#,
                [#"the key "weather" appears twice"#, "data.workouts[0].weather"]
            ),
        ]
        for (name, text, fragments) in cases {
            let input = bench.path(name)
            try text.write(toFile: input, atomically: true, encoding: .utf8)
            try bench.assertToolRefuses(input, mentioning: fragments)
            try bench.assertJobRefuses(input, mentioning: fragments)
        }
        let ignored = bench.path("dup-ignored.json")
        try #"""
        {"data": {"app": {"note": 1, "note": 2}, "metrics": [{"name": "step_count", "units": "count", "data": [{"date": "2024-03-04 00:00:00 +0100", "qty": 10, "source": "iPhone"}]}]}}
        """#.write(toFile: ignored, atomically: true, encoding: .utf8)
        let (error, outcome, _) = try bench.runJob(ignored)
        XCTAssertNil(error)
        XCTAssertEqual(outcome?.daysWritten, 1)
    }

    /// `1e999` (infinite as a double) skips its datum, counted in the report; `-0` reads as 0 and
    /// is never written as "-0".
    func testNonFiniteAndNegativeZeroNumbers() throws {
        let bench = try HostileBench()
        let input = bench.path("numbers.json")
        try #"""
        {"data": {"metrics": [{"name": "step_count", "units": "count", "data": [
          {"date": "2024-03-04 00:00:00 +0100", "qty": 1e999, "source": "iPhone"},
          {"date": "2024-03-05 00:00:00 +0100", "qty": -0, "source": "iPhone"},
          {"date": "2024-03-06 00:00:00 +0100", "qty": 42, "source": "iPhone"}]}]}}
        """#.write(toFile: input, atomically: true, encoding: .utf8)
        let (error, outcome, _) = try bench.runJob(input)
        XCTAssertNil(error)
        let report = try XCTUnwrap(outcome?.inputs.first?.report)
        XCTAssertEqual(report.skips.values.reduce(0, +), 1, "\(report.skips)")
        let csv = try String(contentsOfFile: bench.out.appendingPathComponent("daily.csv").path, encoding: .utf8)
        XCTAssertFalse(csv.contains("inf") || csv.contains(",-0") || csv.contains("nan"), csv)
        let payloads = try String(contentsOfFile: bench.out.appendingPathComponent("payloads.json").path, encoding: .utf8)
        XCTAssertFalse(payloads.contains(": -0") || payloads.contains("inf") || payloads.contains("nan"), payloads)
    }
}
