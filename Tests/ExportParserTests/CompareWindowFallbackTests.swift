import Foundation
import XCTest

@testable import ExportParser

/// Where compare's window read cannot stand for a full read and reads the side in full (review
/// of the HAE window read, 2026-11-29): a workout of the window that takes its heart rate from
/// the samples and ends past the read's reach, and (HAE) one source name written in two Unicode
/// normal forms only in datums the read skipped.
final class CompareWindowFallbackTests: ParseThreadsTestCase {
    typealias C = CompareWindowCensusTests

    /// A hike from `start` to `end` stating no heart rate of its own: its figures come from the
    /// heart-rate samples inside it.
    private func hike(_ start: String, _ end: String) -> String {
        " <Workout workoutActivityType=\"HKWorkoutActivityTypeHiking\" duration=\"60\" durationUnit=\"min\" sourceName=\"W\" "
            + "device=\"\(C.watch)\" startDate=\"\(start)\" endDate=\"\(end)\">\n </Workout>\n"
    }

    private func heartRate(_ bpm: String, _ start: String) -> String {
        C.record(C.heart, bpm, unit: "count/min", source: "W", device: C.watch, start: start, end: start)
    }

    /// By hand: window 2024-02-01 … 02-07, its reach (two days of margin) 01-30 00:00 …
    /// 02-10 00:00 UTC. A hike 02-07 20:00 → 02-11 12:00 +01:00 (ends 02-11 11:00 UTC, past the
    /// reach) with heart rate 100 at 02-07 21:00 (kept) and 140 at 02-10 12:00 +01:00 (11:00 UTC,
    /// past the reach: cut). A full read gives the hike avg 120, max 140; the window read would
    /// have had 100 and 100, so it reads in full, and the outputs are the full read's. The same
    /// hike ending 02-09 12:00 +01:00 holds only the kept sample, and the window read stands.
    func testAWorkoutTakingSamplesPastTheReachReadsInFull() throws {
        let far = C.export(
            C.inWindow + heartRate("100", "2024-02-07 21:00:00 +0100") + heartRate("140", "2024-02-10 12:00:00 +0100")
                + hike("2024-02-07 20:00:00 +0100", "2024-02-11 12:00:00 +0100"))
        XCTAssertFalse(try C.windowReadStands(far))
        for d in try C.differences(far) { XCTFail("past the reach: \(d)") }
        let near = C.export(
            C.inWindow + heartRate("100", "2024-02-07 21:00:00 +0100") + hike("2024-02-07 20:00:00 +0100", "2024-02-09 12:00:00 +0100"))
        XCTAssertTrue(try C.windowReadStands(near))
        for d in try C.differences(near) { XCTFail("inside the reach: \(d)") }
    }

    /// A pretty-printed HAE file of step counts, one a day at 10:00 +01:00 in March 2026, from
    /// the given sources.
    private func haeSteps(_ sources: [(day: Int, source: String)]) throws -> String {
        let datums = sources.map { d in
            let date = String(format: "2026-03-%02d", d.day)
            return "          {\"startDate\": \"\(date) 10:00:00 +0100\", \"endDate\": \"\(date) 10:30:00 +0100\", \"qty\": 100, "
                + "\"source\": \"\(d.source)\"}"
        }
        let text =
            "{\n  \"data\": {\n    \"metrics\": [\n      {\n        \"name\": \"step_count\",\n        \"units\": \"count\",\n"
            + "        \"data\": [\n" + datums.joined(separator: ",\n") + "\n        ]\n      }\n    ]\n  }\n}\n"
        let path = try TestPaths.temporaryDirectory("hae-fallback").appendingPathComponent("hae.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// By hand: window 2026-03-15, its reach 03-13 00:00 … 03-18 00:00 UTC. Steps on 03-01
    /// (an array's first element, read), 03-03 from "José" written precomposed (é, U+00E9) and
    /// 03-04 from "José" written decomposed (e and U+0301), both skipped, and 03-15 (read). To
    /// the day book the two are one source, kept as first written; the census cannot tell which
    /// came first, so the window read gives nil (the file is read in full). With both written
    /// precomposed it stands.
    func testOneSourceInTwoNormalFormsOnlyInSkippedDatumsReadsInFull() throws {
        let composed = "Jos\u{E9}", decomposed = "Jose\u{301}"
        XCTAssertEqual(composed, decomposed)  // one string to Swift, two byte sequences
        XCTAssertNotEqual(Array(composed.utf8), Array(decomposed.utf8))
        let day = try XCTUnwrap(CivilDate.parseISODate("2026-03-15"))
        let window = Comparison.Window(from: day, to: day)
        let options = try DayOptions(timeZoneName: nil)
        let mixed = try haeSteps([(1, "Watch"), (3, composed), (4, decomposed), (15, "Watch")])
        XCTAssertNil(try CompareHAEWindowSide.read(mixed, options: options, window: window, progress: nil))
        let same = try haeSteps([(1, "Watch"), (3, composed), (4, composed), (15, "Watch")])
        XCTAssertNotNil(try CompareHAEWindowSide.read(same, options: options, window: window, progress: nil))
    }
}
