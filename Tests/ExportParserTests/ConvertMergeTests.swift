import Foundation
import XCTest

@testable import ExportParser

/// `convert` given native and HAE inputs: native wins and HAE fills, whatever the order on the
/// command line; a workout on both sides once (the native one); daily.csv's `hae_filled` and the
/// store's provenance say where each value came from.
final class ConvertMergeTests: XCTestCase {
    typealias T = StoreTestSupport

    /// Native 03-02: 1,000 steps, a run 07:00–07:30 (300 kcal); no sleep, no resting heart rate.
    static let xml = export(
        """
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Anna’s Apple Watch" unit="count" startDate="2024-03-02 09:00:00 +1100" endDate="2024-03-02 10:00:00 +1100" value="1000"/>
         <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Anna’s Apple Watch" startDate="2024-03-02 07:00:00 +1100" endDate="2024-03-02 07:30:00 +1100">
          <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" sum="300" unit="kcal"/>
         </Workout>
        """, exportDate: "2024-03-05 08:00:00 +1100")

    /// HAE 03-02: 900 steps (native's 1,000 win), resting heart rate 50 (fills), a night of 7 h
    /// core (fills: total, core, in-bed start and end, source), the same run a minute later with
    /// 280 kcal (matches: the native one is kept) and a yoga session at 18:00 (HAE only: added).
    /// HAE 03-03: 5,000 steps, a date native does not cover (HAE's whole; nothing "filled").
    static let hae = """
        {"data": {"metrics": [
          {"name": "step_count", "units": "count", "data": [{"date": "2024-03-02 00:00:00 +1100", "qty": 900}, {"date": "2024-03-03 00:00:00 +1100", "qty": 5000}]},
          {"name": "resting_heart_rate", "units": "count/min", "data": [{"date": "2024-03-02 00:00:00 +1100", "qty": 50}]},
          {"name": "sleep_analysis", "units": "hr", "data": [{"date": "2024-03-02 00:00:00 +1100", "totalSleep": 7, "core": 7, "deep": 0, "rem": 0,
            "awake": 0, "asleep": 0, "inBed": 0, "sleepStart": "2024-03-01 23:00:00 +1100", "sleepEnd": "2024-03-02 06:00:00 +1100",
            "inBedStart": "2024-03-01 23:00:00 +1100", "inBedEnd": "2024-03-02 06:00:00 +1100", "source": "Anna’s Apple Watch"}]}],
         "workouts": [
          {"id": "R", "name": "Outdoor Run", "start": "2024-03-02 07:01:00 +1100", "end": "2024-03-02 07:31:00 +1100", "duration": 1800,
           "activeEnergyBurned": {"qty": 280, "units": "kcal"}},
          {"id": "Y", "name": "Yoga", "start": "2024-03-02 18:00:00 +1100", "end": "2024-03-02 18:45:00 +1100", "duration": 2700}]}}
        """

    func testNativeWinsAndHAEFillsInEitherOrder() throws {
        let dir = try T.temporaryDirectory()
        let native = dir.appendingPathComponent("export.xml"), haeFile = dir.appendingPathComponent("hae.json")
        try Data(Self.xml.utf8).write(to: native)
        try Data(Self.hae.utf8).write(to: haeFile)
        var csvs: [String] = []
        for (n, order) in [[haeFile.path, native.path], [native.path, haeFile.path]].enumerated() {
            let out = dir.appendingPathComponent("out\(n)").path
            let store = out + "/health.sqlite"
            _ = try ConvertJob(ConvertRequest(inputs: order, outDir: out, timeZoneName: "Australia/Sydney", storePath: store)).run()
            let day = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/payloads/2024-03-02.json")))
                    as? [String: Any])
            let metrics = try XCTUnwrap(day["metrics"] as? [String: Any])
            XCTAssertEqual(metrics["step_count"] as? Int, 1000, "native wins")
            XCTAssertEqual(metrics["resting_hr"] as? Int, 50, "HAE fills")
            XCTAssertEqual((day["sleep"] as? [String: Any])?["total_hours"] as? Int, 7, "HAE fills")
            let workouts = try XCTUnwrap(day["workouts"] as? [[String: Any]])
            XCTAssertEqual(workouts.map { $0["type"] as? String }, ["Running", "Yoga"])
            XCTAssertEqual(workouts.first?["energy_kcal"] as? Int, 300, "the native run is kept")
            let csv = try String(contentsOfFile: out + "/daily.csv", encoding: .utf8)
            csvs.append(csv)
            // hae_filled: resting_hr, the five sleep columns with a value, and workouts_count (a
            // yoga session added); 03-03 is HAE's whole date: empty.
            let lines = csv.components(separatedBy: "\r\n")
            XCTAssertTrue(lines[1].hasPrefix("2024-03-02,"))
            XCTAssertTrue(
                lines[1].hasSuffix(
                    ",2,resting_hr;sleep_total_hours;sleep_core_hours;sleep_in_bed_start;sleep_in_bed_end;sleep_source;workouts_count"),
                lines[1])
            XCTAssertTrue(lines[2].hasPrefix("2024-03-03,") && lines[2].hasSuffix(",0,"), lines[2])
            // The store: every value with the import that gave it; the view lists HAE's by name.
            let rows = try T.rows(
                store,
                """
                SELECT d.field, i.format FROM day_values d JOIN imports i ON i.id = d.import_id
                WHERE d.date = '2024-03-02' AND d.field IN ('step_count', 'resting_hr', 'sleep_total_hours') ORDER BY d.field
                """)
            XCTAssertEqual(rows, [["resting_hr", "hae"], ["sleep_total_hours", "hae"], ["step_count", "apple-xml"]])
            XCTAssertEqual(
                try T.rows(store, "SELECT step_count, hae_filled FROM daily WHERE date = '2024-03-02'"),
                [["1000", "resting_hr;sleep_core_hours;sleep_in_bed_end;sleep_in_bed_start;sleep_source;sleep_total_hours"]])
            XCTAssertEqual(try T.rows(store, "SELECT step_count, hae_filled FROM daily WHERE date = '2024-03-03'"), [["5000", "NULL"]])
        }
        XCTAssertEqual(csvs[0], csvs[1], "the order on the command line changes nothing")
    }

    /// A night is one unit in the store as in the payload: native's night of 7 h in bed (a total
    /// and no stages) is not given HAE's stages beside it.
    func testTheStoreKeepsANightWhole() throws {
        let dir = try T.temporaryDirectory()
        let native = dir.appendingPathComponent("export.xml"), haeFile = dir.appendingPathComponent("hae.json")
        // Native: an iPhone InBed 23:00–06:00 only → total 7 h, in bed 23:00–06:00, no stages.
        try Data(
            export(
                """
                 <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Anna’s iPhone" startDate="2024-03-01 23:00:00 +1100" endDate="2024-03-02 06:00:00 +1100" value="HKCategoryValueSleepAnalysisInBed"/>
                """, exportDate: "2024-03-05 08:00:00 +1100"
            ).utf8
        ).write(to: native)
        // HAE: the same night as 4.5 h core + 1 h deep + 1 h REM = 6.5 h.
        try Data(
            """
            {"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": [{"date": "2024-03-02 00:00:00 +1100", "totalSleep": 6.5,
              "core": 4.5, "deep": 1, "rem": 1, "awake": 0, "asleep": 0, "inBed": 0, "sleepStart": "2024-03-01 23:00:00 +1100",
              "sleepEnd": "2024-03-02 06:00:00 +1100", "source": "Anna’s Apple Watch"}]}]}}
            """.utf8
        ).write(to: haeFile)
        let out = dir.appendingPathComponent("out").path, store = out + "/health.sqlite"
        _ = try ConvertJob(
            ConvertRequest(inputs: [haeFile.path, native.path], outDir: out, timeZoneName: "Australia/Sydney", storePath: store)
        ).run()
        let day = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/payloads/2024-03-02.json"))) as? [String: Any])
        XCTAssertEqual((day["sleep"] as? [String: Any])?["total_hours"] as? Int, 7)
        XCTAssertNil((day["sleep"] as? [String: Any])?["core_hours"])
        XCTAssertEqual(
            try T.rows(store, "SELECT sleep_total_hours, sleep_core_hours, sleep_source, hae_filled FROM daily WHERE date = '2024-03-02'"),
            [["7.0", "NULL", "Anna’s iPhone", "NULL"]])
    }
}
