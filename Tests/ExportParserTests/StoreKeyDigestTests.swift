import Foundation
import XCTest

@testable import ExportParser

/// Schema version 6: the samples' natural-key index is `(person, type_id, start_epoch,
/// key_digest)`, the digest standing for end, source, value, value text, unit and metadata
/// digest (`SampleKeyDigest`). It must keep the equality of the version 5 index, which held
/// those six columns (NULL value text or unit counting as ""), and the migration must give a
/// stored row the digest the writer gives the same sample.
final class StoreKeyDigestTests: XCTestCase {
    typealias T = StoreTestSupport
    var dir: URL!
    var path: String { dir.appendingPathComponent("health.sqlite").path }

    override func setUpWithError() throws { dir = try T.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func digest(
        end: Int64 = 1_704_182_700, source: Int64 = 1, value: Double? = 12, text: String? = nil, unit: String? = "count",
        metadata: UInt64 = 0
    ) -> Int64 {
        SampleKeyDigest.digest(
            endEpoch: end, sourceID: source, value: value, valueTextHash: SampleKeyDigest.textHash(text),
            unitHash: SampleKeyDigest.textHash(unit), metadataDigest: metadata)
    }

    /// The digest must not change between builds or platforms (stored digests are compared with
    /// new ones). The expected number was computed independently, in Python, from what
    /// `SampleKeyDigest` documents: the words 1704182700 (end), 1 (source), 1 (a value),
    /// 0x4028000000000000 (the bits of 12.0), the FNV-1a 64 of no bytes (no value text:
    /// 0xcbf29ce484222325), the FNV-1a 64 of "count" and 0 (metadata), each through
    /// `x = h ^ w; x ^= x >> 32; x = x * 0xD6E8FEB86659FD93 mod 2^64; x ^= x >> 29` from
    /// h = 0x9E3779B97F4A7C15, then MurmurHash3's fmix64, as a signed 64-bit integer.
    func testTheDigestFollowsTheDocumentedLayout() {
        XCTAssertEqual(digest(), -7_669_428_254_509_341_124)
    }

    /// What the version 5 index held equal is equal here; what it held apart is apart.
    func testTheDigestKeepsTheOldIndexEquality() {
        let base = digest()
        // Equal: NULL and "" text or unit (`ifnull(…, '')`), 0 and -0, NaN and NULL (SQLite
        // stores a NaN as NULL).
        XCTAssertEqual(digest(text: nil), digest(text: ""))
        XCTAssertEqual(digest(unit: nil), digest(unit: ""))
        XCTAssertEqual(digest(value: 0), digest(value: -0.0))
        XCTAssertEqual(digest(value: .nan), digest(value: nil))
        // Apart: each of the six parts alone.
        for other in [
            digest(end: 1_704_182_701), digest(source: 2), digest(value: 12.000_000_000_000_002), digest(value: nil),
            digest(text: "x"), digest(unit: "km"), digest(metadata: 1),
        ] {
            XCTAssertNotEqual(other, base)
        }
        // A value text cannot pass for a value, nor text for unit.
        XCTAssertNotEqual(digest(value: nil, text: "12"), base)
        XCTAssertNotEqual(digest(text: "count", unit: nil), digest(text: nil, unit: "count"))
    }

    /// The same pairs against SQLite's own version 5 index: for each pair of samples of one
    /// person, type and start, the old unique index rejects the second exactly when the digests
    /// are equal. Values are bound as the writer binds them (`Statement.bind`: a NaN as NULL).
    func testTheDigestAgreesWithTheVersion5IndexItself() throws {
        typealias Key = (end: Int64, source: Int64, value: Double?, text: String?, unit: String?, metadata: UInt64)
        let base: Key = (1_704_182_700, 1, 12, nil, "count", 0)
        func with(_ change: (inout Key) -> Void) -> Key {
            var k = base
            change(&k)
            return k
        }
        let inBed = "HKCategoryValueSleepAnalysisInBed"
        let pairs: [(Key, Key)] = [
            (with { $0.value = 0 }, with { $0.value = -0.0 }),
            (with { $0.value = .nan }, with { $0.value = nil }),
            (with { $0.value = 12 }, with { $0.value = 12.0 }),
            (with { $0.text = nil }, with { $0.text = "" }),
            (with { $0.unit = nil }, with { $0.unit = "" }),
            (
                with { $0.value = 12 },
                with {
                    $0.value = nil; $0.text = "12"
                }
            ),
            (with { $0.unit = "count" }, with { $0.unit = "count/min" }),
            (base, with { $0.end += 1 }),
            (base, with { $0.source = 2 }),
            (base, with { $0.metadata = 1 }),
            (base, with { $0.value = 12.000_000_000_000_002 }),
            (
                with {
                    $0.value = nil; $0.text = inBed
                },
                with {
                    $0.value = nil; $0.text = inBed
                }
            ),
            (base, base),
        ]
        let db = try SQLiteConnection(path: path)
        try db.execute(
            """
            CREATE TABLE t (person TEXT, type_id INTEGER, start_epoch INTEGER, end_epoch INTEGER, source_id INTEGER, value REAL,
              value_text TEXT, unit TEXT, metadata_digest INTEGER);
            CREATE UNIQUE INDEX t_key ON t (
                person, type_id, start_epoch, end_epoch, source_id, ifnull(value, ''), ifnull(value_text, ''), ifnull(unit, ''), metadata_digest
            );
            """)
        let insert = try db.prepare("INSERT OR IGNORE INTO t VALUES ('me', 1, 1704182400, ?1, ?2, ?3, ?4, ?5, ?6)")
        for (n, (a, b)) in pairs.enumerated() {
            try db.execute("DELETE FROM t")
            var added = 0
            for k in [a, b] {
                insert.bind(1, k.end)
                insert.bind(2, k.source)
                insert.bind(3, k.value)
                insert.bind(4, k.text)
                insert.bind(5, k.unit)
                insert.bind(6, Int64(bitPattern: k.metadata))
                try insert.run()
                added += db.changes
            }
            let oldIndexHeldEqual = added == 1
            let digestsEqual =
                digest(end: a.end, source: a.source, value: a.value, text: a.text, unit: a.unit, metadata: a.metadata)
                == digest(end: b.end, source: b.source, value: b.value, text: b.text, unit: b.unit, metadata: b.metadata)
            XCTAssertEqual(digestsEqual, oldIndexHeldEqual, "pair \(n)")
        }
    }

    /// Through the writer: copies of one sample are one row, and samples of one type and start
    /// that differ in one part each are rows of their own. Nine samples at 2024-01-02 08:00
    /// +01:00: the base, its copy with another creation date (a re-sync), and one each with another
    /// end, source, value, unit and metadata digest, a sleep category "InBed" and its copy. So
    /// 9 − 2 copies = 7 rows.
    func testTheWriterKeepsCopiesOnceAndDifferentSamplesApart() throws {
        let store = try HealthStore(path: path)
        let start = "2024-01-02 08:00:00 +0100"
        let end = "2024-01-02 08:05:00 +0100"
        let base = T.steps(start, end, 12)
        var copy = base
        copy.created = T.ts("2024-01-03 09:00:00 +0100")
        let otherEnd = T.steps(start, "2024-01-02 08:06:00 +0100", 12)
        let otherSource = T.steps(start, end, 12, source: "Ann’s Watch")
        let otherValue = T.steps(start, end, 13)
        var otherUnit = base
        otherUnit.unit = "count/min"
        var otherMetadata = base
        otherMetadata.metadataDigest = 77
        let inBed = Sample(
            type: "HKCategoryTypeIdentifierSleepAnalysis", source: "Ann’s Watch", valueText: "HKCategoryValueSleepAnalysisInBed",
            start: T.ts(start), end: T.ts(end))
        let samples = [base, copy, otherEnd, otherSource, otherValue, otherUnit, otherMetadata, inBed, inBed]
        let result = try T.run(store, T.meta(sha: "one")) { session in
            for s in samples { session.sample(s) }
        }
        XCTAssertEqual(result.samplesRead, 9)
        XCTAssertEqual(result.samplesAdded, 7)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_records"), 7)

        // Each row's digest is the one `SampleKeyDigest` gives its columns.
        XCTAssertEqual(try storedDigestsThatDisagree(), 0)

        // The same samples again, in another file: nothing new.
        let again = try T.run(try HealthStore(path: path), T.meta(sha: "two")) { session in
            for s in samples { session.sample(s) }
        }
        XCTAssertEqual(again.samplesAdded, 0)
    }

    /// Rows whose `key_digest` differs from the digest of their own columns.
    private func storedDigestsThatDisagree() throws -> Int {
        let db = try SQLiteConnection(path: path, readOnly: true)
        let s = try db.prepare("SELECT end_epoch, source_id, value, value_text, unit, metadata_digest, key_digest FROM sample_records")
        var wrong = 0
        while try s.step() {
            let text = s.isNull(3) ? nil : s.text(3)
            let unit = s.isNull(4) ? nil : s.text(4)
            let d = digest(
                end: s.int(0), source: s.int(1), value: s.double(2), text: text, unit: unit, metadata: UInt64(bitPattern: s.int(5)))
            if d != s.int(6) { wrong += 1 }
        }
        return wrong
    }

    /// A version 5 store (made here from a version 6 one: its `key_digest` column dropped, which
    /// needs SQLite 3.35, the version 5 index back, `user_version` 5) migrates: every row gets the digest the writer gave it, the index
    /// is the new one, and importing the same samples again adds nothing, so migrated rows and new
    /// ones are keyed alike.
    func testAVersion5StoreMigratesToTheWritersDigests() throws {
        let start = "2024-01-02 08:00:00 +0100"
        var withMetadata = T.steps(start, "2024-01-02 08:05:00 +0100", 12)
        withMetadata.metadata = [MetadataEntry(key: "HKWasUserEntered", value: "1")]
        withMetadata.metadataDigest = 5
        let samples = [
            T.steps(start, "2024-01-02 08:05:00 +0100", 12), withMetadata,
            T.steps("2024-01-02 09:00:00 +0100", "2024-01-02 09:05:00 +0100", 30, source: "Ann’s Watch"),
            Sample(
                type: "HKCategoryTypeIdentifierSleepAnalysis", source: "Ann’s Watch", valueText: "HKCategoryValueSleepAnalysisAsleepCore",
                start: T.ts("2024-01-02 01:00:00 +0100"), end: T.ts("2024-01-02 02:00:00 +0100")),
        ]
        // And 10,050 steps a minute apart, so that the migration's batches of 10,000 rows take
        // two turns.
        let minute = T.ts("2024-01-03 00:00:00 +0100")
        var many: [Sample] = []
        for i in 0..<10_050 {
            let start = Timestamp(seconds: minute.seconds + Int64(i) * 60, offset: 3600)
            let end = Timestamp(seconds: start.seconds + 60, offset: 3600)
            many.append(
                Sample(
                    type: "HKQuantityTypeIdentifierStepCount", metric: Catalog.metric(forType: "HKQuantityTypeIdentifierStepCount"),
                    source: "Ann’s iPhone", unit: "count", value: Double(i % 40), canonicalValue: Double(i % 40), start: start, end: end))
        }
        _ = try T.run(try HealthStore(path: path), T.meta(sha: "one")) { session in
            for s in samples + many { session.sample(s) }
        }
        let written = try T.rows(path, "SELECT id, key_digest FROM sample_records ORDER BY id")
        XCTAssertEqual(written.count, 4 + 10_050)

        let db = try SQLiteConnection(path: path)
        try db.execute(
            """
            BEGIN;
            DROP INDEX sample_records_natural_key;
            ALTER TABLE sample_records DROP COLUMN key_digest;
            CREATE UNIQUE INDEX sample_records_natural_key ON sample_records (
                person, type_id, start_epoch, end_epoch, source_id, ifnull(value, ''), ifnull(value_text, ''), ifnull(unit, ''), metadata_digest
            );
            PRAGMA user_version = 5;
            COMMIT;
            """)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM pragma_table_info('sample_records') WHERE name = 'key_digest'"), 0)

        let store = try HealthStore(path: path)
        XCTAssertEqual(try store.schemaVersion(), StoreSchema.currentVersion)
        XCTAssertEqual(try T.rows(path, "SELECT id, key_digest FROM sample_records ORDER BY id"), written)
        XCTAssertEqual(
            try T.rows(path, "SELECT name FROM pragma_index_info('sample_records_natural_key') ORDER BY seqno").map { $0[0] },
            ["person", "type_id", "start_epoch", "key_digest"])

        let again = try T.run(store, T.meta(sha: "two")) { session in
            for s in samples + many { session.sample(s) }
        }
        XCTAssertEqual(again.samplesRead, 4 + 10_050)
        XCTAssertEqual(again.samplesAdded, 0)

        // A version 5 build that opened the store before the upgrade writes rows without a
        // digest: NULL keeps them apart (the same sample twice is two rows), none is left out.
        try db.execute(
            """
            INSERT OR IGNORE INTO sample_records (person, import_id, type_id, source_id, start_epoch, start_offset, end_epoch, end_offset)
              VALUES ('me', 1, 1, 1, 1704153600, 3600, 1704153660, 3600), ('me', 1, 1, 1, 1704153600, 3600, 1704153660, 3600);
            """)
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_records WHERE key_digest IS NULL"), 2)
    }
}
