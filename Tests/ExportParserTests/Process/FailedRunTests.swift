import Foundation
import XCTest

@testable import ExportParser

/// A run that fails changes nothing. The built tool is run as a user runs it; the
/// folder (every file's bytes) and the store (every table's rows) are compared before and after.
final class FailedRunTests: XCTestCase {
    /// A folder with `good.xml` (one day of steps, 2024-01-01), `other.xml` (another export,
    /// 2024-01-02) and `truncated.zip` (the first bytes of a ZIP, cut short).
    private func inputs() throws -> URL {
        let dir = try TestPaths.temporaryDirectory()
        try StoreKillTests.exportXML(records: 40).write(to: dir.appendingPathComponent("good.xml"), atomically: true, encoding: .utf8)
        let other = StoreKillTests.exportXML(records: 40).replacingOccurrences(of: "2024-01-01 ", with: "2024-01-02 ")
        try other.write(to: dir.appendingPathComponent("other.xml"), atomically: true, encoding: .utf8)
        try Data([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]).write(to: dir.appendingPathComponent("truncated.zip"))
        return dir
    }

    func testAFailingInputAfterAGoodOneLeavesTheStoreAndTheFolderAsTheyWere() throws {
        let dir = try inputs()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let first = try ToolRun.run(["convert", "good.xml", "--out", "out"], in: dir)
        XCTAssertEqual(first.status, 0, first.printed)
        let before = try ToolRun.snapshot(out)
        XCTAssertNotNil(before["/health.sqlite (rows)"], "the first run made a store")
        XCTAssertNotNil(before["/payloads/2024-01-01.json"])

        // other.xml reads well and would add 2024-01-02; truncated.zip then fails the run.
        let failed = try ToolRun.run(["convert", "other.xml", "truncated.zip", "--out", "out"], in: dir)
        XCTAssertEqual(failed.status, 1, failed.printed)
        XCTAssertTrue(failed.stderr.contains("truncated.zip"), failed.stderr)
        ToolRun.assertUnchanged(before, try ToolRun.snapshot(out), "convert other.xml truncated.zip")

        // The same run with its good input alone does change the store: the snapshot sees it.
        let good = try ToolRun.run(["convert", "other.xml", "--out", "out"], in: dir)
        XCTAssertEqual(good.status, 0, good.printed)
        XCTAssertNotEqual(before["/health.sqlite (rows)"], try ToolRun.snapshot(out)["/health.sqlite (rows)"])
    }

    func testAFailedRunIntoANewFolderLeavesNoFolderAndNoStore() throws {
        let dir = try inputs()
        defer { try? FileManager.default.removeItem(at: dir) }
        let failed = try ToolRun.run(["convert", "good.xml", "truncated.zip", "--out", "new/out"], in: dir)
        XCTAssertEqual(failed.status, 1, failed.printed)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("new").path), "no folder is left behind")
        // Nor with the store in a new folder of its own.
        let elsewhere = try ToolRun.run(
            ["convert", "good.xml", "truncated.zip", "--out", "new/out", "--store", "db/sub/h.sqlite"], in: dir)
        XCTAssertEqual(elsewhere.status, 1, elsewhere.printed)
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        XCTAssertEqual(left, ["good.xml", "other.xml", "truncated.zip"])
    }

    func testAnOutFolderUnderAFileIsNamedAsSuch() throws {
        let dir = try inputs()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "notes".write(to: dir.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let failed = try ToolRun.run(["convert", "good.xml", "--out", "notes.txt/sub"], in: dir)
        XCTAssertEqual(failed.status, 1, failed.printed)
        XCTAssertTrue(failed.stderr.contains("which is a file, not a folder"), failed.stderr)
        XCTAssertFalse(failed.stderr.contains("NSCocoaErrorDomain"), failed.stderr)
    }
}

/// The other commands that write files: a failure leaves their folder as it was.
final class FailedCommandsTests: XCTestCase {
    func testAFixturesRunThatFailsLeavesTheFolderAsItWas() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = try ToolRun.run(["fixtures", "--days", "2", "--out", "fx"], in: dir)
        XCTAssertEqual(first.status, 0, first.printed)
        // `expected` is now a file: the next run can write everything else, but not put its
        // expected/ folder in place.
        let expected = dir.appendingPathComponent("fx/expected")
        try FileManager.default.removeItem(at: expected)
        try "not a folder".write(to: expected, atomically: true, encoding: .utf8)
        let before = try ToolRun.snapshot(dir.appendingPathComponent("fx"))
        let failed = try ToolRun.run(["fixtures", "--days", "3", "--out", "fx"], in: dir)
        XCTAssertEqual(failed.status, 1, failed.printed)
        XCTAssertTrue(failed.stderr.contains("fx/expected: is a file where a folder goes"), failed.stderr)
        ToolRun.assertUnchanged(before, try ToolRun.snapshot(dir.appendingPathComponent("fx")), "fixtures --days 3")

        // Without the obstacle the same run replaces the fixture: 3 dates now.
        try FileManager.default.removeItem(at: expected)
        let good = try ToolRun.run(["fixtures", "--days", "3", "--out", "fx"], in: dir)
        XCTAssertEqual(good.status, 0, good.printed)
        let payloads = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("fx/expected/payloads").path)
        XCTAssertEqual(payloads.count, 3)
        XCTAssertFalse(
            try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("fx").path).contains { $0.hasPrefix(".") })
    }

    func testAFailedCompareLeavesItsFolderAsItWasAndMakesNoNewOne() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (native, _) = try CompareFixtures.write(into: dir)
        // An HAE file cut short after its first datum.
        try Data(#"{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2024-03-01 00:00:00 +1100","qty":1}"#.utf8)
            .write(to: dir.appendingPathComponent("cut.json"))
        let ok = try ToolRun.run(
            ["compare", "--native", native, "--hae", "hae.json", "--out", "cmp", "--timezone", "Australia/Sydney"], in: dir)
        XCTAssertEqual(ok.status, 1, "differences planted: \(ok.printed)")
        let before = try ToolRun.snapshot(dir.appendingPathComponent("cmp"))
        XCTAssertNotNil(before["/compare.csv"])
        let failed = try ToolRun.run(
            ["compare", "--native", native, "--hae", "cut.json", "--out", "cmp", "--timezone", "Australia/Sydney"], in: dir)
        XCTAssertEqual(failed.status, 2, failed.printed)
        XCTAssertTrue(failed.stderr.contains("cut.json"), failed.stderr)
        ToolRun.assertUnchanged(before, try ToolRun.snapshot(dir.appendingPathComponent("cmp")), "compare with a cut HAE file")
        let fresh = try ToolRun.run(["compare", "--native", native, "--hae", "cut.json", "--out", "new/cmp"], in: dir)
        XCTAssertEqual(fresh.status, 2, fresh.printed)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("new").path))
    }

    func testAFailedGDPRExportLeavesTheStoreAndWritesNothing() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try StoreKillTests.exportXML(records: 40).write(to: dir.appendingPathComponent("export.xml"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try ToolRun.run(["convert", "export.xml", "--out", "out"], in: dir).status, 0)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("taken"), withIntermediateDirectories: false)
        let before = try ToolRun.snapshot(dir)
        for (person, target) in [("nobody", "export"), ("me", "taken"), ("nobody", "export.zip")] {
            let r = try ToolRun.run(["gdpr-export", "--store", "out/health.sqlite", "--person", person, "--out", target], in: dir)
            XCTAssertEqual(r.status, 1, r.printed)
            ToolRun.assertUnchanged(before, try ToolRun.snapshot(dir), "gdpr-export --person \(person) --out \(target)")
        }
    }

    /// push's record of what was sent says only what the server acknowledged: after a 401 on the
    /// third date, the two accepted dates, and nothing else changed in the store.
    func testAPushStoppedByA401RecordsOnlyWhatWasAcknowledged() throws {
        let f = try PushTestSupport.fixture()
        let server = try PushTestServer(dir: f.dir, plan: ["dates": ["2024-03-03": ["401"]]])
        let before = try ToolRun.storeRows(f.store, except: ["pushes"])
        let r = try ToolRun.run(
            ["push", "--url", server.baseURL, "--store", f.store, "--person", "ann", "--concurrency", "1"],
            environment: ["HEALTH_IMPORT_API_KEY": PushTestSupport.key])
        XCTAssertEqual(r.status, 1, r.printed)
        XCTAssertEqual(try PushTestSupport.recorded(f.store).keys.sorted(), ["2024-03-01", "2024-03-02"])
        // Every other table as it was: only `pushes` gained the two rows.
        XCTAssertEqual(try ToolRun.storeRows(f.store, except: ["pushes"]), before)
    }
}
