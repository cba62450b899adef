import Foundation
import XCTest

@testable import ExportParser

/// An import works with a small SQLite page cache (`StoreImportSession.loadCacheKiB`) and gives
/// the connection its own (`HealthStore.cacheKiB`) back when it ends; day values are inserted a
/// statement's worth at a time. Issue 24: memory flat at any size.
final class StoreLoadCacheTests: XCTestCase {
    typealias T = StoreTestSupport
    var dir: URL!
    var path: String { dir.appendingPathComponent("health.sqlite").path }

    override func setUpWithError() throws { dir = try T.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// `PRAGMA cache_size` of the store's connection, in KiB (SQLite reports a size set in KiB as
    /// a negative number).
    private func cacheKiB(_ store: HealthStore) throws -> Int64 {
        -(try store.db.scalarInt("PRAGMA cache_size") ?? 0)
    }

    func testAnImportThatOutgrowsTheLoadCacheReadsBackEveryRow() throws {
        let store = try HealthStore(path: path)
        XCTAssertEqual(try cacheKiB(store), 16384)
        // 12,000 one-minute step samples from 2024-01-01 00:00 UTC, value i % 10: 1,200 rounds of
        // 0 + 1 + … + 9 = 45, so the values sum to 1,200 × 45 = 54,000.
        let result = try T.run(store, T.meta(sha: "big")) { s in
            for i in 0..<12_000 {
                let start = T.ts("2024-01-01 00:00:00 +0000").seconds + Int64(i * 60)
                var x = T.steps("2024-01-01 00:00:00 +0000", "2024-01-01 00:00:00 +0000", Double(i % 10))
                x.start = Timestamp(seconds: start, offset: 0)
                x.end = Timestamp(seconds: start + 60, offset: 0)
                s.sample(x)
            }
        }
        XCTAssertEqual(result.samplesAdded, 12_000)
        // The connection has its own cache back after the commit.
        XCTAssertEqual(try cacheKiB(store), 16384)
        // The load wrote more than the 1 MiB cache holds (16 KiB pages: more than 64 of them), so
        // pages were written out and read back while it went on.
        let pages = try T.count(path, "PRAGMA page_count")
        XCTAssertGreaterThan(pages * 16, StoreImportSession.loadCacheKiB)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_records"), 12_000)
        XCTAssertEqual(try T.count(path, "SELECT count(DISTINCT start_epoch) FROM sample_records"), 12_000)
        XCTAssertEqual(try T.count(path, "SELECT CAST(sum(value) AS INTEGER) FROM sample_records"), 54_000)
        // Ids 1 … 12,000 in the order the samples came: the sample at minute i has id i + 1.
        XCTAssertEqual(
            try T.count(
                path,
                "SELECT count(*) FROM sample_records WHERE id = (start_epoch - \(T.ts("2024-01-01 00:00:00 +0000").seconds)) / 60 + 1"),
            12_000)
        // The natural-key index answers a range query by type and time: minutes 600 … 1,199
        // are 600 samples whose values are 60 rounds of 0 … 9, 60 × 45 = 2,700.
        let from = T.ts("2024-01-01 10:00:00 +0000").seconds
        XCTAssertEqual(
            try T.count(
                path,
                """
                SELECT CAST(sum(value) AS INTEGER) FROM samples
                WHERE type = 'HKQuantityTypeIdentifierStepCount' AND start_epoch >= \(from) AND start_epoch < \(from + 36_000)
                """), 2_700)
    }

    func testAnAbandonedImportGivesTheCacheBackToo() throws {
        let store = try HealthStore(path: path)
        let session = try store.beginImport(T.meta(sha: "gone"))
        session.sample(T.steps("2024-01-01 08:00:00 +0000", "2024-01-01 09:00:00 +0000", 5))
        session.abandon()
        XCTAssertEqual(try cacheKiB(store), 16384)
    }

    /// Inside a `convert` run the import's small cache stays until the run ends: the run's
    /// payloads are written after the import, once, and the 16 MiB would only hold their pages.
    func testInsideARunTheLoadCacheStaysUntilTheRunEnds() throws {
        let store = try HealthStore(path: path)
        try store.beginRun()
        _ = try T.run(store, T.meta(sha: "in-run")) { s in
            s.sample(T.steps("2024-01-01 08:00:00 +0000", "2024-01-01 09:00:00 +0000", 5))
        }
        XCTAssertEqual(try cacheKiB(store), Int64(StoreImportSession.loadCacheKiB))
        try store.commitRun()
        XCTAssertEqual(try cacheKiB(store), 16384)
        // A run that fails gives it back as well.
        try store.beginRun()
        _ = try T.run(store, T.meta(sha: "in-failed-run")) { s in
            s.sample(T.steps("2024-01-02 08:00:00 +0000", "2024-01-02 09:00:00 +0000", 5))
        }
        XCTAssertEqual(try cacheKiB(store), Int64(StoreImportSession.loadCacheKiB))
        store.rollbackRun()
        XCTAssertEqual(try cacheKiB(store), 16384)
        // The committed run's one sample is there, the rolled-back one's is not.
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_records"), 1)
    }

    func testDayValuesOfMoreDatesThanOneStatementAreAllKept() throws {
        let store = try HealthStore(path: path)
        // 100 dates from 2024-01-01 with steps 1, 2, … 100: more rows than one 64-row statement.
        // Their sum is 100 × 101 / 2 = 5,050.
        let first = CivilDate.parseISODate("2024-01-01")!
        let days = (0..<100).map { n -> FinishedDay in
            var d = FinishedDay(dayNumber: first + n, timezone: "UTC", deviceSyncTimestamp: "x")
            d.values[Catalog.metric(named: "step_count").index] = Double(n + 1)
            return d
        }
        let result = try T.run(store, T.meta(sha: "days"), days: days) { _ in }
        let own = "SELECT %@ FROM import_day_values WHERE import_id = \(result.importID) AND field = 'step_count'"
        XCTAssertEqual(try T.count(path, String(format: own, "count(*)")), 100)
        XCTAssertEqual(try T.count(path, String(format: own, "count(DISTINCT date)")), 100)
        XCTAssertEqual(try T.count(path, String(format: own, "CAST(sum(value) AS INTEGER)")), 5_050)
        // The last date, 2024-01-01 + 99 days = 2024-04-09 (31 + 29 + 31 = 91 days to April 1st,
        // then 8 more), kept its own 100 steps, in the merged day values too.
        XCTAssertEqual(
            try T.rows(path, "SELECT date, value FROM day_values WHERE field = 'step_count' ORDER BY date DESC LIMIT 1"),
            [["2024-04-09", "100.0"]])
    }
}
