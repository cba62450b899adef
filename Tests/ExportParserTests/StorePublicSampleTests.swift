import Foundation
import XCTest

@testable import ExportParser

/// Every public export sample (`TestPaths.publicExports`) read by the export reader into
/// one store, each file as its own person: the rows per type equal an independent count of the
/// file's top-level `<Record` elements (less exact duplicates, which the store keeps once, and
/// records whose dates the reader could not read).
final class StorePublicSampleTests: XCTestCase {
    typealias T = StoreTestSupport

    override func setUpWithError() throws { try TestPaths.requirePublicSamples() }

    /// Natural keys of top-level records, read with plain string scanning: type, source, start,
    /// end, value and unit as written.
    static func independentKeys(_ text: String) -> [String: Set<String>] {
        func attribute(_ tag: Substring, _ name: String) -> String { PublicSampleTests.attribute(tag, name) ?? "" }
        var keys: [String: Set<String>] = [:]
        for tag in PublicSampleTests.topLevelRecordTags(text) {
            let value = attribute(tag, "value")
            let number = Double(value).map { String($0) } ?? value
            let key = [
                attribute(tag, "sourceName"), attribute(tag, "startDate"), attribute(tag, "endDate"), number, attribute(tag, "unit"),
            ]
            .joined(separator: "\u{1F}")
            keys[attribute(tag, "type"), default: []].insert(key)
        }
        return keys
    }

    func testEveryPublicExportInOneStoreHasItsRecordsByType() throws {
        let files = try PublicSampleTests.exportFiles().filter { $0.pathExtension == "xml" }
        guard !files.isEmpty else { throw XCTSkip("no public samples beside the repository") }
        let dir = try T.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("public.sqlite").path
        let store = try HealthStore(path: path)
        var checkedRecords = 0
        for url in files {
            let raw = try String(contentsOf: url, encoding: .utf8)
            let text = PublicSampleTests.wrapIfFragment(raw)
            let person = url.path.replacingOccurrences(of: TestPaths.publicExports.path + "/", with: "")
            let session = try store.beginImport(
                T.meta(person: person, sha: FileDigest.sha256(bytes: Array(text.utf8)), file: url.lastPathComponent))
            let report = try AppleExportReader.read(data: Data(text.utf8), name: url.lastPathComponent, into: session)
            let result = try session.complete(days: [], report: report)

            let records = PublicSampleTests.independentCount(raw)
            let keys = Self.independentKeys(raw)
            let dateSkips = report.skips.filter { $0.key.lowercased().contains("date") }.values.reduce(0, +)
            let stored = Dictionary(
                uniqueKeysWithValues: try T.rows(
                    path,
                    """
                    SELECT type, count(*) FROM samples WHERE person = '\(person.replacingOccurrences(of: "'", with: "''"))' GROUP BY type
                    """
                ).map { ($0[0], Int($0[1])!) })
            let read = Dictionary(
                uniqueKeysWithValues: try T.rows(
                    path,
                    """
                    SELECT record_type, records_read FROM import_record_counts WHERE import_id = \(result.importID)
                    """
                ).map { ($0[0], Int($0[1])!) })
            XCTAssertEqual(read, records, "\(person): records read by type")
            if dateSkips == 0 {
                XCTAssertEqual(stored, keys.mapValues(\.count), "\(person): rows by type = distinct top-level records by type")
            } else {
                XCTAssertLessThanOrEqual(stored.values.reduce(0, +), records.values.reduce(0, +), person)
            }
            XCTAssertEqual(
                try T.count(path, "SELECT count(*) FROM workouts WHERE import_id = \(result.importID)"),
                result.rowsAdded["workouts"] ?? 0, person)
            XCTAssertLessThanOrEqual(result.rowsAdded["workouts"] ?? 0, raw.components(separatedBy: "<Workout ").count - 1, person)
            checkedRecords += records.values.reduce(0, +)
        }
        XCTAssertGreaterThan(checkedRecords, 1000)
        XCTAssertEqual(try T.rows(path, "PRAGMA integrity_check"), [["ok"]])
        // HEALTH_IMPORT_KEEP_STORE=FILE keeps a copy to try queries on (docs/store.md).
        if let keep = ProcessInfo.processInfo.environment["HEALTH_IMPORT_KEEP_STORE"] {
            try store.db.execute("VACUUM INTO '\(keep.replacingOccurrences(of: "'", with: "''"))'")
        }
        print(
            "public samples: \(files.count) files, \(checkedRecords) top-level records, \(try T.count(path, "SELECT count(*) FROM samples")) sample rows"
        )
    }
}
