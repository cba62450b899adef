import Foundation
import XCTest

@testable import ExportParser

/// A finished day holds a summary only for the `minmaxavg` metrics that had samples that day,
/// not a slot for every metric of the catalog: every date of a long export is held at once at
/// the end of the run (issue 24).
final class FinishedDaySummariesTests: XCTestCase {
    func testANewDayHoldsNoSummarySlots() {
        let day = FinishedDay(dayNumber: 19_784, timezone: "+01:00", deviceSyncTimestamp: "2024-03-05T08:00:00+01:00")
        XCTAssertTrue(day.summaries.isEmpty)
        XCTAssertNil(day.heartRate)
    }

    func testOnlyTheDaysWithHeartRateHoldItsSummary() throws {
        // 03-02: heart rate 60, 90 and 75 → min 60, max 90, average (60 + 90 + 75) / 3 = 75, count 3.
        // 03-03: steps only → no summary at all.
        let xml = export(
            record("HKQuantityTypeIdentifierHeartRate", "60", unit: "count/min", start: "2024-03-02 08:00:00 +0100")
                + record("HKQuantityTypeIdentifierHeartRate", "90", unit: "count/min", start: "2024-03-02 12:00:00 +0100")
                + record("HKQuantityTypeIdentifierHeartRate", "75", unit: "count/min", start: "2024-03-02 18:00:00 +0100")
                + record("HKQuantityTypeIdentifierStepCount", "500", unit: "count", start: "2024-03-03 10:00:00 +0100"))
        let book = DayBook(options: try DayOptions(timeZoneName: "Europe/Paris"))
        _ = try AppleExportReader.read(data: Data(xml.utf8), name: "hr.xml", into: book)
        let days = Dictionary(uniqueKeysWithValues: book.finish().map { ($0.date, $0) })
        let hr = try XCTUnwrap(days["2024-03-02"])
        XCTAssertEqual(hr.summaries.count, 1)
        XCTAssertEqual(hr.heartRate, MinMaxAvgSummary(average: 75, minimum: 60, maximum: 90, count: 3))
        let steps = try XCTUnwrap(days["2024-03-03"])
        XCTAssertEqual(steps.value("step_count"), 500)
        XCTAssertTrue(steps.summaries.isEmpty)
    }

    func testANonFiniteSummaryIsDroppedBeforeTheWriters() {
        // The last guard before the writers (`withFiniteValues`) removes a summary with an
        // infinite maximum and keeps the finite one beside it.
        var day = FinishedDay(dayNumber: 19_784, timezone: "+01:00", deviceSyncTimestamp: "2024-03-05T08:00:00+01:00")
        day.summaries[0] = MinMaxAvgSummary(average: 1, minimum: 0, maximum: .infinity, count: 2)
        day.summaries[1] = MinMaxAvgSummary(average: 2, minimum: 1, maximum: 3, count: 2)
        let finite = day.withFiniteValues
        XCTAssertNil(finite.summaries[0])
        XCTAssertEqual(finite.summaries[1], MinMaxAvgSummary(average: 2, minimum: 1, maximum: 3, count: 2))
        XCTAssertEqual(finite.summaries.count, 1)
    }
}
