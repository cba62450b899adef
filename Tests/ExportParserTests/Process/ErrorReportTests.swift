import Foundation
import XCTest

@testable import ExportParser

/// Every command reports an error the same way, whatever its kind: `health-import: FILE:
/// MESSAGE` on stderr, one line, exit status 1; and the library throws each error as its real
/// kind (a file being written: `OutputError`; the store: `StoreError`).
final class ErrorReportTests: XCTestCase {
    typealias G = GDPRTestSupport

    func testEachKindIsThrownAsItself() throws {
        let (dir, store) = try G.twoPersonStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("none.sqlite").path
        XCTAssertThrowsError(try PeopleJob(PeopleRequest(storePath: missing)).run()) { e in
            XCTAssertTrue(e is StoreError, "a missing store is a store error: \(type(of: e))")
        }
        XCTAssertThrowsError(try GDPRExportJob(GDPRExportRequest(storePath: store, person: "nobody", outPath: dir.path + "/x")).run()) {
            XCTAssertTrue($0 is StoreError, "a person the store does not hold: \(type(of: $0))")
        }
        // --out exists already: a file that cannot be written.
        XCTAssertThrowsError(try GDPRExportJob(GDPRExportRequest(storePath: store, person: "ann", outPath: dir.path)).run()) {
            XCTAssertTrue($0 is OutputError, "\(type(of: $0))")
        }
        let receipt = dir.appendingPathComponent("health.sqlite").path + "/receipt.txt"
        XCTAssertThrowsError(try EraseJob(EraseRequest(storePath: store, person: "ann", receiptPath: receipt)).run()) {
            XCTAssertTrue($0 is OutputError, "\(type(of: $0))")
        }
    }

    /// The executable: an `OutputError` from a bad `--receipt` (its folder is a file) reads like
    /// the store error of `people` and the input error of `convert`, and nothing is erased.
    func testOutputStoreAndInputErrorsReadAlike() throws {
        let (dir, store) = try G.twoPersonStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = try G.snapshot(store, person: "ann")

        // The receipt's folder is the store's file: creating it fails with ENOTDIR.
        let receipt = store + "/receipt.txt"
        let erase = try ToolRun.run(["erase", "--store", store, "--person", "ann", "--yes", "--receipt", receipt])
        XCTAssertEqual(erase.status, 1, erase.printed)
        XCTAssertEqual(erase.stderr, "health-import: \(receipt): cannot create: Not a directory\n")
        XCTAssertEqual(erase.stdout, "")
        XCTAssertEqual(try G.snapshot(store, person: "ann"), before, "nothing erased")

        let existing = dir.appendingPathComponent("kept.txt").path
        try Data("earlier".utf8).write(to: URL(fileURLWithPath: existing))
        let again = try ToolRun.run(["erase", "--store", store, "--person", "ann", "--yes", "--receipt", existing])
        XCTAssertEqual(again.status, 1, again.printed)
        XCTAssertEqual(
            again.stderr,
            "health-import: \(existing): already exists; --receipt writes a new file and never replaces one. Nothing was erased.\n")

        let out = try ToolRun.run(["gdpr-export", "--store", store, "--person", "ann", "--out", existing])
        XCTAssertEqual(out.status, 1, out.printed)
        XCTAssertEqual(
            out.stderr, "health-import: \(existing): already exists; give a path that does not, so that no earlier export is replaced\n")

        let missing = dir.appendingPathComponent("none.sqlite").path
        let people = try ToolRun.run(["people", "--store", missing])
        XCTAssertEqual(people.status, 1, people.printed)
        XCTAssertEqual(people.stderr, "health-import: \(missing): no store here (convert writes one)\n")

        let input = dir.appendingPathComponent("none.xml").path
        let convert = try ToolRun.run(["convert", input, "--out", dir.appendingPathComponent("out").path, "--quiet"])
        XCTAssertEqual(convert.status, 1, convert.printed)
        XCTAssertTrue(convert.stderr.hasPrefix("health-import: \(input): "), convert.stderr)
        XCTAssertEqual(convert.stderr.filter { $0 == "\n" }.count, 1, convert.stderr)
    }
}
