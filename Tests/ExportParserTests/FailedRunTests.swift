import Foundation
import XCTest

@testable import ExportParser

/// Issue 23: a run that fails changes nothing. The built tool is run as a user runs it; the
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
