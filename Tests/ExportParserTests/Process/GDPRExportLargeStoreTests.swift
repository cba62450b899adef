import Foundation
import XCTest

@testable import ExportParser

/// A large person exported by the real executable in flat memory: peak RSS under 100 MB. The
/// store is made in SQL (a few seconds, where converting an export that size would take a
/// minute in a debug build); the rows/s printed are the debug build's, the release build's are
/// in docs/gdpr.md.
final class GDPRExportLargeStoreTests: XCTestCase {
    static let samples = 300_000

    func testLargeStoreExportsInFlatMemory() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("health.sqlite").path
        let seed = dir.appendingPathComponent("big.xml")
        try GDPRTestSupport.ownExport(source: "Big’s Watch", metadataValue: "big", day: "2024-01-01").write(
            to: seed, atomically: true, encoding: .utf8)
        _ = try ConvertJob(
            ConvertRequest(inputs: [seed.path], outDir: dir.appendingPathComponent("out").path, storePath: store, person: "big")
        ).run()
        do {
            let db = try SQLiteConnection(path: store)
            try db.execute(
                """
                BEGIN;
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(Self.samples))
                INSERT INTO sample_records (person, import_id, type_id, source_id, source_version, device_id, unit, value, payload_value,
                    created_epoch, created_offset, start_epoch, start_offset, end_epoch, end_offset, is_bucket, metadata_digest)
                SELECT 'big', (SELECT min(id) FROM imports), (SELECT min(type_id) FROM sample_records), (SELECT min(id) FROM sources),
                    '10.2', (SELECT min(id) FROM devices), 'count/min', 60 + i % 50 + 0.25, 60 + i % 50 + 0.25,
                    1700000000 + i * 60 + 30, 3600, 1700000000 + i * 60, 3600, 1700000000 + i * 60 + 30, 3600, 0, i FROM n;
                UPDATE sample_records SET metadata_json = '{"HKMetadataKeyHeartRateMotionContext":"1"}' WHERE id % 3 = 0;
                COMMIT;
                """)
        }
        let rows = try StoreTestSupport.count(store, "SELECT count(*) FROM sample_records WHERE person = 'big'")
        XCTAssertGreaterThan(rows, Self.samples)

        // Python runs the tool as its only child, so the child's peak RSS is the tool's alone.
        let script = """
            import resource, subprocess, sys, time
            start = time.monotonic()
            status = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL)
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, time.monotonic() - start)
            sys.exit(status)
            """
        // To a zip only: a folder is written from the same stream of rows, file by file, where the
        // zip adds its entries' deflating and central directory (a debug build takes 20 s each).
        let path = dir.appendingPathComponent("big.zip").path
        let (status, text) = try GDPRTestSupport.python(
            script, [TestPaths.tool.path, "gdpr-export", "--store", store, "--person", "big", "--out", path])
        XCTAssertEqual(status, 0)
        let parts = String(decoding: text, as: UTF8.self).split(separator: " ").map {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        let peakMB = parts[0] / 1024, seconds = parts[1]
        print(
            "gdpr-export of \(rows) samples to \((path as NSString).lastPathComponent): \(Int(Double(rows) / seconds)) rows/s, peak RSS \(Int(peakMB)) MB (debug build)"
        )
        // Not under a sanitizer (shadow memory); the normal run proves the bound.
        if !TestEnvironment.underSanitizer { XCTAssertLessThan(peakMB, 100, "peak RSS") }
    }
}
