import Foundation
import XCTest

@testable import ExportParser

/// Clear answers to wrong input: each answer as the built tool prints it.
final class ClearAnswersTests: XCTestCase {
    func testAMisspelledCommandNamesTheNearestOne() throws {
        let r = try ToolRun.run(["conver", "export.zip"])
        XCTAssertEqual(r.status, 2, r.printed)
        XCTAssertTrue(r.stderr.contains(#""conver" is not a command. Did you mean "convert"?"#), r.stderr)
        let far = try ToolRun.run(["zzzzzz"])
        XCTAssertEqual(far.status, 2, far.printed)
        XCTAssertTrue(far.stderr.contains(#""zzzzzz" is not a command. The commands: convert, compare"#), far.stderr)
        // Real commands and options are ArgumentParser's as before.
        XCTAssertEqual(try ToolRun.run(["--version"]).status, 0)
    }

    func testANegativeTimeoutIsRefusedAsSuch() throws {
        let r = try ToolRun.run(["push", "--url", "http://127.0.0.1:9", "--timeout", "-1", "--store", "x.sqlite"])
        XCTAssertEqual(r.status, 2, r.printed)
        XCTAssertTrue(r.stderr.contains("--timeout must be a positive number of seconds"), r.stderr)
        XCTAssertFalse(r.stderr.contains("Missing value"), r.stderr)
    }

    /// A refused option value exits 2, as a usage error, and the README says so.
    func testABadOptionValueExitsTwoAsTheREADMESays() throws {
        let zone = try ToolRun.run(["convert", "x.zip", "--timezone", "Mars/Base"])
        XCTAssertEqual(zone.status, 2, zone.printed)
        XCTAssertTrue(zone.stderr.contains(#"unknown time zone "Mars/Base""#), zone.stderr)
        let from = try ToolRun.run(["convert", "x.zip", "--from", "2024-13-01"])
        XCTAssertEqual(from.status, 2, from.printed)
        let readme = try String(contentsOf: TestPaths.repoRoot.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertTrue(
            readme.replacingOccurrences(of: "\n", with: " ").contains(
                "2 for a usage error, an option's value included (a `--from` that is not a date, an unknown `--timezone`"))
    }

    func testJSONThatIsNotHealthAutoExportIsRefusedAndNothingIsWritten() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{"foo": 1}"#.utf8).write(to: dir.appendingPathComponent("other.json"))
        let r = try ToolRun.run(["convert", "other.json", "--out", "out"], in: dir)
        XCTAssertEqual(r.status, 1, r.printed)
        XCTAssertTrue(r.stderr.contains("other.json"), r.stderr)
        XCTAssertTrue(r.stderr.contains("is not Health Auto Export JSON (no data.metrics or data.workouts)"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["other.json"], "no out folder, no store")
        // An HAE file with empty arrays is HAE (with no data), not refused.
        try Data(#"{"data": {"metrics": [], "workouts": []}}"#.utf8).write(to: dir.appendingPathComponent("empty.json"))
        let empty = try ToolRun.run(["convert", "empty.json", "--out", "out"], in: dir)
        XCTAssertEqual(empty.status, 0, empty.printed)
    }

    func testOneDayIsOneDay() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 40 records a minute from 2024-01-01 00:00 +0100: one day in Europe/Berlin (+01:00).
        try StoreKillTests.exportXML(records: 40).write(to: dir.appendingPathComponent("export.xml"), atomically: true, encoding: .utf8)
        let r = try ToolRun.run(["convert", "export.xml", "--out", "out", "--timezone", "Europe/Berlin"], in: dir)
        XCTAssertEqual(r.status, 0, r.printed)
        XCTAssertTrue(r.stdout.contains("Wrote 1 day (2024-01-01 … 2024-01-01)"), r.stdout)
        // 40 records: 20 step counts and 20 heart rates, of 2 types.
        XCTAssertTrue(r.stdout.contains("Read 40 records of 2 types, 0 workouts"), r.stdout)
    }

    func testEraseRefusesAnExistingReceiptAndNamesTheFilesItCannotReach() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try StoreKillTests.exportXML(records: 40).write(to: dir.appendingPathComponent("export.xml"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try ToolRun.run(["convert", "export.xml", "--out", "out"], in: dir).status, 0)
        try "an earlier receipt".write(to: dir.appendingPathComponent("out/receipt.txt"), atomically: true, encoding: .utf8)
        let before = try ToolRun.snapshot(dir.appendingPathComponent("out"))
        let refused = try ToolRun.run(
            ["erase", "--store", "out/health.sqlite", "--person", "me", "--yes", "--receipt", "out/receipt.txt"], in: dir)
        XCTAssertEqual(refused.status, 1, refused.printed)
        XCTAssertTrue(refused.stderr.contains("out/receipt.txt: already exists; --receipt writes a new file"), refused.stderr)
        ToolRun.assertUnchanged(before, try ToolRun.snapshot(dir.appendingPathComponent("out")), "erase --receipt EXISTING")

        let erased = try ToolRun.run(
            ["erase", "--store", "out/health.sqlite", "--person", "me", "--yes", "--receipt", "out/new-receipt.txt"], in: dir)
        XCTAssertEqual(erased.status, 0, erased.printed)
        XCTAssertTrue(erased.stdout.contains("must be deleted by you: under a convert --out folder (payloads/, payloads.json, daily.csv"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("out/daily.csv").path), "erase leaves files")
    }

    func testASourcePriorityEntryThatMatchesNoSourceIsNamed() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Steps from "Ann’s iPhone", heart rate from "Ann’s Apple Watch" (heart rate is not
        // ranked by the priority: its readings are not summed).
        try StoreKillTests.exportXML(records: 40).write(to: dir.appendingPathComponent("export.xml"), atomically: true, encoding: .utf8)
        let typo = try ToolRun.run(["convert", "export.xml", "--out", "out", "--no-store", "--source-priority", "Mi Fti,iphone"], in: dir)
        XCTAssertEqual(typo.status, 0, typo.printed)
        XCTAssertTrue(
            typo.stderr.contains(
                #"warning: --source-priority "Mi Fti" matches no source in the input whose data it ranks (sums such as steps, and sleep); those sources are: Ann’s iPhone"#
            ),
            typo.stderr)
        XCTAssertFalse(typo.stderr.contains(#""iphone" matches"#), "matched, ignoring case: \(typo.stderr)")
        // Even with --quiet; and nothing when every entry matches.
        let quiet = try ToolRun.run(
            ["convert", "export.xml", "--out", "out", "--no-store", "--quiet", "--source-priority", "Mi Fti"], in: dir)
        XCTAssertTrue(quiet.stderr.contains(#""Mi Fti" matches no source"#), quiet.stderr)
        let fine = try ToolRun.run(["convert", "export.xml", "--out", "out", "--no-store", "--source-priority", "iPhone"], in: dir)
        XCTAssertEqual(fine.stderr, "")
    }

    func testHAEMetricsKeptOnlyInTheStoreAreNotSkipped() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Two datums of a metric the catalog has no field for, one step count.
        let json = """
            {"data": {"metrics": [
              {"name": "stair_speed_up", "units": "ft/s", "data": [{"date": "2024-03-01 08:00:00 +0000", "qty": 1.5},
                                                                 {"date": "2024-03-01 09:00:00 +0000", "qty": 1.7}]},
              {"name": "step_count", "units": "count", "data": [{"date": "2024-03-01 08:00:00 +0000", "qty": 100}]}]}}
            """
        try Data(json.utf8).write(to: dir.appendingPathComponent("hae.json"))
        let r = try ToolRun.run(["convert", "hae.json", "--out", "out", "--timezone", "UTC"], in: dir)
        XCTAssertEqual(r.status, 0, r.printed)
        XCTAssertTrue(r.stdout.contains("Skipped nothing"), r.stdout)
        XCTAssertTrue(
            r.stdout.contains("Kept in the store only, as the catalog has no field for them: 2 records of 1 type (hae:stair_speed_up)"),
            r.stdout)
    }

    func testHTTPSToAPlainHTTPServerSaysTheTLSHandshakeFailed() throws {
        let f = try PushTestSupport.fixture()
        let server = try PushTestServer(dir: f.dir)
        let https = server.baseURL.replacingOccurrences(of: "http://", with: "https://")
        let r = try ToolRun.run(
            ["push", "--url", https, "--store", f.store, "--person", "ann", "--max-attempts", "1"],
            environment: ["HEALTH_IMPORT_API_KEY": PushTestSupport.key])
        XCTAssertEqual(r.status, 1, r.printed)
        XCTAssertTrue(r.printed.contains("the TLS handshake failed: does the server speak https at this address?"), r.printed)
        XCTAssertFalse(r.printed.contains("network error -1"), r.printed)
        XCTAssertTrue(server.posts().isEmpty, "nothing was sent")
    }
}
