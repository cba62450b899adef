import XCTest

@testable import ExportParser

/// HAE input through the day book: the reader's samples, nights and workouts land on the days
/// the issue asks for (sleep by wake-up date, wrist temperature on the same night, heart-rate
/// buckets without a count).
final class HAEDayBookTests: XCTestCase {
    private func days(_ path: String, timezone: String? = nil) throws -> [String: FinishedDay] {
        if TestPaths.isPublicSample(path) { try TestPaths.requirePublicSamples() }
        let book = DayBook(options: try DayOptions(timeZoneName: timezone))
        _ = try HAEReader(path: path).read(into: book)
        return Dictionary(uniqueKeysWithValues: book.finish().map { ($0.date, $0) })
    }

    func testHandWrittenMetricsOnTheirDays() throws {
        let d = try days(HAEFixtures.path("metrics-units.json"))
        let day = try XCTUnwrap(d["2026-03-30"])
        // heart rate on 03-30: bucket {50, 70.5, 120} and single samples 65 and 66
        // → min 50, max 120, mean (70.5 + 65 + 66) / 3 = 67.1666…, no count (buckets)
        let hr = try XCTUnwrap(day.heartRate)
        XCTAssertEqual(hr.minimum, 50)
        XCTAssertEqual(hr.maximum, 120)
        XCTAssertEqual(hr.average, (70.5 + 65 + 66) / 3, accuracy: 1e-9)
        XCTAssertNil(hr.count)
        // wrist temperature day buckets: 98.6 degF dated 03-29 → night ending 03-30 → 37 degC;
        // 95 degF dated 03-30 → night ending 03-31 → 35 degC
        XCTAssertEqual(day.value("apple_sleeping_wrist_temperature") ?? 0, 37, accuracy: 1e-9)
        XCTAssertEqual(d["2026-03-31"]?.value("apple_sleeping_wrist_temperature") ?? 0, 35, accuracy: 1e-9)
        XCTAssertNil(d["2026-03-29"]?.value("apple_sleeping_wrist_temperature"))
        // hourly buckets stay: 04-01 00:00 (96.8 degF = 36) is in the night ending 04-01,
        // 04-02 01:00 (97.7 degF = 36.5) in the night ending 04-02
        XCTAssertEqual(d["2026-04-01"]?.value("apple_sleeping_wrist_temperature") ?? 0, 36, accuracy: 1e-9)
        XCTAssertEqual(d["2026-04-02"]?.value("apple_sleeping_wrist_temperature") ?? 0, 36.5, accuracy: 1e-9)
        // 418.4 kJ = 100 kcal; 2 mi = 3.218688 km
        XCTAssertEqual(day.value("active_calories") ?? 0, 100, accuracy: 1e-9)
        XCTAssertEqual(day.value("distance_km") ?? 0, 3.218688, accuracy: 1e-9)
        XCTAssertEqual(day.value("step_count") ?? 0, 7369.142, accuracy: 1e-9)
        // 04-02: two per-sample datums (Min = Avg = Max) 61 and 63 → avg 62 and a count of 2
        let samplesDay = try XCTUnwrap(d["2026-04-02"]?.heartRate)
        XCTAssertEqual(samplesDay.average, 62)
        XCTAssertEqual(samplesDay.minimum, 61)
        XCTAssertEqual(samplesDay.maximum, 63)
        XCTAssertEqual(samplesDay.count, 2)
    }

    func testCornflowerNightsAndWristTemperatureShareTheWakeUpDate() throws {
        let d = try days(HAEFixtures.publicPath("cornflower_metrics-day-aggregated_7days_2026-03-30_array-wrapped.json"))
        // sleep data[0]: sleepEnd 2026-03-30 04:31:32, totalSleep 6.387438913053936
        let day = try XCTUnwrap(d["2026-03-30"])
        XCTAssertEqual(day.sleep?.totalHours ?? 0, 6.387438913053936, accuracy: 1e-9)
        // wrist temperature data[0] (dated 03-29): 97.51367874145501 degF = 36.39648818969723 degC
        XCTAssertEqual(day.value("apple_sleeping_wrist_temperature") ?? 0, 36.39648818969723, accuracy: 1e-9)
        // heart_rate data[0]: Avg 76.04408808920257, Min 48.40922164916992, Max 133
        XCTAssertEqual(day.heartRate?.average ?? 0, 76.04408808920257, accuracy: 1e-9)
        XCTAssertEqual(day.heartRate?.minimum ?? 0, 48.40922164916992, accuracy: 1e-9)
        XCTAssertEqual(day.heartRate?.maximum, 133)
        XCTAssertNil(day.heartRate?.count)
    }

    func testJimmyLittleWorkoutsOnTheirDays() throws {
        let d = try days(HAEFixtures.publicPath("jimmylittle_metrics-day-aggregated_workouts-v2_medications_2026-02-14_2026-02-16.json"))
        let workouts = try XCTUnwrap(d["2026-02-14"]?.workouts)
        // workouts[2] "Outdoor Walk" 12:51:14 and workouts[1] "Other" 20:00:21 on 02-14
        XCTAssertEqual(workouts.map(\.type).sorted(), ["Other", "Walking"])
        let walk = try XCTUnwrap(workouts.first { $0.type == "Walking" })
        XCTAssertEqual(walk.distanceMetres ?? 0, 500.3591466746293, accuracy: 1e-9)  // 0.5003591466746293 km
        XCTAssertEqual(walk.energyKcal ?? 0, 31.560507148276304, accuracy: 1e-9)
        XCTAssertEqual(walk.durationSeconds, 649.2511929273605, accuracy: 1e-9)
        XCTAssertEqual(walk.maximumHeartRate, 94)
    }
}
