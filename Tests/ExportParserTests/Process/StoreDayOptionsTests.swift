import Foundation
import XCTest

@testable import ExportParser

/// The same export converted again with another `--timezone` replaces its import in the store
/// (docs/store.md, "Rules"): its rows, days and payloads, in one transaction, and the outputs are
/// written; only the same file with the same options is "already imported". Before, the run
/// was refused ("already imported … erase me and convert again") and wrote nothing to `--out`,
/// though the tool's own advice was to give `--timezone`.
final class StoreDayOptionsTests: XCTestCase {
    /// Steps of `date` in the store's `daily` view and in the payload `day_payloads` holds.
    private func steps(_ store: String, _ date: String) throws -> (daily: Double?, payload: Double?) {
        let db = try SQLiteConnection(path: store, readOnly: true)
        let d = try db.prepare("SELECT step_count FROM daily WHERE person = 'me' AND date = ?1")
        d.bind(1, date)
        let daily = try d.step() ? d.double(0) : nil
        let p = try db.prepare("SELECT payload_json FROM day_payloads WHERE person = 'me' AND date = ?1")
        p.bind(1, date)
        var payload: Double?
        if try p.step(), let json = p.text(0),
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let metrics = object["metrics"] as? [String: Any]
        {
            payload = (metrics["step_count"] as? NSNumber)?.doubleValue
        }
        return (daily, payload)
    }

    private func rows(_ store: String, _ sql: String) throws -> [[String]] { try StoreTestSupport.rows(store, sql) }

    func testTheSameExportWithAnotherTimeZoneReplacesItsImport() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 200 records a minute from 2024-01-01 00:00 +0100 (= 2023-12-31 23:00 UTC); the even
        // ones (i = 0, 2, …, 198) are steps of i % 120 + 1, the odd ones heart rates.
        try StoreKillTests.exportXML(records: 200).write(to: dir.appendingPathComponent("export.xml"), atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let store = out.appendingPathComponent("health.sqlite").path

        let utc = try ToolRun.run(["convert", "export.xml", "--out", "out", "--timezone", "Atlantic/Reykjavik"], in: dir)
        XCTAssertEqual(utc.status, 0, utc.printed)
        // Reykjavik keeps UTC (+00:00) all year. In UTC, minutes 0…59 are on 2023-12-31: steps 1 + 3 + … + 59 (30 odd numbers) = 30² = 900.
        // Minutes 60…199 on 2024-01-01: i = 60…118 gives 61 + 63 + … + 119 = 30 × (61 + 119) / 2
        // = 2,700; i = 120…198 gives 1 + 3 + … + 79 = 40² = 1,600; 2,700 + 1,600 = 4,300.
        XCTAssertEqual(try steps(store, "2023-12-31").daily, 900)
        XCTAssertEqual(try steps(store, "2024-01-01").daily, 4300)
        XCTAssertEqual(try steps(store, "2024-01-01").payload, 4300)
        XCTAssertEqual(try rows(store, "SELECT count(*) FROM sample_records"), [["200"]])

        // In Sydney (+11:00) all 200 minutes are on 2024-01-01 (900 + 4,300 = 5,200). The run
        // replaces the import: exit 0, the outputs written, one import holding the 200 records
        // (100 steps + 100 heart rates), and 2023-12-31 gone from the days and the payloads.
        let sydney = try ToolRun.run(["convert", "export.xml", "--out", "out", "--timezone", "Australia/Sydney"], in: dir)
        XCTAssertEqual(sydney.status, 0, sydney.printed)
        XCTAssertTrue(
            sydney.printed.contains(
                "export.xml: replaced its earlier import in the store (import 1, made with timezone=Atlantic/Reykjavik; source-priority=default)"
            ), sydney.printed)
        XCTAssertEqual(try steps(store, "2024-01-01").daily, 5200)
        XCTAssertEqual(try steps(store, "2024-01-01").payload, 5200)
        XCTAssertNil(try steps(store, "2023-12-31").daily)
        XCTAssertNil(try steps(store, "2023-12-31").payload)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("payloads").path).sorted(), ["2024-01-01.json"])
        let payload = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("payloads/2024-01-01.json"))) as? [String: Any])
        XCTAssertEqual((payload["metrics"] as? [String: Any])?["step_count"] as? Int, 5200)
        XCTAssertEqual(
            try rows(store, "SELECT id, day_options FROM imports"), [["2", "timezone=Australia/Sydney; source-priority=default"]])
        XCTAssertEqual(try rows(store, "SELECT import_id, count(*) FROM sample_records GROUP BY import_id"), [["2", "200"]])
        XCTAssertEqual(try rows(store, "SELECT DISTINCT import_id FROM day_values"), [["2"]])
        // What the first import added (100 step records) is the new import's.
        XCTAssertEqual(
            try rows(
                store, "SELECT import_id, records_added FROM import_record_counts WHERE record_type = 'HKQuantityTypeIdentifierStepCount'"),
            [["2", "100"]])

        // Back to Reykjavik: replaced again, 900 and 4,300 as first.
        let back = try ToolRun.run(["convert", "export.xml", "--out", "out", "--timezone", "Atlantic/Reykjavik"], in: dir)
        XCTAssertEqual(back.status, 0, back.printed)
        XCTAssertEqual(try steps(store, "2023-12-31").daily, 900)
        XCTAssertEqual(try steps(store, "2024-01-01").daily, 4300)
        XCTAssertEqual(try steps(store, "2023-12-31").payload, 900)
        XCTAssertEqual(try rows(store, "SELECT id FROM imports"), [["3"]])
        // `day_payloads.written_at` is each run's own time: the payloads are compared below.
        let before = try ToolRun.storeRows(store, except: ["day_payloads"])

        // The same file and options again: already imported, the store as it was, the payloads agree.
        let again = try ToolRun.run(["convert", "export.xml", "--out", "out", "--timezone", "Atlantic/Reykjavik"], in: dir)
        XCTAssertEqual(again.status, 0, again.printed)
        XCTAssertTrue(again.printed.contains("already imported for this person (same sha256 and options)"), again.printed)
        XCTAssertEqual(try ToolRun.storeRows(store, except: ["day_payloads"]), before)
        for date in ["2023-12-31", "2024-01-01"] {
            let s = try steps(store, date)
            XCTAssertEqual(s.daily, s.payload, date)
        }
    }

    /// The replacement is part of the run's one transaction: when a later input of the run
    /// fails, the earlier import stays as it was and nothing under `--out` changes.
    func testAReplacementInARunThatFailsChangesNothing() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try StoreKillTests.exportXML(records: 200).write(to: dir.appendingPathComponent("export.xml"), atomically: true, encoding: .utf8)
        // An export cut in the middle of a record: the run's second input fails.
        let whole = StoreKillTests.exportXML(records: 10)
        try String(whole.prefix(whole.count / 2)).write(to: dir.appendingPathComponent("cut.xml"), atomically: true, encoding: .utf8)
        let store = dir.appendingPathComponent("out/health.sqlite").path
        let first = try ToolRun.run(["convert", "export.xml", "--out", "out", "--timezone", "Atlantic/Reykjavik"], in: dir)
        XCTAssertEqual(first.status, 0, first.printed)
        let stored = try ToolRun.storeRows(store)
        let files = try ToolRun.snapshot(dir.appendingPathComponent("out"))

        let failed = try ToolRun.run(["convert", "export.xml", "cut.xml", "--out", "out", "--timezone", "Australia/Sydney"], in: dir)
        XCTAssertEqual(failed.status, 1, failed.printed)
        XCTAssertTrue(failed.stderr.contains("cut.xml"), failed.stderr)
        XCTAssertEqual(try ToolRun.storeRows(store), stored)
        ToolRun.assertUnchanged(files, try ToolRun.snapshot(dir.appendingPathComponent("out")), "a failed run")
        // Still Reykjavik's days: 900 and 4,300 (worked out above).
        XCTAssertEqual(try steps(store, "2023-12-31").daily, 900)
        XCTAssertEqual(
            try rows(store, "SELECT id, day_options FROM imports"), [["1", "timezone=Atlantic/Reykjavik; source-priority=default"]])
    }
}
