import Foundation
import XCTest

@testable import ExportParser

/// The rules that HAE input must follow like export.xml (docs/rules.md), each on a small HAE
/// file written here with its arithmetic.
final class HAERuleTests: XCTestCase {
    private func read(_ json: String) throws -> (DayBook, [String: FinishedDay], ReadReport) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hae-rule-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let book = DayBook(options: try DayOptions(timeZoneName: "Australia/Sydney"))
        let report = try HAEReader(path: url.path).read(into: book)
        let days = Dictionary(uniqueKeysWithValues: book.finish().map { ($0.date, $0) })
        return (book, days, report)
    }

    /// A day bucket of running speed counts on a day with a running workout; on a day without
    /// one it is in no payload, and counted, never dropped silently.
    func testRunningBucketsCountOnRunDaysAndAreCountedElsewhere() throws {
        let (book, days, _) = try read(
            """
            {"data": {"metrics": [
              {"name": "running_speed", "units": "mi/hr", "data": [
                {"date": "2024-03-02 00:00:00 +1100", "qty": 6.25},
                {"date": "2024-03-03 00:00:00 +1100", "qty": 7}]}],
             "workouts": [{"id": "A", "name": "Outdoor Run", "start": "2024-03-02 07:00:00 +1100",
                           "end": "2024-03-02 07:30:00 +1100", "duration": 1800}]}}
            """)
        // 03-02 has the run: 6.25 mi/hr × 1.609344 = 10.0584 km/hr.
        XCTAssertEqual(days["2024-03-02"]?.value("running_speed_kmh") ?? 0, 10.0584, accuracy: 1e-9)
        // 03-03 has no run: the bucket is in no payload (no day is written for it) and counted.
        XCTAssertNil(days["2024-03-03"]?.value("running_speed_kmh"))
        XCTAssertEqual(book.runningOutsideRuns, 1)
    }

    /// Generation 2 with another app's whole-night `asleep` beside the watch's stages: the stages
    /// are the night (a real file had 87 of 91 nights longer than the night when both were added).
    func testWholeNightAsleepBesideStagesIsNotAdded() throws {
        let (_, days, report) = try read(
            """
            {"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": [
              {"date": "2024-03-02 00:00:00 +1100", "asleep": 6.4, "core": 4, "deep": 1, "rem": 1.5, "awake": 0.5, "inBed": 0,
               "sleepStart": "2024-03-01 22:41:00 +1100", "sleepEnd": "2024-03-02 07:18:00 +1100", "source": "AutoSleep|Anna’s Apple Watch"}]}]}}
            """)
        // 4 + 1 + 1.5 = 6.5 h (adding asleep gave 12.9 h in a window of 22:41–07:18 = 8.62 h).
        XCTAssertEqual(days["2024-03-02"]?.sleep?.totalHours ?? 0, 6.5, accuracy: 1e-12)
        XCTAssertEqual(report.totalSkips, 0)
    }

    /// A total longer than the night's window is impossible: skipped and counted with its path.
    func testTotalLongerThanTheNightIsSkipped() throws {
        let (_, days, report) = try read(
            """
            {"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": [
              {"date": "2024-03-02 00:00:00 +1100", "totalSleep": 27, "core": 20, "deep": 4, "rem": 3, "asleep": 0, "inBed": 0,
               "sleepStart": "2024-03-01 19:00:00 +1100", "sleepEnd": "2024-03-02 07:24:00 +1100", "source": "Watch"},
              {"date": "2024-03-03 00:00:00 +1100", "totalSleep": 7, "core": 5, "deep": 1, "rem": 1, "asleep": 0, "inBed": 0,
               "sleepStart": "2024-03-02 23:00:00 +1100", "sleepEnd": "2024-03-03 06:30:00 +1100", "source": "Watch"}]}]}}
            """)
        // 27 h stated (and 20 + 4 + 3 = 27 h of stages) in 19:00–07:24 = 12.4 h: impossible.
        XCTAssertNil(days["2024-03-02"]?.sleep)
        let reason = "HAE sleep total longer than its night's window"
        XCTAssertEqual(report.skips[reason], 1)
        XCTAssertEqual(report.skipExamples[reason]?.first?.path, "data.metrics[0].data[0].totalSleep")
        // 5 + 1 + 1 = 7 h in 23:00–06:30 = 7.5 h: kept.
        XCTAssertEqual(days["2024-03-03"]?.sleep?.totalHours ?? 0, 7, accuracy: 1e-12)
    }

    /// The same plausibility check as export.xml: on a value and on a bucket's extremes.
    func testImplausibleValuesAreSkippedAndCounted() throws {
        let (_, days, report) = try read(
            """
            {"data": {"metrics": [
              {"name": "step_count", "units": "count", "data": [
                {"date": "2024-03-02 00:00:00 +1100", "qty": 1e308},
                {"date": "2024-03-02 01:00:00 +1100", "qty": 1e308},
                {"date": "2024-03-02 02:00:00 +1100", "qty": 800}]},
              {"name": "heart_rate", "units": "count/min", "data": [
                {"date": "2024-03-02 00:00:00 +1100", "Min": 50, "Avg": 70, "Max": 900},
                {"date": "2024-03-02 01:00:00 +1100", "Min": 55, "Avg": 65, "Max": 80}]},
              {"name": "walking_running_distance", "units": "km", "data": [
                {"date": "2024-03-02 00:00:00 +1100", "qty": -2}]}]}}
            """)
        let day = try XCTUnwrap(days["2024-03-02"])
        // Steps: the two 1e308 buckets (sum: infinity) are skipped; 800 stays.
        XCTAssertEqual(day.value("step_count"), 800)
        // Heart rate: the bucket with Max 900 is skipped; the other gives 55 / 65 / 80.
        XCTAssertEqual(day.heartRate?.minimum, 55)
        XCTAssertEqual(day.heartRate?.average, 65)
        XCTAssertEqual(day.heartRate?.maximum, 80)
        XCTAssertNil(day.value("distance_km"))
        XCTAssertEqual(report.skips["value outside 0–1,000,000 count for StepCount"], 2)
        XCTAssertEqual(report.skips["value outside 20–300 count/min for HeartRate"], 1)
        XCTAssertEqual(report.skips["negative value for DistanceWalkingRunning"], 1)
        XCTAssertEqual(report.skipExamples["negative value for DistanceWalkingRunning"]?.first?.path, "data.metrics[2].data[0]")
    }
}
