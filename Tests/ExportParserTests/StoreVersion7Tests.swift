import Foundation
import XCTest

@testable import ExportParser

/// Schema version 7 (docs/store.md, "Schema versions"): `imports.day_options`, and the `daily`
/// view's counts as INTEGER (they were REAL: 24504.0); a version 6 store is brought forward when
/// opened, its imports without recorded options.
final class StoreVersion7Tests: XCTestCase {
    typealias T = StoreTestSupport

    /// 2024-03-02: steps 12,000 + 12,504 = 24,504; heart rates 60, 70, 80: count 3, avg
    /// (60 + 70 + 80) / 3 = 70 (a mean, not a count: REAL, 70.0).
    static let xml = export(
        """
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Ann’s iPhone" unit="count" startDate="2024-03-02 09:00:00 +0100" endDate="2024-03-02 10:00:00 +0100" value="12000"/>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Ann’s iPhone" unit="count" startDate="2024-03-02 11:00:00 +0100" endDate="2024-03-02 12:00:00 +0100" value="12504"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Ann’s iPhone" unit="count/min" startDate="2024-03-02 09:00:00 +0100" endDate="2024-03-02 09:00:00 +0100" value="60"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Ann’s iPhone" unit="count/min" startDate="2024-03-02 10:00:00 +0100" endDate="2024-03-02 10:00:00 +0100" value="70"/>
         <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Ann’s iPhone" unit="count/min" startDate="2024-03-02 11:00:00 +0100" endDate="2024-03-02 11:00:00 +0100" value="80"/>
        """)

    /// 2024-03-03 in HAE: 100.5 steps (HAE states fractions): a count whose value is no whole
    /// number stays REAL. 2024-03-04: 0.1 + 0.2 + 0.7 = 1 step, which binary floating point adds
    /// up to 0.9999999999999999 in some orders (0.7 + 0.2 + 0.1): shown as the INTEGER 1.
    static let hae = """
        {"data": {"metrics": [{"name": "step_count", "units": "count", "data": [{"date": "2024-03-03 00:00:00 +0100", "qty": 100.5},
          {"date": "2024-03-04 10:00:00 +0100", "qty": 0.1}, {"date": "2024-03-04 10:01:00 +0100", "qty": 0.2},
          {"date": "2024-03-04 10:02:00 +0100", "qty": 0.7}]}]}}
        """

    private func convert(_ dir: URL, zone: String = "Europe/Paris") throws -> String {
        let xml = dir.appendingPathComponent("export.xml"), hae = dir.appendingPathComponent("hae.json")
        try Data(Self.xml.utf8).write(to: xml)
        try Data(Self.hae.utf8).write(to: hae)
        let out = dir.appendingPathComponent("out").path
        _ = try ConvertJob(ConvertRequest(inputs: [xml.path, hae.path], outDir: out, timeZoneName: zone, storePath: out + "/h.sqlite"))
            .run()
        return out + "/h.sqlite"
    }

    func testTheDailyViewShowsCountsAsIntegers() throws {
        let store = try convert(try T.temporaryDirectory())
        XCTAssertEqual(
            try T.rows(
                store,
                """
                SELECT typeof(step_count), step_count, typeof(heart_rate_count), heart_rate_count,
                  typeof(heart_rate_avg), heart_rate_avg FROM daily WHERE date = '2024-03-02'
                """),
            [["integer", "24504", "integer", "3", "real", "70.0"]])
        XCTAssertEqual(
            try T.rows(store, "SELECT typeof(step_count), step_count FROM daily WHERE date = '2024-03-03'"), [["real", "100.5"]])
        XCTAssertEqual(
            try T.rows(store, "SELECT typeof(step_count), step_count FROM daily WHERE date = '2024-03-04'"), [["integer", "1"]])
        XCTAssertEqual(
            try T.rows(store, "SELECT day_options FROM imports ORDER BY id"),
            [["timezone=Europe/Paris; source-priority=default"], ["timezone=Europe/Paris; source-priority=default"]])
    }

    /// A version 6 store (made here from a new one: the column dropped, the view of version 6,
    /// `user_version` 6) is brought to version 7 when opened. Its imports have no options: the
    /// same file again with days equal to theirs is already imported; with another zone, whose
    /// days differ, it replaces its import.
    func testAVersion6StoreIsBroughtForward() throws {
        let dir = try T.temporaryDirectory()
        let store = try convert(dir)
        let db = try SQLiteConnection(path: store)
        try db.execute(
            """
            BEGIN;
            ALTER TABLE imports DROP COLUMN day_options;
            DROP VIEW daily;
            CREATE VIEW daily AS SELECT d.person AS person, d.date AS date, max(CASE WHEN d.field = 'step_count' THEN d.value END) AS step_count
              FROM day_values d GROUP BY d.person, d.date;
            PRAGMA user_version = 6;
            COMMIT;
            """)
        XCTAssertEqual(try T.rows(store, "SELECT typeof(step_count) FROM daily WHERE date = '2024-03-02'"), [["real"]])

        let opened = try HealthStore(path: store)
        XCTAssertEqual(try opened.schemaVersion(), StoreSchema.currentVersion)  // 7, and 8 (fleet_verdicts) since
        XCTAssertEqual(
            try T.rows(store, "SELECT typeof(step_count), step_count FROM daily WHERE date = '2024-03-02'"), [["integer", "24504"]])
        XCTAssertEqual(try T.rows(store, "SELECT count(*) FROM imports WHERE day_options IS NULL"), [["2"]])

        // The same zone: the same days as stored, so already imported; nothing recorded anew.
        let out = dir.appendingPathComponent("out").path
        let xml = dir.appendingPathComponent("export.xml").path
        let same = try ConvertJob(ConvertRequest(inputs: [xml], outDir: out, timeZoneName: "Europe/Paris", storePath: store)).run()
        XCTAssertEqual(same.inputs.map(\.alreadyImported), [true])
        XCTAssertEqual(try T.rows(store, "SELECT count(*) FROM imports WHERE day_options IS NULL"), [["2"]])

        // Another zone moves the 09:00–12:00 +01:00 steps nowhere (Berlin is Paris's zone), so
        // take Pacific/Kiritimati (+14:00): 09:00 +01:00 is 22:00 there, 11:00 +01:00 is 00:00 on
        // 03-03, so 03-02 has 12,000 steps and 03-03 12,504: other days, the import replaced.
        let other = try ConvertJob(ConvertRequest(inputs: [xml], outDir: out, timeZoneName: "Pacific/Kiritimati", storePath: store)).run()
        XCTAssertEqual(other.inputs.first?.replacedImport?.id, 1)
        XCTAssertNil(other.inputs.first?.replacedImport?.dayOptions)
        XCTAssertEqual(
            try T.rows(store, "SELECT date, step_count FROM daily WHERE date IN ('2024-03-02', '2024-03-03') ORDER BY date"),
            [["2024-03-02", "12000"], ["2024-03-03", "12504"]])
    }
}
