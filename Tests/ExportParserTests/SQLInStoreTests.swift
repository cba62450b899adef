import Foundation
import XCTest

/// The house rule of docs/architecture.md, "SQL only in Store/": no Swift file under `Sources/`
/// outside `Sources/ExportParser/Store/` holds SQL or reaches SQLite itself, so a second store
/// (the PostgreSQL one of the fleet) needs only a second implementation of Store/'s protocols.
///
/// There is no allow-list: nothing outside Store/ has to speak SQL (the one text that did, the
/// command line `erase` suggests for its last step, is the store's `lastStepByHand`).
final class SQLInStoreTests: XCTestCase {
    /// What counts as SQL (the statements' first words, as the tool writes them) or as knowing
    /// that the store is SQLite (its connection, its statement calls, the C module).
    static let markers = [
        "SELECT ", "INSERT ", "UPDATE ", "DELETE FROM", "CREATE ", "PRAGMA", ".prepare(", ".execute(", "SQLiteConnection",
        "import CSQLite", "store.db", "sqlite3_",
    ]

    /// Every `file:line: marker` under `sources` (a `Sources/` folder) outside
    /// `ExportParser/Store/`.
    static func findings(under sources: URL) throws -> [String] {
        let store = sources.appendingPathComponent("ExportParser/Store").standardizedFileURL.path + "/"
        guard let walk = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else { return [] }
        var out: [String] = []
        for case let url as URL in walk where url.pathExtension == "swift" {
            let path = url.standardizedFileURL.path
            if path.hasPrefix(store) { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for marker in markers where line.contains(marker) {
                    out.append("\(path.dropFirst(sources.standardizedFileURL.path.count + 1)):\(i + 1): \(marker)")
                }
            }
        }
        return out.sorted()
    }

    func testNoSQLOutsideStore() throws {
        let sources = TestPaths.repoRoot.appendingPathComponent("Sources")
        let found = try Self.findings(under: sources)
        XCTAssertEqual(found, [], "SQL outside Sources/ExportParser/Store/ (move it behind a type of Store/): \(found)")
    }

    /// The scan finds what it should: a query in Commands/ and a PRAGMA in Receiver/ are named,
    /// the same text inside Store/ (and in a file that is not Swift) is not.
    func testTheScanFindsSQLOutsideStore() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sql-in-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try write("ExportParser/Commands/CountJob.swift", "let a = 1\nlet s = try db.prepare(\"SELECT count(*) FROM imports\")\n")
        try write("Receiver/Open.swift", "// nothing\n\ntry x.run(\"PRAGMA synchronous = FULL\")\n")
        try write("ExportParser/Store/Counts.swift", "let s = try db.prepare(\"SELECT count(*) FROM imports\")\n")
        try write("ExportParser/Commands/notes.md", "SELECT * FROM imports\n")
        // Line 2 of CountJob holds two markers (".prepare(" and "SELECT "); line 3 of Open.swift one.
        XCTAssertEqual(
            try Self.findings(under: root),
            [
                "ExportParser/Commands/CountJob.swift:2: .prepare(", "ExportParser/Commands/CountJob.swift:2: SELECT ",
                "Receiver/Open.swift:3: PRAGMA",
            ])
    }
}
