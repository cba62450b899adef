import Foundation
import XCTest

@testable import ExportParser

/// Schema version 5: a sample's metadata is one JSON object in `sample_records.metadata_json`.
/// A version 4 store (built here by hand: the released v1–v4 migrations, then rows as the
/// version 4 writer wrote them, metadata as `sample_metadata` rows) migrates to it and reads the
/// same; a fresh import writes the same bytes the migration does.
final class StoreMetadataJSONMigrationTests: XCTestCase {
    typealias T = StoreTestSupport
    var dir: URL!
    var path: String { dir.appendingPathComponent("health.sqlite").path }

    override func setUpWithError() throws { dir = try T.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// The metadata rows of the hand-made version 4 store: (sample_id, position, key, value).
    /// Sample 1 has three entries, inserted out of order; sample 2 none; sample 3 repeats a key.
    private let v4Metadata: [(Int, Int, String, String)] = [
        (1, 1, "note", "say \"hi\"\\ back\t"),
        (1, 0, "HKTimeZone", "Europe/Amsterdam"),
        (1, 2, "Ann’s", "a\u{1}b"),
        (3, 0, "k", "1"),
        (3, 1, "k", "2"),
    ]

    private func makeVersion4Store() throws {
        let db = try SQLiteConnection(path: path)
        try db.execute("BEGIN")
        for v in 0..<4 { try db.execute(StoreSchema.migrations[v]) }
        try db.execute(
            """
            PRAGMA user_version = 4;
            INSERT INTO imports (id, person, file_name, file_sha256, format, tool_version, started_at)
              VALUES (1, 'me', 'export.xml', 'ab', 'apple_xml', 'v4', '2024-01-01T00:00:00Z');
            INSERT INTO sample_types (id, name) VALUES (1, 'HKQuantityTypeIdentifierHeartRate');
            INSERT INTO sources (id, person, name) VALUES (1, 'me', 'Watch');
            INSERT INTO sample_records (id, person, import_id, type_id, source_id, unit, value, start_epoch, start_offset, end_epoch,
              end_offset, metadata_digest)
              VALUES (1, 'me', 1, 1, 1, 'count/min', 61, 1704153600, 3600, 1704153600, 3600, 11),
                     (2, 'me', 1, 1, 1, 'count/min', 62, 1704153660, 3600, 1704153660, 3600, 0),
                     (3, 'me', 1, 1, 1, 'count/min', 63, 1704153720, 3600, 1704153720, 3600, 33);
            """)
        let insert = try db.prepare("INSERT INTO sample_metadata (sample_id, position, key, value) VALUES (?1, ?2, ?3, ?4)")
        for (id, position, key, value) in v4Metadata {
            insert.bind(1, id)
            insert.bind(2, position)
            insert.bind(3, key)
            insert.bind(4, value)
            try insert.run()
        }
        try db.execute("COMMIT")
    }

    func testAVersion4StoreMigratesAndReadsTheSame() throws {
        try makeVersion4Store()
        XCTAssertEqual(try T.count(path, "PRAGMA user_version"), 4)

        let store = try HealthStore(path: path)
        XCTAssertEqual(try store.schemaVersion(), StoreSchema.currentVersion)
        XCTAssertEqual(try T.count(path, "PRAGMA user_version"), StoreSchema.currentVersion)

        // Each sample's entries in position order as one object, each text escaped as
        // ExportBytes.appendJSONString does: `"` → \", `\` → \\, tab → \t, U+0001 → \u0001,
        // other characters (’) as they are. Sample 2 had no rows: NULL.
        XCTAssertEqual(
            try T.rows(path, "SELECT id, metadata_json FROM sample_records ORDER BY id"),
            [
                ["1", #"{"HKTimeZone":"Europe/Amsterdam","note":"say \"hi\"\\ back\t","Ann’s":"a\u0001b"}"#],
                ["2", "NULL"],
                ["3", #"{"k":"1","k":"2"}"#],
            ])
        // Nothing else about the samples changed.
        XCTAssertEqual(
            try T.rows(path, "SELECT id, value, start_epoch, metadata_digest FROM sample_records ORDER BY id"),
            [["1", "61.0", "1704153600", "11"], ["2", "62.0", "1704153660", "0"], ["3", "63.0", "1704153720", "33"]])

        // The table became a view with its columns, giving back every row as it was.
        XCTAssertEqual(try T.rows(path, "SELECT type FROM sqlite_master WHERE name = 'sample_metadata'"), [["view"]])
        let expected = v4Metadata.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map { ["\($0.0)", "\($0.1)", $0.2, $0.3] }
        XCTAssertEqual(
            try T.rows(path, "SELECT sample_id, position, key, value FROM sample_metadata ORDER BY sample_id, position"), expected)

        // `samples` keeps its columns and gains `metadata` last.
        let columns = try T.rows(path, "SELECT name FROM pragma_table_info('samples')").map { $0[0] }
        XCTAssertEqual(columns.first, "id")
        XCTAssertEqual(columns.last, "metadata")
        XCTAssertEqual(columns.count, 26)  // 25 columns in version 4 (the v1 view) + metadata
        XCTAssertEqual(try T.rows(path, "SELECT metadata ->> '$.HKTimeZone' FROM samples WHERE id = 1"), [["Europe/Amsterdam"]])

        // Reopening finds nothing to migrate.
        let again = try HealthStore(path: path)
        XCTAssertEqual(try again.schemaVersion(), StoreSchema.currentVersion)
    }

    /// The writer builds the object on the decoding thread (`StoreSample.Names`) with the same
    /// encoding as the migration: the same entries give the same bytes.
    func testAFreshImportWritesTheObjectTheMigrationWrites() throws {
        let store = try HealthStore(path: path)
        var s = T.steps("2024-01-02 08:00:00 +0100", "2024-01-02 08:05:00 +0100", 12)
        s.metadata = [
            MetadataEntry(key: "HKTimeZone", value: "Europe/Amsterdam"), MetadataEntry(key: "note", value: "say \"hi\"\\ back\t"),
            MetadataEntry(key: "Ann’s", value: "a\u{1}b"),
        ]
        let plain = T.steps("2024-01-02 09:00:00 +0100", "2024-01-02 09:05:00 +0100", 13)
        _ = try T.run(store, T.meta(sha: "fresh")) { session in
            session.sample(s)
            session.sample(plain)
        }
        XCTAssertEqual(
            try T.rows(path, "SELECT value, metadata_json FROM sample_records ORDER BY start_epoch"),
            [
                ["12.0", #"{"HKTimeZone":"Europe/Amsterdam","note":"say \"hi\"\\ back\t","Ann’s":"a\u0001b"}"#],
                ["13.0", "NULL"],
            ])
        XCTAssertEqual(
            try T.rows(path, "SELECT position, key, value FROM sample_metadata ORDER BY position"),
            [["0", "HKTimeZone", "Europe/Amsterdam"], ["1", "note", "say \"hi\"\\ back\t"], ["2", "Ann’s", "a\u{1}b"]])
    }
}
