import Foundation
import XCTest

@testable import ExportParser

/// The field table (`OutputFields`) against the project's schema, and the writers derived from
/// it against hand-written text.
final class OutputFieldTests: XCTestCase {
    /// The leaf paths of the payload schema: an object's members, recursively; `workouts` is one
    /// field (its items are per-workout figures, not per-day fields).
    private func schemaPaths() throws -> Set<String> {
        let url = TestPaths.repoRoot.appendingPathComponent("docs/payload.schema.json")
        let schema = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var paths = Set<String>()
        func walk(_ node: [String: Any], _ prefix: String) {
            guard let properties = node["properties"] as? [String: Any] else {
                paths.insert(prefix)
                return
            }
            for (key, value) in properties {
                walk(value as? [String: Any] ?? [:], prefix.isEmpty ? key : prefix + "." + key)
            }
        }
        walk(schema, "")
        return paths
    }

    func testEverySchemaFieldHasARowAndEveryRowIsInTheSchema() throws {
        let schema = try schemaPaths()
        XCTAssertTrue(schema.contains("metrics.heart_rate_samples.count"), "the walk reached nested objects")
        let table = OutputFields.all.compactMap(\.payloadPath)
        XCTAssertEqual(Set(table).subtracting(schema), [], "rows whose payload path the schema lacks")
        XCTAssertEqual(schema.subtracting(table), [], "schema fields without a row")
        XCTAssertEqual(table.count, Set(table).count)
    }

    func testCSVHeaderIsTheTableColumnsInOrder() {
        XCTAssertEqual(CSVWriter.header, OutputFields.all.compactMap(\.column).joined(separator: ",") + "\r\n")
        // The order users' spreadsheets rely on, written out.
        XCTAssertEqual(
            CSVWriter.header,
            """
            date,timezone,hrv,resting_hr,heart_rate_avg,heart_rate_min,heart_rate_max,heart_rate_count,cardio_recovery_bpm,\
            vo2max,apple_sleeping_wrist_temperature,respiratory_rate,blood_oxygen_saturation,step_count,distance_km,\
            active_calories,basal_calories,exercise_min,flights_climbed,daylight_min,running_speed_kmh,running_power_w,\
            running_stride_m,running_oscillation_cm,running_ground_contact_time,protein_g,carbs_g,total_fat,fiber_g,\
            dietary_energy_kj,sugar_g,potassium_mg,cholesterol,alcohol_drinks,weight_kg,body_fat_pct,lean_body_mass,\
            walking_speed_kmh,sleep_total_hours,sleep_core_hours,sleep_deep_hours,sleep_rem_hours,sleep_awake_hours,\
            sleep_in_bed_start,sleep_in_bed_end,sleep_source,workouts_count,hae_filled\r\n
            """)
    }

    func testStoreDailyViewHasOneColumnPerRow() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("health.sqlite").path
        try HealthStore(path: path).publishIfNew()
        let columns = try StoreTestSupport.rows(path, "SELECT name FROM pragma_table_info('daily') ORDER BY cid").map { $0[0] }
        XCTAssertEqual(columns, ["person"] + OutputFields.all.compactMap(\.column))
        // Every column the view has is kept in the long form, so the view can show it; but
        // `hae_filled`, which the view derives from the provenance of the others.
        for f in OutputFields.columns where f.column != "hae_filled" { XCTAssertEqual(f.storeName, f.column, f.name) }
    }

    func testCatalogMetricsGiveTheirRowsWithTheirRuleAndRounding() {
        for m in Catalog.metrics where m.rule != .minMaxAvg {
            let rows = OutputFields.all.filter { $0.payloadPath == m.section.rawValue + "." + m.field }
            XCTAssertEqual(rows.count, 1, m.field)
            XCTAssertEqual(rows.first?.kind, OutputField.Kind(m.rule), m.field)
            XCTAssertEqual(rows.first?.unit, m.unit.rawValue, m.field)
            XCTAssertEqual(rows.first?.decimals, m.decimals, m.field)
        }
        let hr = OutputFields.all.filter { $0.payloadPath?.hasPrefix("metrics.heart_rate_samples.") == true }
        XCTAssertEqual(hr.map(\.column), ["heart_rate_avg", "heart_rate_min", "heart_rate_max", "heart_rate_count"])
        XCTAssertEqual(hr.map(\.kind), [.avg, .min, .max, .count])
        XCTAssertEqual(hr.map(\.unit), ["count/min", "count/min", "count/min", "count"])
    }

    /// A second `minmaxavg` metric needs no rows of its own: its four fields come from its
    /// catalog row's section, field, unit and decimals, read from its own slot of the day.
    func testASecondMinMaxAvgMetricIsOneRow() {
        let rows = OutputFields.minMaxAvgFields(
            section: .metrics, field: "walking_heart_rate_samples", index: 0, unit: .countPerMinute, decimals: 1)
        XCTAssertEqual(
            rows.map(\.payloadPath),
            [
                "metrics.walking_heart_rate_samples.avg", "metrics.walking_heart_rate_samples.min",
                "metrics.walking_heart_rate_samples.max", "metrics.walking_heart_rate_samples.count",
            ])
        XCTAssertEqual(
            rows.map(\.column), ["walking_heart_rate_avg", "walking_heart_rate_min", "walking_heart_rate_max", "walking_heart_rate_count"])
        XCTAssertEqual(rows.map(\.decimals), [1, 1, 1, 0])
        var day = FinishedDay(dayNumber: 0, timezone: "UTC", deviceSyncTimestamp: "x")
        day.summaries[0] = MinMaxAvgSummary(average: 90.25, minimum: 80, maximum: 110, count: 4)
        XCTAssertEqual(rows.map { $0.read(day) }, [.number(90.25), .number(80), .number(110), .number(4)])
        XCTAssertNil(rows[0].read(FinishedDay(dayNumber: 0, timezone: "UTC", deviceSyncTimestamp: "x")))
    }

    /// Every row reads the kind of value its kind says (a text field never reads a number).
    func testEveryRowReadsTheValueItsKindSays() {
        let day = Self.fullDay()
        for f in OutputFields.all {
            guard let v = f.read(day) else { XCTFail("\(f.name) has no value on a full day"); continue }
            switch v {
            case .text: XCTAssertTrue(f.kind.isText, f.name)
            case .number: XCTAssertFalse(f.kind.isText, f.name)
            case .workouts: XCTAssertEqual(f.kind, .workoutsCount, f.name)
            }
        }
    }

    // MARK: the writers on a hand-made day

    /// A day with a value in some fields of every section; a sleep source with a comma and
    /// quotes (CSV quoting, JSON escaping); values that need rounding.
    static func handMadeDay() -> FinishedDay {
        var day = FinishedDay(
            dayNumber: CivilDate.parseISODate("2026-03-22")!, timezone: "Australia/Sydney",
            deviceSyncTimestamp: "2026-03-23T21:40:00+11:00")
        func set(_ field: String, _ v: Double) { day.values[Catalog.metric(named: field).index] = v }
        set("hrv", 39.4)
        set("resting_hr", 54)
        set("vo2max", 44.06)
        set("apple_sleeping_wrist_temperature", 36.257)
        set("step_count", 8375)
        set("distance_km", 8.4149)
        set("running_speed_kmh", 10.4849)
        set("running_power_w", 280.4)
        day.heartRate = MinMaxAvgSummary(average: 100.4, minimum: 59, maximum: 171, count: 6)
        var sleep = SleepResult(totalHours: 7.2049)
        sleep.coreHours = 4.8
        sleep.remHours = 1.5
        sleep.inBedStart = "2026-03-21T22:15:00+11:00"
        sleep.source = "Anna’s Apple Watch, \"2\""
        day.sleep = sleep
        day.workouts = [
            WorkoutSummary(
                type: "Running", start: "2026-03-22T07:00:00+11:00", end: "2026-03-22T07:42:30+11:00",
                durationSeconds: 2475.4, energyKcal: 433.2, averageHeartRate: 154, maximumHeartRate: nil,
                distanceMetres: 7120.3, source: "Anna’s Apple Watch", startSeconds: 0)
        ]
        return day
    }

    /// A value in every field.
    static func fullDay() -> FinishedDay {
        var day = handMadeDay()
        for m in Catalog.metrics where m.rule != .minMaxAvg { day.values[m.index] = day.values[m.index] ?? 1 }
        day.sleep?.deepHours = 0.9
        day.sleep?.awakeHours = 0.3
        day.sleep?.inBedEnd = "2026-03-22T05:45:00+11:00"
        day.haeFilled = ["sleep_deep_hours"]
        return day
    }

    func testHandMadeDayWritesTheExpectedPayload() {
        XCTAssertEqual(
            PayloadEncoder.payload(Self.handMadeDay()).render(),
            """
            {
              "date": "2026-03-22",
              "timezone": "Australia/Sydney",
              "device_sync_timestamp": "2026-03-23T21:40:00+11:00",
              "metrics": {
                "hrv": 39,
                "resting_hr": 54,
                "heart_rate_samples": {
                  "avg": 100,
                  "min": 59,
                  "max": 171,
                  "count": 6
                },
                "vo2max": 44.1,
                "apple_sleeping_wrist_temperature": 36.26,
                "step_count": 8375,
                "distance_km": 8.41
              },
              "sleep": {
                "total_hours": 7.2,
                "core_hours": 4.8,
                "rem_hours": 1.5,
                "in_bed_start": "2026-03-21T22:15:00+11:00",
                "source": "Anna’s Apple Watch, \\"2\\""
              },
              "workouts": [
                {
                  "type": "Running",
                  "start": "2026-03-22T07:00:00+11:00",
                  "end": "2026-03-22T07:42:30+11:00",
                  "duration_seconds": 2475,
                  "energy_kcal": 433,
                  "avg_heart_rate": 154,
                  "max_heart_rate": null,
                  "distance_m": 7120,
                  "source": "Anna’s Apple Watch"
                }
              ],
              "running_mechanics": {
                "running_speed_kmh": 10.48,
                "running_power_w": 280
              }
            }
            """)
    }

    func testHandMadeDayWritesTheExpectedCSVLine() {
        XCTAssertEqual(
            CSVWriter.row(Self.handMadeDay()),
            "2026-03-22,Australia/Sydney,39,54,100,59,171,6,,44.1,36.26,,,8375,8.41,,,,,,10.48,280,,,,,,,,,,,,,,,,,"
                + "7.2,4.8,,1.5,,2026-03-21T22:15:00+11:00,,\"Anna’s Apple Watch, \"\"2\"\"\",1,\r\n")
    }

    /// Heart rate from HAE buckets has no count; no sleep, no workouts, no run.
    func testBucketDayWithoutSleepOrWorkoutsLeavesThemOut() {
        var day = FinishedDay(
            dayNumber: CivilDate.parseISODate("2026-03-23")!, timezone: "+11:00", deviceSyncTimestamp: "2026-03-23T21:40:00+11:00")
        day.heartRate = MinMaxAvgSummary(average: 72.5, minimum: 45, maximum: 165, count: nil)
        XCTAssertEqual(
            PayloadEncoder.payload(day).render(indent: nil),
            """
            {"date":"2026-03-23","timezone":"+11:00","device_sync_timestamp":"2026-03-23T21:40:00+11:00",\
            "metrics":{"heart_rate_samples":{"avg":73,"min":45,"max":165}},"workouts":[]}
            """)
        XCTAssertEqual(CSVWriter.row(day), "2026-03-23,+11:00,,,73,45,165" + String(repeating: ",", count: 40) + "0,\r\n")
        let empty = FinishedDay(
            dayNumber: CivilDate.parseISODate("2026-03-24")!, timezone: "UTC", deviceSyncTimestamp: "2026-03-24T00:00:00+00:00")
        XCTAssertEqual(
            PayloadEncoder.payload(empty).render(indent: nil),
            """
            {"date":"2026-03-24","timezone":"UTC","device_sync_timestamp":"2026-03-24T00:00:00+00:00","metrics":{},"workouts":[]}
            """)
    }

    func testHandMadeDayLongFormHasEveryValueAtFullPrecision() {
        typealias F = FinishedDay.Field
        XCTAssertEqual(
            Self.handMadeDay().fields,
            [
                F(name: "timezone", text: "Australia/Sydney"),
                F(name: "hrv", value: 39.4, unit: "ms"),
                F(name: "resting_hr", value: 54, unit: "count/min"),
                F(name: "heart_rate_avg", value: 100.4, unit: "count/min"),
                F(name: "heart_rate_min", value: 59, unit: "count/min"),
                F(name: "heart_rate_max", value: 171, unit: "count/min"),
                F(name: "heart_rate_count", value: 6, unit: "count"),
                F(name: "vo2max", value: 44.06, unit: "mL/min·kg"),
                F(name: "apple_sleeping_wrist_temperature", value: 36.257, unit: "degC"),
                F(name: "step_count", value: 8375, unit: "count"),
                F(name: "distance_km", value: 8.4149, unit: "km"),
                F(name: "running_speed_kmh", value: 10.4849, unit: "km/hr"),
                F(name: "running_power_w", value: 280.4, unit: "W"),
                F(name: "sleep_total_hours", value: 7.2049, unit: "hr"),
                F(name: "sleep_core_hours", value: 4.8, unit: "hr"),
                F(name: "sleep_rem_hours", value: 1.5, unit: "hr"),
                F(name: "sleep_in_bed_start", text: "2026-03-21T22:15:00+11:00"),
                F(name: "sleep_source", text: "Anna’s Apple Watch, \"2\""),
                F(name: "workouts_count", value: 1, unit: "count"),
            ])
    }
}
