import Foundation
import XCTest

@testable import ExportParser

/// `compare --from D` reads an HAE file through the window (docs/hae.md, "The window read"): the
/// datums far from it are skipped into a census, and the days compare builds are a full read's
/// (values on the window's dates, fields and sources on the others); errors are a full read's.
final class HAEWindowReadTests: ParseThreadsTestCase {
    /// A pretty-printed HAE file of `metrics` (name, units, datum objects as JSON text).
    private func file(_ metrics: [(String, String, [String])], _ name: String = #function) throws -> String {
        let dir = try TestPaths.temporaryDirectory("hae-window")
        var text = "{\n  \"data\": {\n    \"metrics\": [\n"
        text += metrics.map { m in
            "      {\n        \"name\": \"\(m.0)\",\n        \"units\": \"\(m.1)\",\n        \"data\": [\n"
                + m.2.map { "          " + $0 }.joined(separator: ",\n") + "\n        ]\n      }"
        }.joined(separator: ",\n")
        text += "\n    ]\n  }\n}\n"
        let path = dir.appendingPathComponent("hae.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func steps(_ day: Int, qty: Int = 100, source: String = "Watch") -> String {
        let date = String(format: "2026-03-%02d", day)
        return #"{"startDate": "\#(date) 10:00:00 +0100", "endDate": "\#(date) 10:30:00 +0100", "qty": \#(qty), "source": "\#(source)"}"#
    }

    private func heartRate(_ day: Int, _ time: String, _ low: Int, _ avg: Int, _ high: Int) -> String {
        let date = String(format: "2026-03-%02d", day)
        return #"{"date": "\#(date) \#(time) +0100", "Min": \#(low), "Avg": \#(avg), "Max": \#(high), "source": "Watch"}"#
    }

    /// A full read's days as compare holds them.
    private func fullDays(_ path: String) throws -> [String: ComparableDay] {
        let book = DayBook(options: try DayOptions(timeZoneName: nil))
        _ = try HAEReader(path: path).read(into: book)
        let sources = ComparableDay.sourceSet(book.sourceNames)
        return Dictionary(uniqueKeysWithValues: book.finish().map { ($0.date, ComparableDay($0, sourceSet: sources)) })
    }

    /// The window read's days equal the full read's: every value on the window's dates, the same
    /// dates, fields and sources elsewhere.
    private func assertWindowIsFull(_ path: String, from: String, days: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let day = try XCTUnwrap(CivilDate.parseISODate(from))
        let window = Comparison.Window(from: day, to: day + days - 1)
        let full = try fullDays(path)
        let read = try XCTUnwrap(
            CompareHAEWindowSide.read(path, options: try DayOptions(timeZoneName: nil), window: window, progress: nil), file: file,
            line: line)
        XCTAssertEqual(read.keys.sorted(), full.keys.sorted(), file: file, line: line)
        for (date, f) in full {
            guard let w = read[date] else { continue }
            let inWindow = CivilDate.parseISODate(date).map { $0 >= window.from && $0 <= window.to } ?? false
            if inWindow {
                XCTAssertEqual(w.values, f.values, date, file: file, line: line)
            } else {
                XCTAssertEqual(w.values.keys.sorted(), f.values.keys.sorted(), date, file: file, line: line)
            }
            XCTAssertEqual(w.inputSources, f.inputSources, date, file: file, line: line)
            // A set of fields, where a day carries one, is the one its paths name.
            if let set = w.fieldSet { XCTAssertEqual(set, ComparableDay.fieldSet(of: w.values.keys), date, file: file, line: line) }
        }
        // And the gaps' first and last date of each field (read through the sets) are the full read's.
        XCTAssertEqual(
            GapFinder.deliveredDates(read).mapValues { [$0.first, $0.last] },
            GapFinder.deliveredDates(full).mapValues { [$0.first, $0.last] },
            file: file, line: line)
    }

    /// Steps and heart rate once a day, 03-01 … 03-20; a window of 03-15 alone. Its margin is two
    /// days each side in UTC: 03-13 00:00 … 03-18 00:00 UTC. A datum at 10:00 +0100 (09:00 UTC)
    /// is skipped on 03-02 … 03-12 (11 dates; 03-01's is an array's first element, which is
    /// always read) and on 03-18 … 03-20 (3): 14 a metric, 28 in all.
    func testDatumsFarFromTheWindowAreSkippedAndTheDaysAreAFullReads() throws {
        let path = try file([
            ("step_count", "count", (1...20).map { steps($0, source: $0 == 5 ? "Phone" : "Watch") }),
            ("heart_rate", "count/min", (1...20).map { heartRate($0, "10:00:00", 50, 60, 70) }),
        ])
        let skipper = HAEWindowSkipper(days: CivilDate.parseISODate("2026-03-15")!...CivilDate.parseISODate("2026-03-15")!)
        var reader = HAEReader(path: path)
        reader.window = skipper
        let book = DayBook(options: try DayOptions(timeZoneName: nil))
        _ = try reader.read(into: book)
        XCTAssertEqual(skipper.skipped, 28)
        // 03-05's "Phone" was skipped: a sum's source, named by the census.
        XCTAssertEqual(skipper.census.sourceNames, ["Watch", "Phone"])
        try assertWindowIsFull(path, from: "2026-03-15", days: 1)
        try assertWindowIsFull(path, from: "2026-03-01", days: 7)
        try assertWindowIsFull(path, from: "2026-03-20", days: 1)
    }

    /// Heart rate's readings-or-buckets choice (`HAEDatumMapper.heartRateBucket`) is taken from
    /// skipped datums too. 03-01 08:00 is 60/60/60 at a whole minute (read, held: no sign yet);
    /// 03-02 08:00 is 50/60/70, a bucket (skipped): the metric's equal datums are buckets, so
    /// 03-15's 60/60/60 is one and the date has no count. Had the skipped sign been lost, 03-01
    /// and 03-15 would end the metric held and not at midnight: readings, with a count of 1.
    func testHeartRatesChoiceIsTakenFromSkippedDatums() throws {
        let path = try file([
            (
                "heart_rate", "count/min",
                [heartRate(1, "08:00:00", 60, 60, 60), heartRate(2, "08:00:00", 50, 60, 70), heartRate(15, "08:00:00", 60, 60, 60)]
            )
        ])
        let full = try fullDays(path)
        XCTAssertNil(full["2026-03-15"]?.values["metrics.heart_rate_samples.count"])
        XCTAssertNotNil(full["2026-03-15"]?.values["metrics.heart_rate_samples.avg"])
        try assertWindowIsFull(path, from: "2026-03-15", days: 1)
        // Equal datums between whole minutes are readings whatever comes: 03-02 08:00:13 skipped.
        let readings = try file(
            [
                (
                    "heart_rate", "count/min",
                    [heartRate(1, "08:00:00", 60, 60, 60), heartRate(2, "08:00:13", 60, 60, 60), heartRate(15, "08:00:00", 60, 60, 60)]
                )
            ],
            "readings")
        XCTAssertEqual(try fullDays(readings)["2026-03-15"]?.values["metrics.heart_rate_samples.count"], .number(1))
        try assertWindowIsFull(readings, from: "2026-03-15", days: 1)
    }

    /// A malformed datum after skipped ones: the same message, byte offset and JSON path as a full
    /// read, stripped or not. The 18th datum (index 17, 03-18) lacks the comma after its `qty`.
    func testAMalformedDatumAfterSkippedOnesIsReportedAsAFullReadReportsIt() throws {
        var datums = (1...20).map { steps($0) }
        datums[17] = datums[17].replacingOccurrences(of: #""qty": 100,"#, with: #""qty": 100"#)
        let path = try file([("step_count", "count", datums)])
        for strip in [true, false] {
            func error(window: Bool) -> String {
                var reader = HAEReader(path: path)
                reader.stripIndentation = strip
                let skipper = HAEWindowSkipper(days: CivilDate.parseISODate("2026-03-15")!...CivilDate.parseISODate("2026-03-15")!)
                if window { reader.window = skipper }
                do {
                    _ = try reader.read(into: DayBook(options: try DayOptions(timeZoneName: nil)))
                    return "no error"
                } catch {
                    if window { XCTAssertEqual(skipper.skipped, 11, "03-02 … 03-12") }
                    return "\(error)"
                }
            }
            let full = error(window: false)
            XCTAssertTrue(full.contains("data.metrics[0].data[17]"), full)
            XCTAssertEqual(error(window: true), full, "strip: \(strip)")
        }
    }

    /// Chunk edges anywhere (`HAEReader.splits`: a chunk ends every `step` bytes, so units are cut
    /// between their `}`, `,` and `{`, inside a key, a date or a number, and a run ends at a
    /// chunk's end): the window date's values are a full read's, some datums are still skipped
    /// once chunks hold whole units, and the malformed datum of the test above is reported as a
    /// full read reports it. A unit cut by a chunk's end goes to yajl, so fewer are skipped.
    func testChunkEdgesAnywhereKeepTheWindowAndTheErrors() throws {
        let good = try file([("step_count", "count", (1...20).map { steps($0, qty: 100 + $0) })], "edges-good")
        var datums = (1...20).map { steps($0) }
        datums[17] = datums[17].replacingOccurrences(of: #""qty": 100,"#, with: #""qty": 100"#)
        let bad = try file([("step_count", "count", datums)], "edges-bad")
        let day = try XCTUnwrap(CivilDate.parseISODate("2026-03-15"))
        func read(_ path: String, step: Int, window: Bool) -> (days: [FinishedDay]?, error: String?, skipped: Int) {
            HAEWindowInPlaceTests.read(path, day: day, window: window, step: step)
        }
        var skipped = 0
        for step in [5, 13, 64, 199, 1024] {
            let full = read(good, step: step, window: false), windowed = read(good, step: step, window: true)
            let fullDay = try XCTUnwrap(full.days?.first { $0.date == "2026-03-15" })
            let windowDay = try XCTUnwrap(windowed.days?.first { $0.date == "2026-03-15" })
            // 03-15's 115 steps, from the datum read either way.
            XCTAssertEqual(ComparableDay(windowDay).values, ComparableDay(fullDay).values, "step \(step)")
            XCTAssertEqual(ComparableDay(fullDay).values["metrics.step_count"], .number(115))
            skipped += windowed.skipped
            let fullError = read(bad, step: step, window: false).error, windowError = read(bad, step: step, window: true).error
            XCTAssertNotNil(fullError)
            XCTAssertEqual(windowError, fullError, "step \(step)")
        }
        XCTAssertGreaterThan(skipped, 0)
    }

    /// Every hand-written HAE fixture (Fixtures/hae: odd key orders, late names, 12-hour dates,
    /// sleep, workouts, broken files), through a window before, at and after its data: both reads
    /// fail with the same sentence, or the window read's days are the full read's.
    func testEveryHAEFixtureReadsThroughTheWindowAsInFull() throws {
        let dir = URL(fileURLWithPath: HAEFixtures.path("metrics-units.json")).deletingLastPathComponent()
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertEqual(names.count, 11)
        var skipped = 0
        for name in names {
            let path = dir.appendingPathComponent(name).path
            for from in ["2020-01-01", "2026-03-30", "2030-01-01"] {
                let day = try XCTUnwrap(CivilDate.parseISODate(from))
                func error(_ window: HAEWindowSkipper?) -> String? {
                    var reader = HAEReader(path: path)
                    reader.window = window
                    do {
                        _ = try reader.read(into: DayBook(options: try DayOptions(timeZoneName: nil)))
                        return nil
                    } catch {
                        return "\(error)"
                    }
                }
                let skipper = HAEWindowSkipper(days: day...day)
                let full = error(nil)
                XCTAssertEqual(error(skipper), full, "\(name) \(from)")
                skipped += skipper.skipped
                if full == nil { try assertWindowIsFull(path, from: from, days: 1) }
            }
        }
        // metrics-units.json alone skips some: its second step count, `date`/`qty`/`source`.
        XCTAssertGreaterThan(skipped, 0)
    }

    /// The wrappings the walker accepts, and a metric whose name comes after its data. 20 step
    /// datums a metric at 10:00 +0100 from 03-01, a window of 03-15: 14 skipped a metric as in
    /// `testDatumsFarFromTheWindowAreSkippedAndTheDaysAreAFullReads`. A top-level array of two
    /// bodies: 28; the bare inner object: 14; `name` after `data`: none (the walker would hold
    /// its datums, so the reading thread does not skip them), the days the same all the same.
    func testWrappingsAndALateNameSkipAsTheWalkerReads() throws {
        let datums = (1...20).map { steps($0) }.joined(separator: ",\n")
        let metric = #"{"name": "step_count", "units": "count", "data": [\#n\#(datums)\#n]}"#
        let late = #"{"units": "count", "data": [\#n\#(datums)\#n], "name": "step_count"}"#
        let body = #"{"data": {"metrics": [\#(metric)]}}"#
        let cases: [(String, String, Int)] = [
            ("array", "[\n\(body),\n\(body)\n]\n", 28),
            ("bare", #"{"metrics": [\#(metric)]}"# + "\n", 14),
            ("late", #"{"data": {"metrics": [\#(late)]}}"# + "\n", 0),
        ]
        let day = try XCTUnwrap(CivilDate.parseISODate("2026-03-15"))
        for (label, text, expected) in cases {
            let path = try TestPaths.temporaryDirectory("hae-window").appendingPathComponent("\(label).json").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let skipper = HAEWindowSkipper(days: day...day)
            var reader = HAEReader(path: path)
            reader.window = skipper
            _ = try reader.read(into: DayBook(options: try DayOptions(timeZoneName: nil)))
            XCTAssertEqual(skipper.skipped, expected, label)
            try assertWindowIsFull(path, from: "2026-03-15", days: 1)
        }
    }
}
