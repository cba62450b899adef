import Foundation
import XCTest

@testable import ExportParser

/// `erase`: nothing of the person left in any table or view, the other person untouched, and
/// none of the person's distinctive strings left in the bytes of the store or its WAL.
final class EraseTests: XCTestCase {
    typealias G = GDPRTestSupport

    func testEraseLeavesNothingOfThePersonAndTheOtherUnchanged() throws {
        let (dir, store) = try G.twoPersonStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bobBefore = try G.snapshot(store, person: "bob")
        let annBefore = try G.snapshot(store, person: "ann")
        let typesBefore = try StoreTestSupport.count(store, "SELECT count(*) FROM sample_types")
        for needle in [G.annSource, G.annMetadataValue] {
            XCTAssertTrue(G.fileContains(store, needle) || G.fileContains(store + "-wal", needle), "the scan finds \(needle) before erase")
        }

        // Another process holding the write lock: erase waits, then fails with nothing removed.
        let other = try SQLiteConnection(path: store)
        try other.execute("BEGIN IMMEDIATE")
        var busy = EraseRequest(storePath: store, person: "ann")
        busy.busyTimeoutMilliseconds = 300
        XCTAssertThrowsError(try EraseJob(busy).run()) { e in
            XCTAssertTrue("\(e)".contains("nothing was erased"), "\(e)")
        }
        try other.execute("ROLLBACK")
        XCTAssertEqual(try G.snapshot(store, person: "ann"), annBefore, "a busy store is left as it was")

        let receiptPath = dir.appendingPathComponent("receipt.txt").path
        let receipt = try EraseJob(EraseRequest(storePath: store, person: "ann", receiptPath: receiptPath)).run()
        XCTAssertNil(receipt.unfinished)
        XCTAssertEqual(receipt.removed.map(\.name), PersonRows.tables.map(\.name))
        for t in receipt.removed { XCTAssertEqual(t.rows, annBefore[t.name]?.count, t.name) }
        XCTAssertEqual(try String(contentsOfFile: receiptPath, encoding: .utf8), receipt.text)
        XCTAssertEqual(try StoreTestSupport.mode(receiptPath), 0o600)
        for needle in [G.annSource, G.annMetadataValue] {
            XCTAssertFalse(receipt.text.contains(needle), "the receipt holds no health data")
        }

        for table in PersonRows.tables { XCTAssertEqual(try G.count(store, table: table.name, person: "ann"), 0, table.name) }
        for view in ["samples", "daily", "apple_daily_totals"] {
            XCTAssertEqual(try StoreTestSupport.count(store, "SELECT count(*) FROM \(view) WHERE person = 'ann'"), 0, view)
        }
        XCTAssertEqual(try PersonRows.persons(SQLiteConnection(path: store, readOnly: true)), ["bob"])
        XCTAssertEqual(try StoreTestSupport.count(store, "SELECT count(*) FROM sample_types"), typesBefore, "the shared types stay")
        XCTAssertEqual(try G.snapshot(store, person: "bob"), bobBefore, "bob's rows and views unchanged")

        let walSize = (try? FileManager.default.attributesOfItem(atPath: store + "-wal")[.size] as? Int) ?? 0
        XCTAssertEqual(walSize, 0, "the -wal file is truncated")
        for needle in [G.annSource, G.annMetadataValue] {
            XCTAssertFalse(G.fileContains(store, needle), "\(needle) left in the store's bytes")
            XCTAssertFalse(G.fileContains(store + "-wal", needle), "\(needle) left in the -wal file")
        }
        XCTAssertTrue(G.fileContains(store, G.bobSource), "the scan still finds bob's")

        XCTAssertThrowsError(try EraseJob(EraseRequest(storePath: store, person: "ann"))) { e in
            XCTAssertTrue("\(e)".contains("holds no data of the person \"ann\""), "\(e)")
        }
    }

    /// A reader that keeps its snapshot open stops the last step (the WAL cannot be truncated
    /// under it): the rows are deleted, and the receipt says how to finish by hand, with the
    /// command line the store gives (`lastStepByHand`).
    func testAReaderKeepingTheWALLeavesTheLastStepToDoByHand() throws {
        let (dir, store) = try G.twoPersonStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let reader = try SQLiteConnection(path: store)
        try reader.execute("BEGIN")
        _ = try reader.scalarInt("SELECT count(*) FROM imports")
        defer { try? reader.execute("COMMIT") }
        var request = EraseRequest(storePath: store, person: "ann")
        request.busyTimeoutMilliseconds = 200
        let receipt = try EraseJob(request).run()
        XCTAssertEqual(
            receipt.unfinished,
            "\(store): another process kept reading the store, so its -wal file could not be truncated; the rows are deleted, but "
                + "their old bytes may remain in the file until that is done: run erase's last step again with sqlite3 \(store) "
                + "'PRAGMA wal_checkpoint(TRUNCATE); VACUUM; PRAGMA wal_checkpoint(TRUNCATE);' when nothing else uses the store")
    }
}
