import Foundation
import XCTest

@testable import ExportParser

/// How the store loads in bulk: samples in multi-row inserts with ids given by the writer, and a
/// new store built under a temporary name until its first import commits.
final class StoreBulkLoadTests: XCTestCase {
    typealias T = StoreTestSupport
    var dir: URL!
    var path: String { dir.appendingPathComponent("health.sqlite").path }

    override func setUpWithError() throws { dir = try T.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// A heart-rate sample at minute `minute` of 2024-01-02 (UTC), whose one metadata entry holds
    /// its start epoch as text and which has `beats` beats: any child row attached to the wrong
    /// sample shows up as a mismatch.
    private func sample(minute: Int, beats: Int = 0) -> Sample {
        let start = T.ts("2024-01-02 00:00:00 +0000").seconds + Int64(minute * 60)
        var s = Sample(
            type: "HKQuantityTypeIdentifierHeartRate", metric: Catalog.metric(forType: "HKQuantityTypeIdentifierHeartRate"),
            source: "Watch", unit: "count/min", valueText: "60", value: 60, canonicalValue: 60,
            start: Timestamp(seconds: start, offset: 0), end: Timestamp(seconds: start, offset: 0))
        s.metadata = [MetadataEntry(key: "start", value: String(start))]
        s.beats = (0..<beats).map { InstantaneousBeat(bpm: Double(start % 1000), time: "00:00:0\($0)") }
        return s
    }

    func testNewRowsMixedWithDuplicatesKeepTheirOwnMetadataAndBeats() throws {
        let store = try HealthStore(path: path)
        // First import: 150 samples at even minutes (more than two 64-row statements).
        let first = try T.run(store, T.meta(sha: "first")) { s in
            for i in 0..<150 { s.sample(sample(minute: 2 * i, beats: i % 3)) }
            s.sample(sample(minute: 0, beats: 0))  // a duplicate inside the file, in the last statement
        }
        XCTAssertEqual(first.samplesRead, 151)
        XCTAssertEqual(first.samplesAdded, 150)
        // Beats: i % 3 over i = 0..<150 → 50 × (0 + 1 + 2) = 150.
        XCTAssertEqual(first.rowsAdded["hrv_beats"], 150)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_records WHERE metadata_json IS NOT NULL"), 150)

        // Second import: every earlier sample again, each followed by a new one at the odd minute
        // after it, so that every statement mixes ignored duplicates and new rows.
        let second = try T.run(store, T.meta(sha: "second")) { s in
            for i in 0..<150 {
                s.sample(sample(minute: 2 * i, beats: i % 3))
                s.sample(sample(minute: 2 * i + 1, beats: 2))
            }
        }
        XCTAssertEqual(second.samplesRead, 300)
        XCTAssertEqual(second.samplesAdded, 150)
        XCTAssertEqual(second.rowsAdded["sample_records"], 150)
        XCTAssertEqual(second.rowsAdded["hrv_beats"], 300)  // 150 new samples × 2 beats

        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM samples"), 300)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_metadata"), 300)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM hrv_beats"), 450)
        // Every child row belongs to the sample it was written for.
        XCTAssertEqual(
            try T.count(
                path,
                """
                SELECT count(*) FROM sample_metadata m JOIN sample_records r ON r.id = m.sample_id WHERE m.value = CAST(r.start_epoch AS TEXT)
                """), 300)
        XCTAssertEqual(
            try T.count(
                path,
                """
                SELECT count(*) FROM hrv_beats b JOIN sample_records r ON r.id = b.sample_id WHERE b.bpm = r.start_epoch % 1000
                """), 450)
        // Odd minutes came from the second import, even ones from the first.
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_records WHERE (start_epoch / 60) % 2 = 1 AND import_id = 2"), 150)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_records WHERE (start_epoch / 60) % 2 = 0 AND import_id = 1"), 150)
    }

    /// The writer gives every sample read the next id, and a duplicate left out leaves its id
    /// unused, whether a statement went in with SQLite's ids (NULL bound: every statement of
    /// a new store without duplicates) or was redone with the writer's after a duplicate.
    /// Statements hold 64 samples (SQLite 3.32 and later allow 32,766 parameters).
    func testSampleIdsAreTheWritersWhicheverStatementWroteThem() throws {
        let store = try HealthStore(path: path)
        // First import, 260 samples read (ids 1…260 given in read order), 64 a statement:
        //   1: ids   1– 64, minutes 0–63, all new: SQLite's ids.
        //   2: ids  65–128: minutes 64–99 (ids 65–100), minute 0 again (id 101), minutes
        //      100–126 (ids 102–128). SQLite's ids would make minute 100 id 101; the duplicate
        //      undoes the statement and the writer's ids write it: id 101 unused.
        //   3: ids 129–192, minutes 127–189 and minute 1 again (id 192 unused): the writer's ids
        //      (one statement after a miss); the table's last id is now 191.
        //   4: ids 193–256, minutes 190–253, all new; SQLite's next id would be 192, not 193,
        //      so the writer's ids again.
        //   5: ids 257–260, minutes 254–257 (the last, shorter flush): SQLite's ids 257–260.
        // So minute m has id m + 1 (m ≤ 99), m + 2 (100–189), m + 3 (190–257).
        let first = try T.run(store, T.meta(sha: "first")) { s in
            for m in 0...99 { s.sample(sample(minute: m, beats: m % 3)) }
            s.sample(sample(minute: 0, beats: 0))
            for m in 100...189 { s.sample(sample(minute: m, beats: m % 3)) }
            s.sample(sample(minute: 1, beats: 1))
            for m in 190...257 { s.sample(sample(minute: m, beats: m % 3)) }
        }
        XCTAssertEqual(first.samplesRead, 260)
        XCTAssertEqual(first.samplesAdded, 258)  // minutes 0…257
        let minute = "(start_epoch - \(T.ts("2024-01-02 00:00:00 +0000").seconds)) / 60"
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_records WHERE id = \(minute) + 1 AND \(minute) <= 99"), 100)
        XCTAssertEqual(
            try T.count(path, "SELECT count(*) FROM sample_records WHERE id = \(minute) + 2 AND \(minute) BETWEEN 100 AND 189"), 90)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_records WHERE id = \(minute) + 3 AND \(minute) >= 190"), 68)
        XCTAssertEqual(try T.rows(path, "SELECT count(*), max(id) FROM sample_records"), [["258", "260"]])
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_records WHERE id IN (101, 192)"), 0)
        // Beats: minute m has m % 3 of them, over minutes 0…257: 86 × (0 + 1 + 2) = 258; each on
        // its own sample (bpm = start epoch % 1000), e.g. minute 191 (191 % 3 = 2) has two, on id 194.
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM hrv_beats"), 258)
        XCTAssertEqual(
            try T.count(
                path, "SELECT count(*) FROM hrv_beats b JOIN sample_records r ON r.id = b.sample_id WHERE b.bpm = r.start_epoch % 1000"),
            258)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM hrv_beats WHERE sample_id = 194"), 2)
        XCTAssertEqual(
            try T.count(path, "SELECT count(*) FROM sample_records WHERE metadata_json = '{\"start\":\"' || start_epoch || '\"}'"), 258)

        // Second import: the next id is 261. Minutes 0–63 again (ids 261–324, all duplicates:
        // none kept), then minutes 300–363 (ids 325–388, all new): minute m has id m + 25.
        let second = try T.run(store, T.meta(sha: "second")) { s in
            for m in 0...63 { s.sample(sample(minute: m, beats: 1)) }
            for m in 300...363 { s.sample(sample(minute: m, beats: 1)) }
        }
        XCTAssertEqual(second.samplesRead, 128)
        XCTAssertEqual(second.samplesAdded, 64)
        XCTAssertEqual(second.rowsAdded["hrv_beats"], 64)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_records WHERE import_id = 2 AND id = \(minute) + 25"), 64)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_records WHERE id BETWEEN 261 AND 324"), 0)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM hrv_beats WHERE sample_id BETWEEN 325 AND 388"), 64)
        // The first import's rows and beats are untouched: 258 + 64 beats.
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM hrv_beats"), 322)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_records WHERE import_id = 1"), 258)
    }

    func testANewStoreAppearsOnlyWhenItsFirstImportCommits() throws {
        let store = try HealthStore(path: path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "nothing at the store's path before an import commits")
        let session = try store.beginImport(T.meta(sha: "a"))
        session.sample(sample(minute: 1))
        session.abandon()
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
        // The same store object takes another import after an abandoned one.
        _ = try T.run(store, T.meta(sha: "b")) { s in s.sample(sample(minute: 2)) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        XCTAssertEqual(try T.rows(path, "PRAGMA journal_mode"), [["wal"]])
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM samples"), 1)
        // A later import on the same object goes through the WAL of the published file.
        _ = try T.run(store, T.meta(sha: "c")) { s in s.sample(sample(minute: 3)) }
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM samples"), 2)
        XCTAssertEqual(try T.rows(path, "PRAGMA integrity_check"), [["ok"]])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("creating") }, [])
    }

    func testAStoreThatImportedNothingLeavesNoFiles() throws {
        do {
            let store = try HealthStore(path: path)
            let session = try store.beginImport(T.meta(sha: "a"))
            session.sample(sample(minute: 1))
            session.abandon()
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
    }

    func testTheTemporaryFilesOfKilledCreationsAreRemoved() throws {
        // pid 2^22 + 1 is above Linux's pid_max limit: no such process on this host.
        let killedHere = dir.appendingPathComponent(".health.sqlite.creating-4194305-7-\(HealthStore.hostName)").path
        // Another host's (or container's) file: kept while it may be written, removed after an hour idle.
        let otherHostBusy = dir.appendingPathComponent(".health.sqlite.creating-4194305-8-elsewhere").path
        let otherHostIdle = dir.appendingPathComponent(".health.sqlite.creating-4194305-9-elsewhere").path
        for p in [killedHere, otherHostBusy, otherHostIdle] { try Data("half a store".utf8).write(to: URL(fileURLWithPath: p)) }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: otherHostIdle)
        let store = try HealthStore(path: path)
        XCTAssertFalse(FileManager.default.fileExists(atPath: killedHere))
        XCTAssertTrue(FileManager.default.fileExists(atPath: otherHostBusy))
        XCTAssertFalse(FileManager.default.fileExists(atPath: otherHostIdle))
        _ = try T.run(store, T.meta(sha: "a")) { s in s.sample(sample(minute: 1)) }
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM samples"), 1)
    }

    func testADanglingSymbolicLinkIsRefusedBeforeAnyWork() throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: dir.appendingPathComponent("gone.sqlite").path)
        XCTAssertThrowsError(try HealthStore(path: path)) { e in
            XCTAssertTrue("\(e)".contains("symbolic link"), "\(e)")
        }
    }

    func testAFailedRunRemovesItsNewStoreAtOnce() throws {
        let store = try HealthStore(path: path)
        let session = try store.beginImport(T.meta(sha: "a"))
        session.sample(sample(minute: 1))
        session.abandon()
        store.discardIfUnpublished()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [])
        withExtendedLifetime(store) {}
    }
}
