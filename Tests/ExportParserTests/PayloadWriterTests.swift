import Foundation
import XCTest

@testable import ExportParser
@testable import HealthFixtures

/// `convert` writes each day's payload and CSV row straight into bytes (`PayloadEncoder.write`,
/// `CSVWriter.row(_:into:)`, `ExportBytes.appendRounded`): the text must be, byte for byte, the
/// one the `JSONValue` tree and the joined cells give, which the payload and CSV tests pin down.
final class PayloadWriterTests: XCTestCase {
    /// The numbers as the wire writes them, worked by hand: rounded half away from zero to the
    /// field's decimals, whole numbers without a fraction, no `-0`, `null` for what JSON cannot hold.
    func testRoundedNumbersAreWrittenAsTheWireWritesThem() {
        let cases: [(Double, Int, String)] = [
            (8432.4, 0, "8432"),  // 8432.4 → 8432
            (8432.5, 0, "8433"),  // half away from zero
            (-2.5, 0, "-3"),  // half away from zero, below zero too
            (6.25, 1, "6.3"),  // 62.5 (exact in binary) → 63 → 6.3
            (97.049, 2, "97.05"),  // 9704.9 → 9705 → 97.05
            (-0.004, 2, "0"),  // −0.4 → −0 → written 0, never -0
            (0.1, 3, "0.1"),  // 100 / 1000: the shortest text of the double 0.1
            (72, 0, "72"),
            (-15, 1, "-15"),  // whole after rounding: no ".0"
            (999_999_999_999_999, 0, "999999999999999"),  // just under 1e15: digits
            // From 1e15 on: the double's own text, which Swift writes in full below 2^53
            // (≈ 9.007e15) and with an exponent from there.
            (1e15, 0, "1000000000000000.0"),
            (1e16, 0, "1e+16"),
            (.nan, 1, "null"),
            (.infinity, 0, "null"),
            (-.infinity, 2, "null"),
        ]
        for (value, decimals, expected) in cases {
            let out = ExportBytes(capacity: 4)
            out.appendRounded(value, decimals: decimals)
            XCTAssertEqual(out.string, expected, "\(value) to \(decimals)")
            XCTAssertEqual(JSONValue.format(value, decimals: decimals), expected, "\(value) to \(decimals), JSONValue.format")
        }
    }

    func testTruncateDropsTheTail() {
        let out = ExportBytes(capacity: 2)
        out.append("{\"a\": 1")
        out.truncate(to: 1)
        out.append("}")
        XCTAssertEqual(out.string, "{}")
    }

    /// The rows as they were made before: a string a cell, joined with commas.
    private func joinedRow(_ day: FinishedDay) -> String {
        OutputFields.columns.map { f in
            switch f.read(day)?.scalar {
            case nil: return ""
            case .number(let n): return JSONValue.format(n, decimals: f.numberDecimals)
            case .text(let t): return CSVWriter.field(t)
            }
        }.joined(separator: ",") + "\r\n"
    }

    /// Every profile's days from both readers: the payload written straight equals the tree's
    /// rendering, the CSV row the joined cells; and the days include ones with and without a
    /// `sleep` object, workouts and running mechanics, so both the written and the cut-off paths run.
    func testEveryProfileWritesTheTreesBytes() throws {
        var withSleep = 0, withoutSleep = 0, withWorkouts = 0, withMechanics = 0, withoutMechanics = 0
        for profile in ["runner", "sedentary", "shift-worker", "traveller"] {
            let dir = try FixtureCheck.make(days: 10, seed: 5, profile: profile, haeStyle: "samples", name: "payload-writer-\(profile)")
            for file in ["export.xml", "hae.json"] {
                let book = DayBook()
                let path = dir.appendingPathComponent(file).path
                if file == "hae.json" {
                    _ = try HAEReader(path: path).read(into: book)
                } else {
                    _ = try AppleExportReader(path: path).read(into: book)
                }
                let days = book.finish()
                XCTAssertFalse(days.isEmpty, "\(profile) \(file)")
                for d in days {
                    let tree = String(decoding: PayloadEncoder.payload(d).bytes(), as: UTF8.self)
                    let out = ExportBytes(capacity: 16)
                    PayloadEncoder.write(d, into: out)
                    XCTAssertEqual(out.string, tree, "\(profile) \(file) \(d.date) payload")
                    XCTAssertEqual(CSVWriter.row(d), joinedRow(d), "\(profile) \(file) \(d.date) CSV row")
                    if tree.contains("\n  \"sleep\": {") { withSleep += 1 } else { withoutSleep += 1 }
                    if tree.contains("\"duration_seconds\"") { withWorkouts += 1 }
                    if tree.contains("\n  \"running_mechanics\": {") { withMechanics += 1 } else { withoutMechanics += 1 }
                }
            }
        }
        XCTAssertGreaterThan(withSleep, 0)
        XCTAssertGreaterThan(withoutSleep, 0)
        XCTAssertGreaterThan(withWorkouts, 0)
        XCTAssertGreaterThan(withMechanics, 0)
        XCTAssertGreaterThan(withoutMechanics, 0)
    }

    /// A day with no value at all: `metrics` and `workouts` are kept empty (`{}` and `[]`),
    /// `sleep` and `running_mechanics` left out, as the tree writes it.
    func testAnEmptyDayKeepsOnlyWhatIsAlwaysThere() throws {
        let dir = try FixtureCheck.make(days: 2, seed: 5, profile: "sedentary", haeStyle: "samples", name: "payload-writer-empty")
        let book = DayBook()
        _ = try HAEReader(path: dir.appendingPathComponent("hae.json").path).read(into: book)
        var day = try XCTUnwrap(book.finish().first)
        day.values = DayValues(count: day.values.count)
        day.workouts = []
        day.sleep = nil
        day.summaries = MetricSlots()
        let out = ExportBytes(capacity: 16)
        PayloadEncoder.write(day, into: out)
        XCTAssertEqual(out.string, String(decoding: PayloadEncoder.payload(day).bytes(), as: UTF8.self))
        XCTAssertFalse(out.string.contains("\"sleep\""))
        XCTAssertFalse(out.string.contains("\"running_mechanics\""))
        XCTAssertTrue(out.string.contains("\"metrics\": {}"), out.string)
        XCTAssertTrue(out.string.contains("\"workouts\": []"), out.string)
    }
}
