import Foundation
import XCTest

@testable import ExportParser

/// Helpers shared by the store tests: temporary stores, timestamps, hand-built inputs, raw
/// queries through the store's own connection type.
enum StoreTestSupport {
    /// A new folder under the temporary directory, removed when the test bundle has run
    /// (`TemporaryFolders`).
    static func temporaryDirectory(_ name: String = #function) throws -> URL {
        try TemporaryFolders.shared.make("store-tests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
    }

    static func ts(_ s: String) -> Timestamp {
        guard let t = TimestampParser.parse(s) else { fatalError("bad test timestamp \(s)") }
        return t
    }

    static func meta(person: String = "me", sha: String, file: String = "export.xml", format: InputFormat = .appleXML) -> ImportMetadata {
        ImportMetadata(
            person: person, fileName: file, sha256: sha, format: format, toolVersion: "test-1.0",
            startedAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    static func steps(_ start: String, _ end: String, _ value: Double, source: String = "Ann’s iPhone") -> Sample {
        let m = Catalog.metric(forType: "HKQuantityTypeIdentifierStepCount")
        return Sample(
            type: "HKQuantityTypeIdentifierStepCount", metric: m, source: source, sourceVersion: "17.2",
            unit: "count", valueText: String(Int(value)), value: value, canonicalValue: value,
            start: ts(start), end: ts(end))
    }

    static func run(
        _ store: HealthStore, _ meta: ImportMetadata, days: [FinishedDay] = [], report: ReadReport = ReadReport(),
        _ feed: (StoreImportSession) -> Void
    ) throws -> StoreImportResult {
        let session = try store.beginImport(meta)
        feed(session)
        return try session.complete(days: days, report: report)
    }

    /// Rows of a query as strings (NULL → "NULL"), through a separate read-only connection.
    static func rows(_ path: String, _ sql: String) throws -> [[String]] {
        let db = try SQLiteConnection(path: path, readOnly: true)
        let s = try db.prepare(sql)
        var out: [[String]] = []
        let n = sqlite3ColumnCount(s)
        while try s.step() {
            out.append((0..<n).map { s.isNull($0) ? "NULL" : (s.text($0) ?? "NULL") })
        }
        return out
    }

    static func count(_ path: String, _ sql: String) throws -> Int {
        Int(try rows(path, sql).first?.first ?? "0") ?? -1
    }

    static func sqlite3ColumnCount(_ s: Statement) -> Int32 { s.columnCount }

    static func mode(_ path: String) throws -> Int {
        let attrs = try FileManager.default.attributesOfItem(atPath: path)
        return (attrs[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
