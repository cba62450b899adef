import Foundation
import XCTest

@testable import ExportParser

/// The store's one transaction helper and its one busy rule: a write that throws leaves
/// nothing, a write past another process's lock is one sentence naming what was not done.
final class StoreTransactionsTests: XCTestCase {
    /// An existing store (an empty SQLite file, migrated by `HealthStore`), so that a second
    /// connection can open the same file.
    private func existingStore() throws -> (dir: URL, path: String, store: HealthStore) {
        let dir = try TestPaths.temporaryDirectory()
        let path = dir.appendingPathComponent("health.sqlite").path
        _ = try SQLiteConnection(path: path)
        return (dir, path, try HealthStore(path: path))
    }

    /// Rows of the test's own table (not the schema's, which may change).
    private func rows(_ store: HealthStore) throws -> Int64? {
        try store.db.scalarInt("SELECT count(*) FROM scratch")
    }

    func testAWriteThatThrowsLeavesNothingAndOneThatReturnsIsCommitted() throws {
        let (dir, _, store) = try existingStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        struct Stop: Error {}
        try store.db.execute("CREATE TABLE scratch (x)")
        let insert = "INSERT INTO scratch VALUES (1)"
        XCTAssertThrowsError(
            try store.writing {
                try store.db.execute(insert)
                XCTAssertEqual(try rows(store), 1, "inside the transaction the row is there")
                throw Stop()
            }
        ) { XCTAssertTrue($0 is Stop, "the body's own error comes out: \($0)") }
        XCTAssertEqual(try rows(store), 0, "rolled back")
        try store.writing { try store.db.execute(insert) }
        XCTAssertEqual(try rows(store), 1, "committed")
    }

    func testAWriteWhileAnotherProcessWritesIsOneSentenceEndingWithWhatWasNotDone() throws {
        let (dir, path, store) = try existingStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let other = try SQLiteConnection(path: path)
        try other.execute("BEGIN IMMEDIATE")
        defer { try? other.execute("ROLLBACK") }
        // 1,000 ms waited: "(waited 1 s)".
        store.setBusyTimeout(milliseconds: 1000)
        XCTAssertThrowsError(try store.writing(whenBusy: "nothing was changed") {}) { e in
            XCTAssertEqual("\(e)", "\(path): is being written by another process (waited 1 s); nothing was changed")
            XCTAssertTrue((e as? StoreError)?.isBusy == true, "the code stays SQLITE_BUSY: \(e)")
        }
    }
}
