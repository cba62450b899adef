import Foundation
import XCTest

@testable import ExportParser

/// The real HAE files of the public samples (`TestPaths.publicHAE`, SOURCES.md there), read in place.
/// Spot values are copied from the named datum of each file.
final class HAEPublicSampleTests: XCTestCase {
    override func setUpWithError() throws { try TestPaths.requirePublicSamples() }

    private func read(_ name: String, details: Bool = false) throws -> (CollectingSink, ReadReport) {
        let path = HAEFixtures.publicPath(name)
        return try HAEFixtures.read(path, details: details)
    }

    func testEveryPublicFileReadsWithoutFatalErrors() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: HAEFixtures.publicDirectory).filter { $0.hasSuffix(".json") }
        XCTAssertEqual(names.count, 5)
        for name in names {
            for details in [false, true] {
                let (sink, report) = try read(name, details: details)
                XCTAssertGreaterThan(sink.samples.count + sink.workouts.count + sink.sleepSummaries.count, 0, name)
                XCTAssertNil(report.skips["HAE datum without a parseable date"], name)
                XCTAssertTrue(report.skips.keys.allSatisfy { !$0.hasPrefix("unknown unit") }, "\(name): \(report.skips)")
            }
        }
    }

    func testIvailopMinuteSteps() throws {
        // 2021, bare step_count minute buckets, `data` before `name`/`units`, no sources
        let (sink, _) = try read("ivailop7_step-count-minute-aggregated_2021-03-14.json")
        XCTAssertEqual(sink.samples.count, 6)
        XCTAssertTrue(sink.samples.allSatisfy { $0.metric?.field == "step_count" && $0.isBucket && $0.source == "" })
        // data[0]: {"qty": 34, "date": "2021-03-14 00:01:00 +0000"}
        XCTAssertEqual(sink.samples[0].canonicalValue, 34)
        XCTAssertEqual(sink.samples[0].start, ts("2021-03-14 00:01:00 +0000"))
        // data[3]: 17.719295979506633 at 01:14
        XCTAssertEqual(sink.samples[3].canonicalValue, 17.719295979506633)
        // all six: 34 + 25 + 8.2797 + 17.7193 + 17.7193 + 7.2817 = 110.0
        XCTAssertEqual(sink.samples.compactMap(\.canonicalValue).reduce(0, +), 110, accuracy: 1e-9)
    }

    func testBenmurrellWorkoutV1() throws {
        // the stored inner object {symptoms, metrics, workouts}; one v1 "Walking"
        let (sink, report) = try read("benmurrell_workouts-v1_single-walk_2023-06-06.json", details: true)
        XCTAssertEqual(sink.workouts.count, 1)
        XCTAssertTrue(sink.extras.isEmpty)  // "symptoms": []
        let w = sink.workouts[0]
        XCTAssertEqual(w.activityType, "HKWorkoutActivityTypeWalking")
        XCTAssertEqual(w.start, ts("2023-06-06 20:38:38 -0500"))
        XCTAssertEqual(w.end, ts("2023-06-06 20:50:43 -0500"))
        XCTAssertEqual(w.duration, 725)  // end − start
        XCTAssertEqual(w.totalEnergyBurned, 67.53800000000005)  // activeEnergy.qty
        XCTAssertEqual(w.totalDistance, 0.5915495370532968)  // distance.qty, mi
        XCTAssertEqual(w.totalDistanceUnit, "mi")
        XCTAssertEqual(w.statedAverageHeartRate, 98.05344827586207)  // avgHeartRate.qty (bpm)
        XCTAssertEqual(w.statedMaximumHeartRate, 108)  // maxHeartRate.qty
        XCTAssertEqual(w.source, "Health Auto Export")
        XCTAssertTrue(w.metadata.contains(MetadataEntry(key: "elevationAscent", value: "18.799212598425196 ft")))
        XCTAssertEqual(report.workouts, 1)
    }

    func testCornflowerArrayWrappedDayAggregates() throws {
        let (sink, report) = try read("cornflower_metrics-day-aggregated_7days_2026-03-30_array-wrapped.json")
        // 30 metrics, 182 datums: 7 sleep nights and 175 samples
        XCTAssertEqual(sink.sleepSummaries.count, 7)
        XCTAssertEqual(sink.samples.count, 175)
        XCTAssertEqual(report.totalRecords, 182)
        // heart_rate data[0]: Avg 76.04408808920257, Min 48.40922164916992, Max 133 on 03-30
        let hr = sink.samples(field: "heart_rate_samples")[0]
        XCTAssertEqual(hr.canonicalValue, 76.04408808920257)
        XCTAssertEqual(hr.bucketMinimum, 48.40922164916992)
        XCTAssertEqual(hr.bucketMaximum, 133)
        XCTAssertEqual(hr.source, "Jonathan's Apple Watch|💖✨💫")
        // wrist temperature data[0]: 97.51367874145501 degF dated 03-29 → 36.39648818969723 degC at 03-30 00:00
        let wt = sink.samples(field: "apple_sleeping_wrist_temperature")[0]
        XCTAssertEqual(wt.canonicalValue ?? 0, 36.39648818969723, accuracy: 1e-9)
        XCTAssertEqual(wt.start, ts("2026-03-30 00:00:00 -0600"))
        // walking_running_distance data[0]: 3.148069212798846 mi → 5.066326299202546 km
        XCTAssertEqual(sink.samples(field: "distance_km")[0].canonicalValue ?? 0, 5.066326299202546, accuracy: 1e-9)
        // blood_oxygen_saturation data[0]: 91.72222222222223 % stays whole
        XCTAssertEqual(sink.samples(field: "blood_oxygen_saturation")[0].canonicalValue, 91.72222222222223)
        // sleep data[0]: sleepEnd 2026-03-30 04:31:32 -0600, totalSleep 6.387438913053936
        XCTAssertEqual(sink.sleepSummaries[0].sleepEnd, ts("2026-03-30 04:31:32 -0600"))
        XCTAssertEqual(sink.sleepSummaries[0].totalHours, 6.387438913053936)
        XCTAssertEqual(sink.sleepSummaries[0].deepHours, 1.605216395292017)
        // uncatalogued metrics (apple_stand_time, physical_effort, …) pass through as hae:*
        XCTAssertEqual(sink.samples(ofType: "hae:apple_stand_time").count, 7)
    }

    func testJimmyLittleMetricsWorkoutsV2AndMedications() throws {
        let (sink, report) = try read(
            "jimmylittle_metrics-day-aggregated_workouts-v2_medications_2026-02-14_2026-02-16.json", details: true)
        XCTAssertEqual(sink.sleepSummaries.count, 3)
        XCTAssertEqual(sink.samples.count, 89)  // 92 datums − 3 sleep nights
        XCTAssertEqual(sink.extras.filter { $0.kind == "medications" }.count, 4)
        XCTAssertEqual(report.recordsByType["hae:medications"], 4)
        XCTAssertTrue(sink.extras[0].json.hasPrefix("{") && sink.extras[0].json.contains("\"displayText\""))
        // lean_body_mass data[0]: 153.60000610351562 lb → 69.67179080050812 kg
        XCTAssertEqual(sink.samples(field: "lean_body_mass")[0].canonicalValue ?? 0, 69.67179080050812, accuracy: 1e-9)
        // vo2_max data[0]: 33.4 ml/(kg·min)
        XCTAssertEqual(sink.samples(field: "vo2max")[0].canonicalValue, 33.4)
        // body_fat_percentage data[0]: 27 %
        XCTAssertEqual(sink.samples(field: "body_fat_pct")[0].canonicalValue, 27)
        // workouts[2]: "Outdoor Walk", 0.5003591466746293 km, 31.560507148276304 kcal, avg 82.51…, max 94
        XCTAssertEqual(sink.workouts.count, 3)
        let walk = try XCTUnwrap(sink.workouts.first { $0.activityType == "HKWorkoutActivityTypeWalking" })
        XCTAssertEqual(walk.totalDistance, 0.5003591466746293)
        XCTAssertEqual(walk.totalDistanceUnit, "km")
        XCTAssertEqual(walk.totalEnergyBurned, 31.560507148276304)
        XCTAssertEqual(walk.statedAverageHeartRate, 82.51489327833586)
        XCTAssertEqual(walk.statedMaximumHeartRate, 94)
        XCTAssertEqual(walk.duration, 649.2511929273605)
        XCTAssertEqual(sink.workouts.filter { $0.activityType == "HKWorkoutActivityTypeOther" }.count, 2)  // HAE's own "Other"
    }

    func testStarbackrSleepSegments() throws {
        let (sink, _) = try read("starbackr_sleep-analysis-unaggregated-segments_2025-04-18_2025-05-17.json")
        XCTAssertEqual(sink.samples.count, 741)
        let p = "HKCategoryValueSleepAnalysis"
        let counts = Dictionary(grouping: sink.samples, by: { $0.valueText ?? "" }).mapValues(\.count)
        XCTAssertEqual(
            counts,
            [
                p + "AsleepCore": 303, p + "InBed": 124, p + "AsleepREM": 123, p + "Awake": 96,
                p + "AsleepDeep": 94, p + "AsleepUnspecified": 1,
            ])
        // data[0]: Core 2025-04-18 23:16:55 → 23:20:55 -0400, qty 0.066666666666666666
        let s = sink.samples[0]
        XCTAssertEqual(s.valueText, p + "AsleepCore")
        XCTAssertEqual(s.start, ts("2025-04-18 23:16:55 -0400"))
        XCTAssertEqual(s.end, ts("2025-04-18 23:20:55 -0400"))
        XCTAssertEqual(s.value ?? 0, 0.066666666666666666, accuracy: 1e-15)
        XCTAssertEqual(s.source, "arun\u{2019}s Apple\u{00A0}Watch")
    }
}
