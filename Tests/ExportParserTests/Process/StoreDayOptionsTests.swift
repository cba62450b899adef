import Foundation
import XCTest

@testable import ExportParser

/// The same export converted again with another `--timezone` is refused with a
/// sentence, and `daily`, `day_values` and `day_payloads` keep agreeing.
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

    func testTheSameExportWithAnotherTimeZoneIsRefusedAndTheStoreAgreesWithItself() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 200 records a minute from 2024-01-01 00:00 +0100 (= 2023-12-31 23:00 UTC); the even
        // ones (i = 0, 2, …, 198) are steps of i % 120 + 1.
        try StoreKillTests.exportXML(records: 200).write(to: dir.appendingPathComponent("export.xml"), atomically: true, encoding: .utf8)
        let store = dir.appendingPathComponent("out/health.sqlite").path

        let utc = try ToolRun.run(["convert", "export.xml", "--out", "out", "--timezone", "Atlantic/Reykjavik"], in: dir)
        XCTAssertEqual(utc.status, 0, utc.printed)
        // Reykjavik keeps UTC (+00:00) all year. In UTC, minutes 0…59 are on 2023-12-31: steps 1 + 3 + … + 59 (30 odd numbers) = 30² = 900.
        // Minutes 60…199 on 2024-01-01: i = 60…118 gives 61 + 63 + … + 119 = 30 × (61 + 119) / 2
        // = 2,700; i = 120…198 gives 1 + 3 + … + 79 = 40² = 1,600; 2,700 + 1,600 = 4,300.
        XCTAssertEqual(try steps(store, "2023-12-31").daily, 900)
        XCTAssertEqual(try steps(store, "2024-01-01").daily, 4300)
        XCTAssertEqual(try steps(store, "2024-01-01").payload, 4300)
        let before = try ToolRun.snapshot(dir.appendingPathComponent("out"))

        // In Sydney (+11:00) all 200 minutes are on 2024-01-01 (900 + 4,300 = 5,200): other days
        // of a file the store holds. Refused; nothing changes.
        let sydney = try ToolRun.run(["convert", "export.xml", "--out", "out", "--timezone", "Australia/Sydney"], in: dir)
        XCTAssertEqual(sydney.status, 1, sydney.printed)
        XCTAssertTrue(sydney.stderr.contains("export.xml was already imported for me"), sydney.stderr)
        XCTAssertTrue(sydney.stderr.contains("there: Atlantic/Reykjavik; this run: Australia/Sydney"), sydney.stderr)
        ToolRun.assertUnchanged(before, try ToolRun.snapshot(dir.appendingPathComponent("out")), "convert --timezone Australia/Sydney")
        XCTAssertEqual(try steps(store, "2024-01-01").payload, 4300)

        // The same options again: already imported, the store as it was, and the payloads agree.
        let again = try ToolRun.run(["convert", "export.xml", "--out", "out", "--timezone", "Atlantic/Reykjavik"], in: dir)
        XCTAssertEqual(again.status, 0, again.printed)
        for date in ["2023-12-31", "2024-01-01"] {
            let s = try steps(store, date)
            XCTAssertEqual(s.daily, s.payload, date)
        }
        XCTAssertEqual(try steps(store, "2024-01-01").daily, 4300)
    }
}
