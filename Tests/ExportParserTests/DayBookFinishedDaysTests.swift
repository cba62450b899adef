import Foundation
import XCTest

@testable import ExportParser

/// `DayOptions.finishedDays`: `explain`'s window read makes the asked date's day only. That day
/// must be the one a finish of every date makes, and no other date's day (or night) is made.
final class DayBookFinishedDaysTests: XCTestCase {
    // Steps 250 on 03-02 and 170 on 03-03, heart rate 70 and 80 on 03-03 (average 75), by hand:
    // `handWorkedStepsAndHeartRate`. Sleep: core 03-01 23:00 → 03-02 01:00 wakes on 03-02 (2 h);
    // core 03-02 23:00 → 03-03 03:00 and deep 03:00–04:00 wake on 03-03 (4 + 1 = 5 h). A run on
    // 03-02 08:00–08:30 (a workout).
    private let xml: String = {
        let watch = "Ann’s Apple Watch", sleep = "HKCategoryTypeIdentifierSleepAnalysis"
        return export(
            handWorkedStepsAndHeartRate()
                + record(
                    sleep, "HKCategoryValueSleepAnalysisAsleepCore", source: watch, start: "2024-03-01 23:00:00 +0100",
                    end: "2024-03-02 01:00:00 +0100")
                + record(
                    sleep, "HKCategoryValueSleepAnalysisAsleepCore", source: watch, start: "2024-03-02 23:00:00 +0100",
                    end: "2024-03-03 03:00:00 +0100")
                + record(
                    sleep, "HKCategoryValueSleepAnalysisAsleepDeep", source: watch, start: "2024-03-03 03:00:00 +0100",
                    end: "2024-03-03 04:00:00 +0100")
                    + """
                     <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="\(watch)" startDate="2024-03-02 08:00:00 +0100" endDate="2024-03-02 08:30:00 +0100"/>

                    """)
    }()

    private func days(zone: String?, only: ClosedRange<Int>?, parallel: Bool) throws -> [String: FinishedDay] {
        var options = try DayOptions(timeZoneName: zone)
        options.finishedDays = only
        let book = DayBook(options: options)
        _ = try AppleExportReader.read(data: Data(xml.utf8), name: "days.xml", into: book)
        return Dictionary(uniqueKeysWithValues: book.finish(parallel: parallel).map { ($0.date, $0) })
    }

    func testOnlyTheAskedDateIsMadeAndItIsTheDayOfAFullFinish() throws {
        let march2 = try XCTUnwrap(CivilDate.parseISODate("2024-03-02")), march3 = march2 + 1
        // With the run's zone, and dated by the recorded offsets (no --timezone: the fringe path).
        for zone in ["Europe/Paris", nil] as [String?] {
            for parallel in [true, false] {
                let label = "zone \(zone ?? "none"), parallel \(parallel)"
                let all = try days(zone: zone, only: nil, parallel: parallel)
                XCTAssertEqual(all.keys.sorted(), ["2024-03-02", "2024-03-03"], label)

                let third = try days(zone: zone, only: march3...march3, parallel: parallel)
                XCTAssertEqual(third.keys.sorted(), ["2024-03-03"], label)
                let d3 = try XCTUnwrap(third["2024-03-03"], label)
                XCTAssertEqual(d3.value("step_count") ?? 0, 170, accuracy: 1e-9, label)
                XCTAssertEqual(d3.heartRate?.average, 75, label)
                XCTAssertEqual(d3.sleep?.totalHours ?? 0, 5, accuracy: 1e-9, label)
                XCTAssertTrue(d3.workouts.isEmpty, label)
                XCTAssertEqual(PayloadEncoder.payload(d3).bytes(), PayloadEncoder.payload(all["2024-03-03"]!).bytes(), label)

                let second = try days(zone: zone, only: march2...march2, parallel: parallel)
                XCTAssertEqual(second.keys.sorted(), ["2024-03-02"], label)
                let d2 = try XCTUnwrap(second["2024-03-02"], label)
                XCTAssertEqual(d2.value("step_count") ?? 0, 250, accuracy: 1e-9, label)
                XCTAssertEqual(d2.sleep?.totalHours ?? 0, 2, accuracy: 1e-9, label)
                XCTAssertEqual(d2.workouts.count, 1, label)
                XCTAssertEqual(PayloadEncoder.payload(d2).bytes(), PayloadEncoder.payload(all["2024-03-02"]!).bytes(), label)

                // A date without data: no day at all (`explain` then reads in full).
                XCTAssertTrue(try days(zone: zone, only: march3 + 5...march3 + 5, parallel: parallel).isEmpty, label)
            }
        }
    }
}
