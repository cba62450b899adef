import Foundation
import XCTest

@testable import ExportParser

/// The store the GDPR tests share: two persons imported from different exports, HAE data for
/// one of them, each with a source name and a metadata value no one else has.
///
/// ann: the repository's sample export (workouts with parts, statistics, events and routes,
/// correlations, HRV beats, activity summaries, Me, a skipped record), an export of her own, and
/// two Health Auto Export files (workouts, extra arrays, sleep summaries).
/// bob: the twins export, rule fixture 14 and an export of his own.
enum GDPRTestSupport {
    static let annSource = "Ann’s Kestrel Ring"
    static let annMetadataValue = "kestrel-7731-ann"
    static let bobSource = "Bob’s Heron Band"
    static let bobMetadataValue = "heron-4412-bob"

    static func ownExport(source: String, metadataValue: String, day: String) -> String {
        export(
            record(
                "HKQuantityTypeIdentifierHeartRate", "61", unit: "count/min", source: source, start: "\(day) 07:00:00 +0100",
                children: #"<MetadataEntry key="HKExternalUUID" value="\#(metadataValue)"/>"#)
                + record(
                    "HKQuantityTypeIdentifierStepCount", "1234", unit: "count", source: source, start: "\(day) 08:00:00 +0100",
                    end: "\(day) 08:30:00 +0100"),
            exportDate: "\(day) 20:00:00 +0100")
    }

    /// A new store in a new folder with both persons in it.
    static func twoPersonStore() throws -> (dir: URL, store: String) {
        let dir = try StoreTestSupport.temporaryDirectory()
        let store = dir.appendingPathComponent("health.sqlite").path
        let annOwn = dir.appendingPathComponent("ann-own.xml"), bobOwn = dir.appendingPathComponent("bob-own.xml")
        try ownExport(source: annSource, metadataValue: annMetadataValue, day: "2024-03-10").write(
            to: annOwn, atomically: true, encoding: .utf8)
        try ownExport(source: bobSource, metadataValue: bobMetadataValue, day: "2024-03-11").write(
            to: bobOwn, atomically: true, encoding: .utf8)
        let fixtures = TestPaths.fixtures
        let bob = [
            fixtures.appendingPathComponent("twins/same-days.xml").path,
            fixtures.appendingPathComponent("rules/14-workout-statistics-vs-attributes.xml").path, bobOwn.path,
        ]
        let ann = [
            TestPaths.samples.appendingPathComponent("export.xml").path, annOwn.path,
            fixtures.appendingPathComponent("hae/workouts-v1-v2-extras-array-wrapped.json").path,
            fixtures.appendingPathComponent("hae/sleep-aggregated-generations.json").path,
        ]
        _ = try ConvertJob(ConvertRequest(inputs: bob, outDir: dir.appendingPathComponent("out-bob").path, storePath: store, person: "bob"))
            .run()
        _ = try ConvertJob(ConvertRequest(inputs: ann, outDir: dir.appendingPathComponent("out-ann").path, storePath: store, person: "ann"))
            .run()
        // What push records, for both (the push tests send for real; here only the rows matter).
        let db = try SQLiteConnection(path: store)
        for (person, date) in [("ann", "2026-03-22"), ("bob", "2024-03-02")] {
            try db.execute(
                """
                INSERT INTO pushes (person, endpoint, date, body_sha256, http_status, result, detail, attempts, pushed_at)
                VALUES ('\(person)', 'https://coach.example/sync/healthkit', '\(date)', 'sha', 200, 'accepted', NULL, 1, '2026-11-23T10:00:00Z')
                """)
        }
        // Bodies receive took for both, each naming its person's source (the export must carry ann's only).
        let received = try ReceivedBodyStore(path: store)
        for (person, source) in [("ann", annSource), ("bob", bobSource)] {
            let body = #"{"data": [{"date": "2026-03-22", "source": "\#(source)"}]}"#
            let check = try BorrowedBytes.lending(Array(body.utf8)) { ReceivedBodyCheck.check($0, endpoint: .app) }.get()
            _ = try Array(body.utf8).withUnsafeBytes {
                try received.keep($0, endpoint: .app, person: person, check: check, receivedAt: Date(timeIntervalSince1970: 1_795_000_000))
            }
        }
        // A fleet verdict of each (compare --everyone stores one a person).
        let verdicts = FleetVerdictTable(try HealthStore(path: store))
        for person in ["ann", "bob"] {
            let p = FleetPerson(person: person, status: .ready, exitStatus: 0, reason: "fields within tolerance of \(person)")
            try verdicts.write(
                try FleetVerdict(
                    p, run: .init(mode: "validate", days: 7), shard: .all, checkedAt: Date(timeIntervalSince1970: 1_795_000_000)))
        }
        return (dir, store)
    }

    /// Every row of the person in every table, as text, in a fixed order: to compare before and after.
    static func snapshot(_ store: String, person: String) throws -> [String: [[String]]] {
        var out: [String: [[String]]] = [:]
        for table in PersonRows.tables {
            out[table.name] = try rows(store, "SELECT * FROM \(table.name) WHERE \(table.predicate)", person)
        }
        for view in ["samples", "daily", "apple_daily_totals"] {
            out["view " + view] = try rows(store, "SELECT * FROM \(view) WHERE person = ?1", person)
        }
        // Sorted here, not by rowid: VACUUM may renumber the rowids of tables without an
        // INTEGER PRIMARY KEY, which is no change of their rows.
        return out.mapValues { $0.sorted { $0.lexicographicallyPrecedes($1) } }
    }

    /// Rows of a query with the person bound as ?1.
    static func rows(_ path: String, _ sql: String, _ person: String) throws -> [[String]] {
        let db = try SQLiteConnection(path: path, readOnly: true)
        let s = try db.prepare(sql)
        s.bind(1, person)
        var out: [[String]] = []
        while try s.step() {
            out.append((0..<s.columnCount).map { s.isNull($0) ? "NULL" : (s.text($0) ?? "NULL") })
        }
        return out
    }

    static func count(_ path: String, table: String, person: String) throws -> Int {
        let t = PersonRows.tables.first { $0.name == table }!
        return Int(try rows(path, "SELECT count(*) FROM \(t.name) WHERE \(t.predicate)", person)[0][0])!
    }

    /// Whether `needle`'s UTF-8 bytes occur anywhere in the file (false for no file).
    static func fileContains(_ path: String, _ needle: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return false }
        return data.range(of: Data(needle.utf8)) != nil
    }

    /// The lines of a JSON Lines file, parsed.
    static func jsonLines(_ path: String) throws -> [[String: Any]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed]) as? [String: Any])
        }
    }

    /// An RFC 4180 file: header and rows, each cell's text (nil for an empty unquoted cell).
    static func csv(_ path: String) throws -> (header: [String], rows: [[String?]]) {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var rows: [[String?]] = [], row: [String?] = [], cell: [UInt8] = [], quoted = false, inQuotes = false
        var i = 0
        func endCell() {
            row.append(cell.isEmpty && !quoted ? nil : String(decoding: cell, as: UTF8.self))
            cell = []
            quoted = false
        }
        while i < bytes.count {
            let c = bytes[i]
            if inQuotes {
                if c == 0x22 {
                    if i + 1 < bytes.count, bytes[i + 1] == 0x22 { cell.append(0x22); i += 1 } else { inQuotes = false }
                } else {
                    cell.append(c)
                }
            } else if c == 0x22 {
                inQuotes = true
                quoted = true
            } else if c == 0x2C {
                endCell()
            } else if c == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A {
                endCell()
                rows.append(row)
                row = []
                i += 1
            } else {
                cell.append(c)
            }
            i += 1
        }
        XCTAssertTrue(row.isEmpty && cell.isEmpty, "\(path) does not end with CRLF")
        guard let header = rows.first else { return ([], []) }
        return (header.map { $0 ?? "" }, Array(rows.dropFirst()))
    }

    /// Runs python3 with a script and arguments; its stdout and exit status.
    static func python(_ script: String, _ arguments: [String]) throws -> (status: Int32, out: Data) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script] + arguments
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, out)
    }

    /// The files of a zip (name → bytes) as Python's zipfile reads them, checking every CRC.
    static func unzip(_ path: String) throws -> [String: Data] {
        let script = """
            import base64, json, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as z:
                assert z.testzip() is None
                print(json.dumps({i.filename: base64.b64encode(z.read(i)).decode() for i in z.infolist()}))
            """
        let (status, out) = try python(script, [path])
        XCTAssertEqual(status, 0, "python's zipfile could not read \(path)")
        let map = try XCTUnwrap(try JSONSerialization.jsonObject(with: out) as? [String: String])
        return map.mapValues { Data(base64Encoded: $0)! }
    }

    /// Runs the built health-import; exit status, stdout, stderr.
    static func tool(_ args: [String], stdin: FileHandle? = nil) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = TestPaths.tool
        p.arguments = args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = stdin ?? FileHandle.nullDevice
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }
}
