import Foundation
import XCTest

@testable import ExportParser

/// The store, fed hand-built values through the SampleSink API; expected rows written by hand.
final class StoreTests: XCTestCase {
    typealias T = StoreTestSupport
    var dir: URL!
    var path: String { dir.appendingPathComponent("health.sqlite").path }

    override func setUpWithError() throws { dir = try T.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    // MARK: every element kind, field by field

    func testEveryElementKindLandsInItsTableFieldByField() throws {
        let store = try HealthStore(path: path)
        let ts = T.ts
        var hrv = Sample(
            type: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN",
            metric: Catalog.metric(forType: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN"),
            source: "Ann’s Apple Watch", sourceVersion: "10.2", device: "<<HKDevice: 0x1>, name:Apple Watch>",
            unit: "ms", valueText: "48.2", value: 48.2, canonicalValue: 48.2,
            start: ts("2024-01-02 01:10:00 +0100"), end: ts("2024-01-02 01:11:00 +0100"), created: ts("2024-01-02 01:12:00 +0100"),
            timeZoneName: "Europe/Amsterdam",
            metadata: [MetadataEntry(key: "HKTimeZone", value: "Europe/Amsterdam"), MetadataEntry(key: "HKWasUserEntered", value: "0")],
            beats: [InstantaneousBeat(bpm: 62, time: "00:20:37,80"), InstantaneousBeat(bpm: nil, time: "00:20:38,70")])
        hrv.isBucket = false
        let sleep = Sample(
            type: "HKCategoryTypeIdentifierSleepAnalysis", source: "Ann’s Apple Watch",
            valueText: "HKCategoryValueSleepAnalysisAsleepCore",
            start: ts("2024-01-02 01:00:00 +0100"), end: ts("2024-01-02 01:30:30 +0100"))
        let systolic = Sample(
            type: "HKQuantityTypeIdentifierBloodPressureSystolic", source: "Omron", unit: "mmHg",
            valueText: "128", value: 128, start: ts("2024-01-02 08:00:00 +0100"), end: ts("2024-01-02 08:00:00 +0100"))
        var diastolic = Sample(
            type: "HKQuantityTypeIdentifierBloodPressureDiastolic", source: "Omron", unit: "mmHg",
            valueText: "84", value: 84, start: ts("2024-01-02 08:00:00 +0100"), end: ts("2024-01-02 08:00:00 +0100"))
        diastolic.metadata = [MetadataEntry(key: "Meal", value: "before \"breakfast\"")]
        var bp = Correlation(
            type: "HKCorrelationTypeIdentifierBloodPressure", source: "Omron",
            start: ts("2024-01-02 08:00:00 +0100"), end: ts("2024-01-02 08:00:00 +0100"))
        bp.sourceVersion = "3.1"
        bp.created = ts("2024-01-02 08:01:00 +0100")
        bp.metadata = [MetadataEntry(key: "HKWasUserEntered", value: "1")]
        bp.members = [systolic, diastolic]

        var run = Workout(
            activityType: "HKWorkoutActivityTypeRunning", source: "Ann’s Apple Watch",
            start: ts("2024-01-02 18:00:00 +0100"), end: ts("2024-01-02 18:40:00 +0100"))
        run.sourceVersion = "10.2"
        run.device = "Watch"
        run.created = ts("2024-01-02 18:41:00 +0100")
        run.duration = 38.5
        run.durationUnit = "min"
        run.totalDistance = 6.2
        run.totalDistanceUnit = "km"
        run.totalEnergyBurned = 410
        run.totalEnergyBurnedUnit = "kcal"
        run.timeZoneName = "Europe/Amsterdam"
        run.metadata = [MetadataEntry(key: "HKIndoorWorkout", value: "0"), MetadataEntry(key: "HKElevationAscended", value: "6575 cm")]
        run.statistics = [
            WorkoutStatistic(
                type: "HKQuantityTypeIdentifierHeartRate", start: ts("2024-01-02 18:00:00 +0100"),
                end: ts("2024-01-02 18:40:00 +0100"), average: 151.5, minimum: 98, maximum: 178, unit: "count/min")
        ]
        run.events = [
            WorkoutEvent(type: "HKWorkoutEventTypePause", date: ts("2024-01-02 18:10:00 +0100")),
            WorkoutEvent(
                type: "HKWorkoutEventTypeLap", date: ts("2024-01-02 18:20:00 +0100"), duration: 5.5, durationUnit: "min",
                metadata: [MetadataEntry(key: "HKLapLength", value: "400 m")]),
        ]
        run.activities = [
            WorkoutActivity(
                uuid: "A-1", start: ts("2024-01-02 18:00:00 +0100"), end: ts("2024-01-02 18:20:00 +0100"),
                duration: 20, durationUnit: "min",
                statistics: [WorkoutStatistic(type: "HKQuantityTypeIdentifierDistanceWalkingRunning", sum: 3.1, unit: "km")],
                events: [WorkoutEvent(type: "HKWorkoutEventTypeSegment", date: ts("2024-01-02 18:05:00 +0100"))],
                metadata: [MetadataEntry(key: "HKIndoorWorkout", value: "1")])
        ]
        run.routes = [
            WorkoutRoute(
                source: "Ann’s Apple Watch", start: ts("2024-01-02 18:00:00 +0100"), end: ts("2024-01-02 18:40:00 +0100"),
                filePaths: ["/workout-routes/route_2024-01-02_6.40pm.gpx", "/workout-routes/route_2024-01-02_6.41pm.gpx"])
        ]
        let summary = ActivitySummary(
            date: "2024-01-02",
            attributes: [
                MetadataEntry(key: "activeEnergyBurned", value: "512.5"), MetadataEntry(key: "activeEnergyBurnedGoal", value: "500"),
                MetadataEntry(key: "activeEnergyBurnedUnit", value: "kcal"), MetadataEntry(key: "appleExerciseTime", value: "41"),
                MetadataEntry(key: "appleStandHours", value: "11"),
            ])
        let me = Me(attributes: [
            MetadataEntry(key: "HKCharacteristicTypeIdentifierBiologicalSex", value: "HKBiologicalSexFemale"),
            MetadataEntry(key: "HKCharacteristicTypeIdentifierDateOfBirth", value: "1990-01-01"),
        ])
        var night = SleepSummary(sleepEnd: ts("2024-01-02 07:00:00 +0100"), totalHours: 7.25)
        night.sleepStart = ts("2024-01-01 23:30:00 +0100")
        night.deepHours = 1.5
        night.source = "AutoSleep"

        var day = FinishedDay(dayNumber: CivilDate.parseISODate("2024-01-02")!, timezone: "Europe/Amsterdam", deviceSyncTimestamp: "x")
        day.values[Catalog.metric(named: "step_count").index] = 412
        day.values[Catalog.metric(named: "distance_km").index] = 0.3049999999
        day.heartRate = MinMaxAvgSummary(average: 71.25, minimum: 50, maximum: 120, count: 9)
        var report = ReadReport()
        report.recordsByType = [
            "HKQuantityTypeIdentifierHeartRateVariabilitySDNN": 1, "HKCategoryTypeIdentifierSleepAnalysis": 1,
            "HKQuantityTypeIdentifierBloodPressureSystolic": 1,
        ]
        report.bytesRead = 12345
        report.workouts = 1
        report.skip("unit not convertible", at: InputLocation(line: 7, column: 3))
        report.skip("unit not convertible", at: InputLocation(line: 9, column: 3))

        let session = try store.beginImport(T.meta(sha: "AB12"))
        XCTAssertTrue(session.wantsDetails)
        session.exportDate(ts("2024-01-05 10:00:00 -0800"))
        session.me(me)
        session.sample(hrv)
        session.sample(sleep)
        session.sample(systolic)
        session.correlation(bp)
        session.workout(run)
        session.activitySummary(summary)
        session.extra(ExtraItem(kind: "ClinicalRecord", json: #"{"type":"Lab"}"#))
        session.sleepSummary(night)
        let result = try session.complete(days: [day], report: report)

        XCTAssertEqual(result.samplesRead, 3)
        XCTAssertEqual(result.samplesAdded, 3)
        XCTAssertEqual(result.rowsAdded["sample_records"], 3)
        // Schema 5: metadata is a column of the sample's row, not rows of its own.
        XCTAssertNil(result.rowsAdded["sample_metadata"])
        XCTAssertEqual(result.rowsAdded["hrv_beats"], 2)
        XCTAssertEqual(result.rowsAdded["correlations"], 1)
        XCTAssertEqual(result.rowsAdded["correlation_members"], 2)
        XCTAssertEqual(result.rowsAdded["workouts"], 1)
        XCTAssertEqual(result.rowsAdded["workout_statistics"], 2)
        XCTAssertEqual(result.rowsAdded["workout_events"], 3)
        XCTAssertEqual(result.rowsAdded["workout_activities"], 1)
        XCTAssertEqual(result.rowsAdded["workout_metadata"], 3)
        XCTAssertEqual(result.rowsAdded["workout_routes"], 1)
        XCTAssertEqual(result.rowsAdded["workout_route_files"], 2)
        XCTAssertEqual(result.rowsAdded["activity_summaries"], 1)
        XCTAssertEqual(result.rowsAdded["me"], 2)
        XCTAssertEqual(result.rowsAdded["extra_items"], 1)
        XCTAssertEqual(result.rowsAdded["devices"], 2)
        XCTAssertEqual(result.rowsAdded["sample_types"], 3)
        XCTAssertEqual(result.rowsAdded["sources"], 2)
        XCTAssertEqual(
            try T.rows(path, "SELECT name, payload_unit FROM sample_types ORDER BY id"),
            [
                ["HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "ms"], ["HKCategoryTypeIdentifierSleepAnalysis", "NULL"],
                ["HKQuantityTypeIdentifierBloodPressureSystolic", "NULL"],
            ])
        XCTAssertEqual(result.rowsAdded["sleep_summaries"], 1)
        // timezone, 4 heart rate, step_count, distance_km, workouts_count
        XCTAssertEqual(result.rowsAdded["day_values"], 8)

        let id = String(result.importID)
        XCTAssertEqual(
            try T.rows(
                path,
                """
                SELECT person, file_name, file_sha256, format, tool_version, started_at, finished_at IS NOT NULL, export_date,
                  bytes_read, records_read, workouts_read FROM imports
                """),
            [
                [
                    "me", "export.xml", "ab12", "apple-xml", "test-1.0", "2023-11-14T22:13:20Z", "1", "2024-01-05T10:00:00-08:00",
                    "12345", "3", "1",
                ]
            ])
        XCTAssertEqual(
            try T.rows(path, "SELECT import_id, record_type, records_read, records_added FROM import_record_counts ORDER BY record_type"),
            [
                [id, "HKCategoryTypeIdentifierSleepAnalysis", "1", "1"],
                [id, "HKQuantityTypeIdentifierBloodPressureSystolic", "1", "1"],
                [id, "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "1", "1"],
            ])
        XCTAssertEqual(
            try T.rows(path, "SELECT reason, skipped, first_locations FROM import_skips"),
            [["unit not convertible", "2", "line 7, column 3; line 9, column 3"]])

        XCTAssertEqual(
            try T.rows(
                path,
                """
                SELECT person, import_id, type, source_name, source_version, device, unit, value, value_text, payload_value, payload_unit,
                  created_at, created_epoch, start_at, start_epoch, end_at, end_epoch, time_zone, is_bucket FROM samples ORDER BY start_epoch
                """),
            [
                [
                    "me", id, "HKCategoryTypeIdentifierSleepAnalysis", "Ann’s Apple Watch", "NULL", "NULL", "NULL", "NULL",
                    "HKCategoryValueSleepAnalysisAsleepCore", "NULL", "NULL", "NULL", "NULL",
                    "2024-01-02T01:00:00+01:00", "1704153600", "2024-01-02T01:30:30+01:00", "1704155430", "NULL", "0",
                ],
                [
                    "me", id, "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "Ann’s Apple Watch", "10.2",
                    "<<HKDevice>, name:Apple Watch>",
                    "ms", "48.2", "NULL", "48.2", "ms", "2024-01-02T01:12:00+01:00", "1704154320",
                    "2024-01-02T01:10:00+01:00", "1704154200", "2024-01-02T01:11:00+01:00", "1704154260", "Europe/Amsterdam", "0",
                ],
                [
                    "me", id, "HKQuantityTypeIdentifierBloodPressureSystolic", "Omron", "NULL", "NULL", "mmHg", "128.0", "NULL", "NULL",
                    "NULL",
                    "NULL", "NULL", "2024-01-02T08:00:00+01:00", "1704178800", "2024-01-02T08:00:00+01:00", "1704178800", "NULL", "0",
                ],
            ])
        XCTAssertEqual(
            try T.rows(
                path, "SELECT s.type, m.key, m.value FROM sample_metadata m JOIN samples s ON s.id = m.sample_id ORDER BY m.position"),
            [
                ["HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "HKTimeZone", "Europe/Amsterdam"],
                ["HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "HKWasUserEntered", "0"],
            ])
        // The HRV record's two entries, in its order, as one JSON object; the other two samples
        // have no metadata (NULL, shown by T.rows as "NULL").
        XCTAssertEqual(
            try T.rows(path, "SELECT type, metadata FROM samples ORDER BY start_epoch"),
            [
                ["HKCategoryTypeIdentifierSleepAnalysis", "NULL"],
                ["HKQuantityTypeIdentifierHeartRateVariabilitySDNN", #"{"HKTimeZone":"Europe/Amsterdam","HKWasUserEntered":"0"}"#],
                ["HKQuantityTypeIdentifierBloodPressureSystolic", "NULL"],
            ])
        XCTAssertEqual(
            try T.rows(path, "SELECT metadata_json ->> '$.HKTimeZone' FROM sample_records WHERE metadata_json IS NOT NULL"),
            [["Europe/Amsterdam"]])
        XCTAssertEqual(
            try T.rows(
                path, "SELECT s.value, b.position, b.bpm, b.time FROM hrv_beats b JOIN samples s ON s.id = b.sample_id ORDER BY b.position"),
            [
                ["48.2", "0", "62.0", "00:20:37,80"], ["48.2", "1", "NULL", "00:20:38,70"],
            ])

        XCTAssertEqual(
            try T.rows(
                path,
                """
                SELECT person, import_id, type, source_name, source_version, created_at, start_at, start_epoch, end_at FROM correlations
                """),
            [
                [
                    "me", id, "HKCorrelationTypeIdentifierBloodPressure", "Omron", "3.1", "2024-01-02T08:01:00+01:00",
                    "2024-01-02T08:00:00+01:00", "1704178800", "2024-01-02T08:00:00+01:00",
                ]
            ])
        XCTAssertEqual(try T.rows(path, "SELECT key, value FROM correlation_metadata"), [["HKWasUserEntered", "1"]])
        XCTAssertEqual(
            try T.rows(
                path,
                """
                SELECT position, type, source_name, unit, value, value_text, start_at, end_epoch, metadata_json,
                  json_extract(metadata_json, '$.Meal') FROM correlation_members ORDER BY position
                """),
            [
                [
                    "0", "HKQuantityTypeIdentifierBloodPressureSystolic", "Omron", "mmHg", "128.0", "NULL", "2024-01-02T08:00:00+01:00",
                    "1704178800", "NULL", "NULL",
                ],
                [
                    "1", "HKQuantityTypeIdentifierBloodPressureDiastolic", "Omron", "mmHg", "84.0", "NULL", "2024-01-02T08:00:00+01:00",
                    "1704178800",
                    #"{"Meal":"before \"breakfast\""}"#, "before \"breakfast\"",
                ],
            ])

        XCTAssertEqual(
            try T.rows(
                path,
                """
                SELECT person, import_id, activity_type, source_name, source_version, (SELECT description FROM devices d WHERE d.id = device_id), created_at, start_at, start_epoch, end_at, end_epoch,
                  duration, duration_unit, total_distance, total_distance_unit, total_energy_burned, total_energy_burned_unit,
                  stated_average_heart_rate, time_zone FROM workouts
                """),
            [
                [
                    "me", id, "HKWorkoutActivityTypeRunning", "Ann’s Apple Watch", "10.2", "Watch", "2024-01-02T18:41:00+01:00",
                    "2024-01-02T18:00:00+01:00", "1704214800", "2024-01-02T18:40:00+01:00", "1704217200",
                    "38.5", "min", "6.2", "km", "410.0", "kcal", "NULL", "Europe/Amsterdam",
                ]
            ])
        XCTAssertEqual(
            try T.rows(path, "SELECT activity_id IS NULL, key, value FROM workout_metadata ORDER BY rowid"),
            [
                ["1", "HKIndoorWorkout", "0"], ["1", "HKElevationAscended", "6575 cm"], ["0", "HKIndoorWorkout", "1"],
            ])
        XCTAssertEqual(
            try T.rows(
                path,
                "SELECT activity_id IS NULL, type, start_at, end_epoch, average, minimum, maximum, sum, unit FROM workout_statistics ORDER BY rowid"
            ),
            [
                [
                    "1", "HKQuantityTypeIdentifierHeartRate", "2024-01-02T18:00:00+01:00", "1704217200", "151.5", "98.0", "178.0", "NULL",
                    "count/min",
                ],
                ["0", "HKQuantityTypeIdentifierDistanceWalkingRunning", "NULL", "NULL", "NULL", "NULL", "NULL", "3.1", "km"],
            ])
        XCTAssertEqual(
            try T.rows(
                path,
                "SELECT activity_id IS NULL, type, date_at, date_epoch, duration, duration_unit, metadata_json FROM workout_events ORDER BY rowid"
            ),
            [
                ["1", "HKWorkoutEventTypePause", "2024-01-02T18:10:00+01:00", "1704215400", "NULL", "NULL", "NULL"],
                ["1", "HKWorkoutEventTypeLap", "2024-01-02T18:20:00+01:00", "1704216000", "5.5", "min", #"{"HKLapLength":"400 m"}"#],
                ["0", "HKWorkoutEventTypeSegment", "2024-01-02T18:05:00+01:00", "1704215100", "NULL", "NULL", "NULL"],
            ])
        XCTAssertEqual(
            try T.rows(
                path,
                """
                SELECT a.position, a.uuid, a.start_at, a.end_at, a.duration, a.duration_unit, w.activity_type
                FROM workout_activities a JOIN workouts w ON w.id = a.workout_id
                """),
            [["0", "A-1", "2024-01-02T18:00:00+01:00", "2024-01-02T18:20:00+01:00", "20.0", "min", "HKWorkoutActivityTypeRunning"]])
        XCTAssertEqual(
            try T.rows(path, "SELECT count(*) FROM workout_statistics s JOIN workout_activities a ON a.id = s.activity_id"), [["1"]])
        XCTAssertEqual(
            try T.rows(
                path,
                """
                SELECT r.source_name, r.start_at, r.end_at, r.inline_location_count, f.path
                FROM workout_routes r JOIN workout_route_files f ON f.route_id = r.id ORDER BY f.rowid
                """),
            [
                [
                    "Ann’s Apple Watch", "2024-01-02T18:00:00+01:00", "2024-01-02T18:40:00+01:00", "0",
                    "/workout-routes/route_2024-01-02_6.40pm.gpx",
                ],
                [
                    "Ann’s Apple Watch", "2024-01-02T18:00:00+01:00", "2024-01-02T18:40:00+01:00", "0",
                    "/workout-routes/route_2024-01-02_6.41pm.gpx",
                ],
            ])
        XCTAssertEqual(
            try T.rows(
                path,
                """
                SELECT person, date, import_id, active_energy_burned, active_energy_burned_goal, active_energy_burned_unit,
                  apple_move_time, apple_exercise_time, apple_stand_hours, json_extract(attributes_json, '$.appleStandHours') FROM activity_summaries
                """), [["me", "2024-01-02", id, "512.5", "500.0", "kcal", "NULL", "41.0", "11.0", "11"]])
        XCTAssertEqual(
            try T.rows(path, "SELECT person, attribute, value, import_id FROM me ORDER BY attribute"),
            [
                ["me", "HKCharacteristicTypeIdentifierBiologicalSex", "HKBiologicalSexFemale", id],
                ["me", "HKCharacteristicTypeIdentifierDateOfBirth", "1990-01-01", id],
            ])
        XCTAssertEqual(
            try T.rows(path, "SELECT person, import_id, kind, json, json_extract(json, '$.type') FROM extra_items"),
            [["me", id, "ClinicalRecord", #"{"type":"Lab"}"#, "Lab"]])
        XCTAssertEqual(
            try T.rows(
                path,
                "SELECT source_name, sleep_start_at, sleep_end_at, sleep_end_epoch, total_hours, deep_hours, core_hours FROM sleep_summaries"
            ),
            [["AutoSleep", "2024-01-01T23:30:00+01:00", "2024-01-02T07:00:00+01:00", "1704175200", "7.25", "1.5", "NULL"]])
        XCTAssertEqual(
            try T.rows(path, "SELECT date, field, value, text, unit, import_id FROM day_values ORDER BY field"),
            [
                ["2024-01-02", "distance_km", "0.3049999999", "NULL", "km", id],
                ["2024-01-02", "heart_rate_avg", "71.25", "NULL", "count/min", id],
                ["2024-01-02", "heart_rate_count", "9.0", "NULL", "count", id],
                ["2024-01-02", "heart_rate_max", "120.0", "NULL", "count/min", id],
                ["2024-01-02", "heart_rate_min", "50.0", "NULL", "count/min", id],
                ["2024-01-02", "step_count", "412.0", "NULL", "count", id],
                ["2024-01-02", "timezone", "NULL", "Europe/Amsterdam", "NULL", id],
                ["2024-01-02", "workouts_count", "0.0", "NULL", "count", id],
            ])
        XCTAssertEqual(
            try T.rows(path, "SELECT person, date, timezone, step_count, distance_km, heart_rate_max, sleep_total_hours FROM daily"),
            // Counts shown as INTEGER (schema version 7); a distance and a heart rate as REAL.
            [["me", "2024-01-02", "Europe/Amsterdam", "412", "0.3049999999", "120.0", "NULL"]])
    }

    func testDevicesAreStoredOnceWithoutTheirAddressAndOffsetsShowAsWritten() throws {
        let store = try HealthStore(path: path)
        func sample(_ minute: Int, device: String?, offset: String) -> Sample {
            var s = T.steps(
                "2024-01-02 08:\(minute < 10 ? "0" : "")\(minute):00 \(offset)", "2024-01-02 08:59:00 \(offset)", Double(minute))
            s.device = device
            return s
        }
        let watch = "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, software:10.2>"
        let r = try T.run(store, T.meta(sha: "d")) { s in
            s.sample(sample(1, device: "<<HKDevice: 0x282a45810>, " + watch, offset: "+0100"))
            s.sample(sample(2, device: "<<HKDevice: 0x99>, " + watch, offset: "-0930"))
            s.sample(sample(3, device: "<<HKDevice: 0x282a45811>, name:iPhone>", offset: "+0545"))
            s.sample(sample(4, device: "<<HKDevice: 0x77>, " + watch, offset: "+0000"))
            s.sample(sample(5, device: "Dummy device", offset: "+1400"))
            s.sample(sample(6, device: nil, offset: "-1200"))
        }
        XCTAssertEqual(r.rowsAdded["devices"], 3)
        XCTAssertEqual(
            try T.rows(path, "SELECT value, device, start_at, end_at FROM samples ORDER BY value"),
            [
                ["1.0", "<<HKDevice>, " + watch, "2024-01-02T08:01:00+01:00", "2024-01-02T08:59:00+01:00"],
                ["2.0", "<<HKDevice>, " + watch, "2024-01-02T08:02:00-09:30", "2024-01-02T08:59:00-09:30"],
                ["3.0", "<<HKDevice>, name:iPhone>", "2024-01-02T08:03:00+05:45", "2024-01-02T08:59:00+05:45"],
                ["4.0", "<<HKDevice>, " + watch, "2024-01-02T08:04:00+00:00", "2024-01-02T08:59:00+00:00"],
                ["5.0", "Dummy device", "2024-01-02T08:05:00+14:00", "2024-01-02T08:59:00+14:00"],
                ["6.0", "NULL", "2024-01-02T08:06:00-12:00", "2024-01-02T08:59:00-12:00"],
            ])
    }

    func testLongBeatListsAndManyMetadataEntriesAreAllWritten() throws {
        let store = try HealthStore(path: path)
        var hrv = Sample(
            type: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", source: "Watch", unit: "ms", value: 40,
            start: T.ts("2024-01-02 01:10:00 +0100"), end: T.ts("2024-01-02 01:11:00 +0100"))
        hrv.beats = (0..<70).map { InstantaneousBeat(bpm: Double(50 + $0), time: "00:20:\($0 < 10 ? "0" : "")\($0),00") }
        let r = try T.run(store, T.meta(sha: "beats")) { s in
            s.sample(hrv)
            for i in 0..<45 {
                var x = T.steps("2024-01-03 08:00:00 +0100", "2024-01-03 08:05:00 +0100", Double(i))
                x.metadata = [MetadataEntry(key: "k\(i)", value: "v\(i)")]
                if i == 44 { x.metadata.append(MetadataEntry(key: "k\(i)", value: "again")) }
                s.sample(x)
            }
        }
        XCTAssertEqual(r.rowsAdded["hrv_beats"], 70)
        // 45 samples with metadata, one object each (the 46 entries are inside them).
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_records WHERE metadata_json IS NOT NULL"), 45)
        // The last one keeps both entries of its repeated key, in order.
        XCTAssertEqual(
            try T.rows(path, "SELECT metadata FROM samples WHERE value = 44"), [[#"{"k44":"v44","k44":"again"}"#]])
        XCTAssertEqual(
            try T.rows(path, "SELECT count(*), min(position), max(position), sum(bpm), min(time), max(time) FROM hrv_beats"),
            [["70", "0", "69", String(Double((0..<70).map { 50 + $0 }.reduce(0, +))), "00:20:00,00", "00:20:69,00"]])
        XCTAssertEqual(
            try T.rows(
                path,
                "SELECT s.value, m.position, m.key, m.value FROM sample_metadata m JOIN samples s ON s.id = m.sample_id WHERE s.value >= 43 ORDER BY s.value, m.position"
            ),
            [
                ["43.0", "0", "k43", "v43"], ["44.0", "0", "k44", "v44"], ["44.0", "1", "k44", "again"],
            ])
        XCTAssertEqual(
            try T.count(
                path,
                "SELECT count(*) FROM sample_metadata m JOIN samples s ON s.id = m.sample_id WHERE m.key = 'k' || CAST(CAST(s.value AS INTEGER) AS TEXT)"
            ), 46)
    }

    // MARK: idempotency

    func testSameFileTwiceIsRefusedAsAlreadyImportedAndChangesNothing() throws {
        let store = try HealthStore(path: path)
        XCTAssertNil(try store.existingImport(person: "me", sha256: "aa"))
        let first = try T.run(store, T.meta(sha: "aa")) { s in
            s.sample(T.steps("2024-01-02 08:00:00 +0100", "2024-01-02 08:05:00 +0100", 100))
        }
        let found = try XCTUnwrap(try store.existingImport(person: "me", sha256: "AA"))
        XCTAssertEqual(found.id, first.importID)
        XCTAssertEqual(found.fileName, "export.xml")
        XCTAssertNotNil(found.finishedAt)
        XCTAssertNil(try store.existingImport(person: "bob", sha256: "aa"))
        XCTAssertThrowsError(try store.beginImport(T.meta(sha: "aa"))) { e in
            XCTAssertTrue("\(e)".contains("already imported"), "\(e)")
        }
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM imports"), 1)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM samples"), 1)
        // The store is still usable after the refusal.
        _ = try T.run(store, T.meta(sha: "bb")) { _ in }
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM imports"), 2)
    }

    func testLaterSupersetExportAddsExactlyTheNewRows() throws {
        let store = try HealthStore(path: path)
        let a = T.steps("2024-01-02 08:00:00 +0100", "2024-01-02 08:05:00 +0100", 100)
        let b = T.steps("2024-01-02 09:00:00 +0100", "2024-01-02 09:05:00 +0100", 200)
        var bWatch = b
        bWatch.source = "Ann’s Apple Watch"
        var w1 = Workout(
            activityType: "HKWorkoutActivityTypeWalking", source: "Watch", start: T.ts("2024-01-02 10:00:00 +0100"),
            end: T.ts("2024-01-02 10:30:00 +0100"))
        w1.statistics = [WorkoutStatistic(type: "HKQuantityTypeIdentifierStepCount", sum: 3000, unit: "count")]
        let first = try T.run(store, T.meta(sha: "first")) { s in
            s.sample(a)
            s.sample(a)  // an exact duplicate inside one file is stored once
            s.sample(b)
            s.sample(bWatch)  // same minutes, other source: a different sample
            s.workout(w1)
        }
        XCTAssertEqual(first.samplesRead, 4)
        XCTAssertEqual(first.samplesAdded, 3)
        XCTAssertEqual(first.rowsAdded["sample_records"], 3)

        let c = T.steps("2024-01-03 08:00:00 +0100", "2024-01-03 08:05:00 +0100", 300)
        var bChanged = b
        bChanged.value = 201
        bChanged.valueText = "201"
        bChanged.canonicalValue = 201
        // The same instants written with another offset are the same samples.
        var aOtherOffset = a
        aOtherOffset.start.offset = 0
        aOtherOffset.end.offset = 0
        let w2 = Workout(
            activityType: "HKWorkoutActivityTypeRunning", source: "Watch", start: T.ts("2024-01-03 10:00:00 +0100"),
            end: T.ts("2024-01-03 10:30:00 +0100"))
        let second = try T.run(store, T.meta(sha: "second")) { s in
            s.sample(aOtherOffset)
            s.sample(b)
            s.sample(bWatch)
            s.sample(c)
            s.sample(bChanged)
            s.workout(w1)
            s.workout(w2)
        }
        XCTAssertEqual(second.samplesRead, 5)
        XCTAssertEqual(second.samplesAdded, 2)
        XCTAssertEqual(second.rowsAdded["sample_records"], 2)
        XCTAssertEqual(second.rowsAdded["workouts"], 1)
        XCTAssertNil(second.rowsAdded["workout_statistics"], "the repeated workout's parts are not added again")
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM samples"), 5)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM workouts"), 2)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM workout_statistics"), 1)
        XCTAssertEqual(
            try T.rows(path, "SELECT value FROM samples WHERE import_id = \(second.importID) ORDER BY value"),
            [["201.0"], ["300.0"]])
        XCTAssertEqual(
            try T.rows(
                path, "SELECT record_type, records_read, records_added FROM import_record_counts WHERE import_id = \(second.importID)"),
            [["HKQuantityTypeIdentifierStepCount", "5", "2"]])
    }

    func testTwoPeopleNeverSeeEachOthersRows() throws {
        let store = try HealthStore(path: path)
        let a = T.steps("2024-01-02 08:00:00 +0100", "2024-01-02 08:05:00 +0100", 100)
        var day = FinishedDay(dayNumber: CivilDate.parseISODate("2024-01-02")!, timezone: "+01:00", deviceSyncTimestamp: "x")
        day.values[Catalog.metric(named: "step_count").index] = 100
        let ann = try T.run(store, T.meta(person: "ann", sha: "same"), days: [day]) { s in
            s.sample(a)
            s.me(Me(attributes: [MetadataEntry(key: "HKCharacteristicTypeIdentifierBloodType", value: "HKBloodTypeONegative")]))
        }
        // The same file for another person is a new import, and all its rows are new.
        XCTAssertNil(try store.existingImport(person: "bob", sha256: "same"))
        day.values[Catalog.metric(named: "step_count").index] = 999
        let bob = try T.run(store, T.meta(person: "bob", sha: "same"), days: [day]) { s in
            s.sample(a)
            s.me(Me(attributes: [MetadataEntry(key: "HKCharacteristicTypeIdentifierBloodType", value: "HKBloodTypeANegative")]))
        }
        XCTAssertEqual(ann.samplesAdded, 1)
        XCTAssertEqual(bob.samplesAdded, 1)
        XCTAssertEqual(
            try T.rows(path, "SELECT person, import_id FROM samples ORDER BY person"),
            [["ann", String(ann.importID)], ["bob", String(bob.importID)]])
        XCTAssertEqual(try T.rows(path, "SELECT person, step_count FROM daily ORDER BY person"), [["ann", "100"], ["bob", "999"]])
        XCTAssertEqual(
            try T.rows(path, "SELECT person, value FROM me ORDER BY person"),
            [["ann", "HKBloodTypeONegative"], ["bob", "HKBloodTypeANegative"]])
        XCTAssertEqual(try store.imports(person: "ann").map(\.id), [ann.importID])
        // Source names and devices name people: they are per person too.
        XCTAssertEqual(
            try T.rows(path, "SELECT person, name FROM sources ORDER BY person"), [["ann", "Ann’s iPhone"], ["bob", "Ann’s iPhone"]])
        XCTAssertEqual(
            try T.rows(path, "SELECT s.person, r.person FROM sample_records s JOIN sources r ON r.id = s.source_id ORDER BY 1"),
            [["ann", "ann"], ["bob", "bob"]])
    }

    func testDayValuesOfCoveredDatesAreReplacedWithTheImportRecorded() throws {
        let store = try HealthStore(path: path)
        func day(_ date: String, steps: Double?, weight: Double?) -> FinishedDay {
            var d = FinishedDay(dayNumber: CivilDate.parseISODate(date)!, timezone: "Europe/Paris", deviceSyncTimestamp: "x")
            d.values[Catalog.metric(named: "step_count").index] = steps
            d.values[Catalog.metric(named: "weight_kg").index] = weight
            return d
        }
        let first = try T.run(
            store, T.meta(sha: "1"), days: [day("2024-01-01", steps: 10, weight: 70.123456789), day("2024-01-02", steps: 20, weight: 71)]
        ) { _ in }
        let second = try T.run(
            store, T.meta(sha: "2"), days: [day("2024-01-02", steps: 25, weight: nil), day("2024-01-03", steps: 30, weight: nil)]
        ) { _ in }
        let i1 = String(first.importID), i2 = String(second.importID)
        XCTAssertEqual(
            try T.rows(
                path, "SELECT date, field, value, import_id FROM day_values WHERE field IN ('step_count', 'weight_kg') ORDER BY date, field"
            ),
            [
                ["2024-01-01", "step_count", "10.0", i1],
                ["2024-01-01", "weight_kg", "70.123456789", i1],
                ["2024-01-02", "step_count", "25.0", i2],  // replaced; the old weight of that date is gone with it
                ["2024-01-03", "step_count", "30.0", i2],
            ])
        XCTAssertEqual(
            try T.rows(path, "SELECT date, step_count, weight_kg, timezone FROM daily ORDER BY date"),
            [
                ["2024-01-01", "10", "70.123456789", "Europe/Paris"], ["2024-01-02", "25", "NULL", "Europe/Paris"],
                ["2024-01-03", "30", "NULL", "Europe/Paris"],
            ])
    }

    // MARK: schema

    func testDailyViewColumnsAreTheCSVColumnsWithPerson() throws {
        try HealthStore(path: path).publishIfNew()
        let columns = try T.rows(path, "SELECT name FROM pragma_table_info('daily') ORDER BY cid").map { $0[0] }
        XCTAssertEqual(columns, ["person"] + OutputFields.columns.compactMap(\.column))
        XCTAssertEqual(try T.count(path, "PRAGMA user_version"), StoreSchema.currentVersion)
    }

    func testReopeningKeepsDataAndSchema() throws {
        do {
            let store = try HealthStore(path: path)
            _ = try T.run(store, T.meta(sha: "x")) { $0.sample(T.steps("2024-01-02 08:00:00 +0100", "2024-01-02 08:05:00 +0100", 1)) }
        }
        let again = try HealthStore(path: path)
        XCTAssertEqual(try again.schemaVersion(), StoreSchema.currentVersion)
        XCTAssertNotNil(try again.existingImport(person: "me", sha256: "x"))
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM samples"), 1)
        XCTAssertEqual(try T.rows(path, "PRAGMA journal_mode"), [["wal"]])
    }

    func testAbandonedImportLeavesNothing() throws {
        let store = try HealthStore(path: path)
        try store.publishIfNew()  // an existing store: imports go through its WAL
        let session = try store.beginImport(T.meta(sha: "gone"))
        for i in 0..<5000 {
            session.sample(T.steps("2024-01-02 08:00:00 +0100", "2024-01-02 08:05:00 +0100", Double(i)))
        }
        session.abandon()
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM samples"), 0)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM imports"), 0)
        XCTAssertNil(try store.existingImport(person: "me", sha256: "gone"))
        // The next import works.
        let r = try T.run(store, T.meta(sha: "gone")) { $0.sample(T.steps("2024-01-02 08:00:00 +0100", "2024-01-02 08:05:00 +0100", 1)) }
        XCTAssertEqual(r.samplesAdded, 1)
    }

    func testASessionDroppedWithoutCompleteRollsBack() throws {
        let store = try HealthStore(path: path)
        try store.publishIfNew()  // an existing store: imports go through its WAL
        do {
            let session = try store.beginImport(T.meta(sha: "dropped"))
            for i in 0..<3000 { session.sample(T.steps("2024-01-02 08:00:00 +0100", "2024-01-02 08:05:00 +0100", Double(i))) }
        }
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM imports"), 0)
        let r = try T.run(store, T.meta(sha: "next")) { $0.sample(T.steps("2024-01-02 08:00:00 +0100", "2024-01-02 08:05:00 +0100", 1)) }
        XCTAssertEqual(r.samplesAdded, 1)
    }

    func testASecondWriterIsToldTheStoreIsBusy() throws {
        let store = try HealthStore(path: path)
        try store.publishIfNew()  // an existing store: imports go through its WAL
        let session = try store.beginImport(T.meta(sha: "one"))
        let other = try HealthStore(path: path)
        sqlite3BusyTimeout(other, 100)
        XCTAssertThrowsError(try other.beginImport(T.meta(sha: "two"))) { e in
            XCTAssertTrue("\(e)".contains("another process"), "\(e)")
        }
        // Readers are not blocked by the open import (WAL).
        XCTAssertNil(try other.existingImport(person: "me", sha256: "one"))
        _ = try session.complete(days: [], report: ReadReport())
        XCTAssertNotNil(try other.existingImport(person: "me", sha256: "one"))
    }

    func sqlite3BusyTimeout(_ store: HealthStore, _ ms: Int32) { store.setBusyTimeout(milliseconds: ms) }

    // MARK: refusing files

    func testNonSQLiteFileIsRefusedAndLeftUntouched() throws {
        var rng = SeededRandom(defaultSeed: 8192)
        let bytes = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &rng) })
        try bytes.write(to: URL(fileURLWithPath: path))
        chmod(path, 0o644)
        XCTAssertThrowsError(try HealthStore(path: path)) { e in
            XCTAssertTrue("\(e)".contains("not a SQLite database"), "\(e)")
            XCTAssertTrue("\(e)".contains(self.path), "\(e)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), bytes)
        XCTAssertEqual(try T.mode(path), 0o644)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path + "-wal"))

        // Text that merely looks like a file someone cares about.
        let textPath = dir.appendingPathComponent("notes.txt").path
        let text = Data(String(repeating: "my notes, not a database\n", count: 100).utf8)
        try text.write(to: URL(fileURLWithPath: textPath))
        XCTAssertThrowsError(try HealthStore(path: textPath))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: textPath)), text)
    }

    func testStoreOfANewerSchemaVersionIsRefusedAndLeftUntouched() throws {
        do {
            let store = try HealthStore(path: path)
            _ = try T.run(store, T.meta(sha: "x")) { $0.sample(T.steps("2024-01-02 08:00:00 +0100", "2024-01-02 08:05:00 +0100", 1)) }
            try store.db.execute("PRAGMA user_version = \(StoreSchema.currentVersion + 1); PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try HealthStore(path: path)) { e in
            XCTAssertTrue("\(e)".contains("newer"), "\(e)")
            XCTAssertTrue("\(e)".contains("schema version \(StoreSchema.currentVersion + 1)"), "\(e)")
        }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    func testForeignSQLiteDatabaseIsRefused() throws {
        do {
            let db = try SQLiteConnection(path: path)
            try db.execute("CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('keep me')")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try HealthStore(path: path)) { e in XCTAssertTrue("\(e)".contains("not a health-import store"), "\(e)") }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), before)
    }

    func testStoreFilesAre0600() throws {
        let old = umask(0o022)
        defer { umask(old) }
        let store = try HealthStore(path: path)
        // The first import creates the file; the second one writes through the WAL.
        for sha in ["m", "n"] {
            let session = try store.beginImport(T.meta(sha: sha))
            for i in 0..<3000 {
                session.sample(T.steps("2024-01-02 08:00:00 +0100", "2024-01-02 08:05:00 +0100", Double(i) + (sha == "n" ? 0.5 : 0)))
            }
            _ = try session.complete(days: [], report: ReadReport())
        }
        for suffix in ["", "-wal", "-shm"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: path + suffix), suffix)
            XCTAssertEqual(try T.mode(path + suffix), 0o600, "mode of \(path + suffix)")
        }
    }

    // MARK: digest

    func testFileDigestIsTheSHA256OfTheBytes() throws {
        let p = dir.appendingPathComponent("abc.txt").path
        try Data("abc".utf8).write(to: URL(fileURLWithPath: p))
        XCTAssertEqual(try FileDigest.sha256(path: p), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // Larger than one read chunk.
        let big = dir.appendingPathComponent("big.bin").path
        let bytes = [UInt8]((0..<(9 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try Data(bytes).write(to: URL(fileURLWithPath: big))
        XCTAssertEqual(try FileDigest.sha256(path: big), FileDigest.sha256(bytes: bytes))
        XCTAssertThrowsError(try FileDigest.sha256(path: dir.appendingPathComponent("missing").path))
    }
}
