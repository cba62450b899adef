import Foundation
import XCTest

@testable import ExportParser

/// Sleep in Fixtures/hae/sleep-aggregated-generations.json (bare inner object, iOS pretty-print
/// with `name` after `data`) and sleep-segments.json.
final class HAEReaderSleepTests: XCTestCase {
    func testThreeGenerationsOfAggregatedSleep() throws {
        let path = HAEFixtures.path("sleep-aggregated-generations.json")
        let (sink, report) = try HAEFixtures.read(path)
        XCTAssertTrue(sink.samples.isEmpty)
        XCTAssertEqual(sink.sleepSummaries.count, 4)

        // Generation 1 (IRVIN-like): asleep only → total = asleep = 6.108; sleepSource is the source.
        let g1 = sink.sleepSummaries[0]
        XCTAssertEqual(g1.sleepEnd, ts("2021-12-24 05:36:29 +0800"))
        XCTAssertEqual(g1.totalHours, 6.108, accuracy: 1e-12)
        XCTAssertEqual(g1.asleepHours, 6.108)
        XCTAssertNil(g1.coreHours)
        XCTAssertEqual(g1.inBedHours, 6.81)
        XCTAssertEqual(g1.inBedStart, ts("2021-12-23 23:00:00 +0800"))
        XCTAssertEqual(g1.source, "Irvin's Apple Watch")

        // Generation 2: no totalSleep. Stages exist, so they are the sleep: 3.25 + 1.0 + 1.5 =
        // 5.75; the `asleep` 0.5 beside them is not added (it has no times to show it lies
        // outside the stages; export.xml likewise takes the watch's stages alone). Awake 0.25
        // excluded. Window 22:30–05:30 = 7 h ≥ 5.75.
        let g2 = sink.sleepSummaries[1]
        XCTAssertEqual(g2.totalHours, 5.75, accuracy: 1e-12)
        XCTAssertEqual(g2.awakeHours, 0.25)
        XCTAssertEqual(g2.sleepEnd, ts("2024-05-09 05:10:00 -0400"))
        XCTAssertEqual(g2.source, "Watch|iPhone")

        // Generation 2 with `date` on the start day (23:00 on 05-09): dated by sleepEnd 05-10.
        // total 0 + 4.5 + 0.75 + 1.25 = 6.5
        let g2b = sink.sleepSummaries[2]
        XCTAssertEqual(g2b.sleepEnd, ts("2024-05-10 06:00:00 -0400"))
        XCTAssertEqual(g2b.totalHours, 6.5, accuracy: 1e-12)

        // Generation 3: totalSleep stated 6.8, deliberately ≠ the stage sum 4 + 1.25 + 1.5 = 6.75:
        // the stages are the sleep (one rule with export.xml); the stated total is only checked
        // against the window 22:00–05:15 = 7.25 h.
        let g3 = sink.sleepSummaries[3]
        XCTAssertEqual(g3.totalHours, 6.75, accuracy: 1e-12)
        XCTAssertEqual(g3.coreHours, 4)
        XCTAssertEqual(g3.deepHours, 1.25)
        XCTAssertEqual(g3.remHours, 1.5)
        XCTAssertEqual(g3.sleepStart, ts("2026-03-29 22:00:00 -0600"))
        XCTAssertEqual(g3.inBedEnd, ts("2026-03-30 05:15:00 -0600"))
        XCTAssertEqual(g3.source, "Jonathan's Apple Watch")

        // The fifth record has no sleepEnd: skipped with its path (no "data" wrapper here).
        let reason = "HAE sleep record without a parseable sleepEnd"
        XCTAssertEqual(report.skips[reason], 1)
        XCTAssertEqual(report.skipExamples[reason]?.first?.path, "metrics[0].data[4].sleepEnd")
    }

    func testSegmentsBecomeCategorySamples() throws {
        let path = HAEFixtures.path("sleep-segments.json")
        let (sink, report) = try HAEFixtures.read(path)
        XCTAssertTrue(sink.sleepSummaries.isEmpty)
        let p = "HKCategoryValueSleepAnalysis"
        XCTAssertEqual(
            sink.samples.map(\.valueText),
            [
                p + "AsleepCore", p + "AsleepDeep", p + "AsleepREM", p + "Awake", p + "InBed", p + "InBed",
                p + "AsleepUnspecified", p + "AsleepUnspecified",
            ])
        XCTAssertTrue(sink.samples.allSatisfy { $0.type == "HKCategoryTypeIdentifierSleepAnalysis" && !$0.isBucket && $0.metric == nil })
        let first = sink.samples[0]
        XCTAssertEqual(first.start, ts("2025-04-18 23:00:00 -0400"))
        XCTAssertEqual(first.end, ts("2025-04-18 23:30:00 -0400"))
        XCTAssertEqual(first.value, 0.5)
        XCTAssertEqual(first.source, "arun\u{2019}s Apple\u{00A0}Watch")  // JSON escapes decoded
        XCTAssertEqual(report.skips["HAE sleep segment with unknown value 'Napping'"], 1)
        XCTAssertEqual(report.skipExamples["HAE sleep segment with unknown value 'Napping'"]?.first?.path, "data.metrics[0].data[8].value")
    }

    /// The reviewer's travel file (docs/rules.md, "Nights", 3): three Core segments, the second
    /// after a flight west ending on an earlier local date than the first. Through the day book,
    /// recorded offsets (no --timezone).
    func testAFlightWestKeepsBothSessionsOfTheLaterDate() throws {
        let json = """
            {"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": [
              {"startDate": "2024-03-10 22:00:00 +0100", "endDate": "2024-03-11 00:30:00 +0100", "qty": 2.5, "value": "Core", "source": "Watch"},
              {"startDate": "2024-03-10 21:40:00 -0500", "endDate": "2024-03-10 23:00:00 -0500", "qty": 1.333, "value": "Core", "source": "Watch"},
              {"startDate": "2024-03-11 06:00:00 -0500", "endDate": "2024-03-11 08:00:00 -0500", "qty": 2, "value": "Core", "source": "Watch"}
            ]}]}}
            """
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("travel-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let book = DayBook(options: try DayOptions(timeZoneName: nil))
        _ = try HAEReader(path: url.path).read(into: book)
        let days = Dictionary(uniqueKeysWithValues: book.finish().map { ($0.date, $0) })
        // UTC: A 03-10 21:00-23:30, B 03-11 02:40-04:00 (3 h 10 min later: a new session), C
        // 11:00-13:00 (7 h later). A and C end on 03-11 local, B on 03-10 local.
        // 03-11: A 2.5 h + C 2 h = 4.5 h; in bed from A's 22:00 +01:00 to C's 08:00 -05:00.
        let s11 = try XCTUnwrap(days["2024-03-11"]?.sleep)
        XCTAssertEqual(s11.totalHours, 4.5, accuracy: 1e-12)
        XCTAssertEqual(s11.inBedStart, "2024-03-10T22:00:00+01:00")
        XCTAssertEqual(s11.inBedEnd, "2024-03-11T08:00:00-05:00")
        // 03-10: B alone, 21:40-23:00 = 80 min = 4/3 h.
        let s10 = try XCTUnwrap(days["2024-03-10"]?.sleep)
        XCTAssertEqual(s10.totalHours, 80.0 / 60, accuracy: 1e-12)
    }
}
