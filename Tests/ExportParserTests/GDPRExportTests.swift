import Foundation
import XCTest

@testable import ExportParser

/// `gdpr-export`: every stored row of the person exactly once, none of anyone else's, a
/// manifest that matches the files, the zip the same as the folder, and each kind's JSON Lines
/// and CSV the same rows.
final class GDPRExportTests: XCTestCase {
    typealias G = GDPRTestSupport

    /// Rows of `table` the export holds: the rows of a file, or the entries of a JSON column.
    private func exported(_ table: String, _ files: [String: [[String: Any]]]) -> Int {
        func rows(_ kind: String) -> [[String: Any]] { files[kind] ?? [] }
        func sum(_ kind: String, _ body: ([String: Any]) -> Int) -> Int { rows(kind).reduce(0) { $0 + body($1) } }
        func entries(_ value: Any?) -> Int { (value as? [Any])?.count ?? (value as? [String: Any])?.count ?? 0 }
        switch table {
        case "sample_records": return rows("samples").count
        case "sample_metadata": return sum("samples") { entries($0["metadata"]) }
        case "import_record_counts": return sum("imports") { entries($0["record_counts"]) }
        case "import_skips": return sum("imports") { entries($0["skips"]) }
        case "correlation_metadata": return sum("correlations") { entries($0["metadata"]) }
        case "correlation_members": return sum("correlations") { entries($0["members"]) }
        case "workout_activities": return sum("workouts") { entries($0["activities"]) }
        case "workout_statistics": return sum("workouts") { entries($0["statistics"]) }
        case "workout_events": return sum("workouts") { entries($0["events"]) }
        case "workout_routes": return sum("workouts") { entries($0["routes"]) }
        case "workout_route_files":
            return sum("workouts") { w in ((w["routes"] as? [[String: Any]]) ?? []).reduce(0) { $0 + entries($1["files"]) } }
        case "workout_metadata":
            return sum("workouts") { w in
                entries(w["metadata"]) + ((w["activities"] as? [[String: Any]]) ?? []).reduce(0) { $0 + entries($1["metadata"]) }
            }
        default: return rows(table).count
        }
    }

    /// The ids a file gives (`sample_id` of samples.jsonl, …): numbered within the export, 1 to
    /// the person's rows in the store (not the store's ids, which count the other person's rows
    /// too), each once, in the file's order.
    private func assertSameIDs(_ file: [[String: Any]], _ key: String, _ store: String, _ sql: String, file line: String) throws {
        let ids = file.compactMap { ($0[key] as? NSNumber)?.int64Value }
        XCTAssertEqual(ids.count, file.count, "\(line): every row has \(key)")
        let stored = try G.rows(store, sql, "ann").map { Int64($0[0])! }
        XCTAssertEqual(ids, Array(1...Int64(stored.count)), line)
    }

    func testEveryRowOfThePersonOnceAndNoneOfTheOthers() throws {
        let (dir, store) = try G.twoPersonStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("ann-export").path
        let outcome = try GDPRExportJob(GDPRExportRequest(storePath: store, person: "ann", outPath: out)).run()

        var files: [String: [[String: Any]]] = [:]
        for kind in ExportKinds.all() { files[kind.name] = try G.jsonLines(out + "/" + kind.jsonLinesName) }
        for table in PersonRows.tables {
            let stored = try G.count(store, table: table.name, person: "ann")
            XCTAssertGreaterThan(stored, 0, "the fixtures give ann rows in \(table.name)")
            XCTAssertEqual(exported(table.name, files), stored, table.name)
        }
        try assertSameIDs(files["samples"]!, "sample_id", store, "SELECT id FROM sample_records WHERE person = ?1", file: "samples")
        try assertSameIDs(files["imports"]!, "import_id", store, "SELECT id FROM imports WHERE person = ?1", file: "imports")
        try assertSameIDs(files["workouts"]!, "workout_id", store, "SELECT id FROM workouts WHERE person = ?1", file: "workouts")
        try assertSameIDs(
            files["correlations"]!, "correlation_id", store, "SELECT id FROM correlations WHERE person = ?1", file: "correlations")
        try assertSameIDs(files["extra_items"]!, "item_id", store, "SELECT id FROM extra_items WHERE person = ?1", file: "extra_items")
        try assertSameIDs(files["sources"]!, "source_id", store, "SELECT id FROM sources WHERE person = ?1", file: "sources")
        try assertSameIDs(files["devices"]!, "device_id", store, "SELECT id FROM devices WHERE person = ?1", file: "devices")
        // References use the same numbers: every import_id is an imports row, every HRV beat's
        // sample_id a samples row.
        let importIDs = Set(files["imports"]!.compactMap { ($0["import_id"] as? NSNumber)?.int64Value })
        for kind in ["samples", "workouts", "correlations", "day_values", "import_day_values", "extra_items"] {
            for row in files[kind]! { XCTAssertTrue(importIDs.contains(((row["import_id"] as? NSNumber)?.int64Value)!), kind) }
        }
        let sampleIDs = Set(files["samples"]!.compactMap { ($0["sample_id"] as? NSNumber)?.int64Value })
        for beat in files["hrv_beats"]! { XCTAssertTrue(sampleIDs.contains(((beat["sample_id"] as? NSNumber)?.int64Value)!)) }
        let dayKeys = files["day_values"]!.map { "\($0["date"]!) \($0["field"]!)" }
        XCTAssertEqual(Set(dayKeys).count, dayKeys.count, "a day value twice")
        XCTAssertEqual(
            files["daily"]!.count, try G.rows(store, "SELECT count(*) FROM daily WHERE person = ?1", "ann")[0].first.map { Int($0)! })
        XCTAssertEqual(
            files["daily"]!.compactMap { $0["date"] as? String },
            try G.rows(store, "SELECT date FROM daily WHERE person = ?1 ORDER BY date", "ann").map { $0[0] })

        // Nothing of bob's: his distinctive strings are in the store, in no file of ann's export.
        XCTAssertTrue(G.fileContains(store, G.bobSource) || G.fileContains(store + "-wal", G.bobSource))
        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        for name in names {
            XCTAssertFalse(G.fileContains(out + "/" + name, G.bobSource), name)
            XCTAssertFalse(G.fileContains(out + "/" + name, G.bobMetadataValue), name)
        }
        XCTAssertTrue(G.fileContains(out + "/samples.jsonl", G.annMetadataValue))
        XCTAssertEqual(outcome.rows, ExportKinds.all().reduce(0) { $0 + files[$1.name]!.count })
    }

    func testManifestMatchesTheFilesAndFilesAre0600() throws {
        let (dir, store) = try G.twoPersonStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("ann-export").path
        _ = try GDPRExportJob(GDPRExportRequest(storePath: store, person: "ann", outPath: out)).run()
        let manifest = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [String: Any])
        XCTAssertEqual(manifest["person"] as? String, "ann")
        XCTAssertEqual(manifest["tool_version"] as? String, ExportParserVersion.current)
        XCTAssertEqual(manifest["store_schema_version"] as? Int, StoreSchema.currentVersion)
        XCTAssertNotNil(manifest["created_at"] as? String)
        let listed = try XCTUnwrap(manifest["files"] as? [[String: Any]])
        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        XCTAssertEqual(Set(listed.compactMap { $0["name"] as? String }), Set(names).subtracting(["manifest.json"]))
        XCTAssertEqual(try StoreTestSupport.mode(out), 0o700)
        for name in names { XCTAssertEqual(try StoreTestSupport.mode(out + "/" + name), 0o600, name) }
        for entry in listed {
            let name = try XCTUnwrap(entry["name"] as? String)
            let path = out + "/" + name
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            XCTAssertEqual((entry["bytes"] as? NSNumber)?.intValue, data.count, name)
            XCTAssertEqual(entry["sha256"] as? String, try FileDigest.sha256(path: path), name)
            if name.hasSuffix(".jsonl") {
                XCTAssertEqual(entry["rows"] as? Int, data.filter { $0 == 0x0A }.count, name)
            } else if name.hasSuffix(".csv") {
                XCTAssertEqual(entry["rows"] as? Int, try G.csv(path).rows.count, name)
            } else {
                XCTAssertTrue(entry["rows"] is NSNull, name)
            }
        }
    }

    /// Each kind's two files hold the same rows: cell by cell, a JSON value and its CSV text
    /// (null and an empty cell; a JSON column and its text parsed).
    func testJSONLinesAndCSVHoldTheSameRows() throws {
        let (dir, store) = try G.twoPersonStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("ann-export").path
        _ = try GDPRExportJob(GDPRExportRequest(storePath: store, person: "ann", outPath: out)).run()
        for kind in ExportKinds.all() {
            let lines = try G.jsonLines(out + "/" + kind.jsonLinesName)
            let (header, rows) = try G.csv(out + "/" + kind.csvName)
            XCTAssertEqual(header, kind.columns.map(\.name), kind.name)
            XCTAssertEqual(lines.count, rows.count, kind.name)
            for (line, row) in zip(lines, rows) {
                XCTAssertEqual(row.count, header.count, kind.name)
                XCTAssertEqual(Set(line.keys), Set(header), kind.name)
                for (column, cell) in zip(kind.columns, row) {
                    let value = line[column.name]
                    let what = "\(kind.name).\(column.name)"
                    if column.form.isJSON {
                        let parsed = try cell.map { try JSONSerialization.jsonObject(with: Data($0.utf8), options: [.fragmentsAllowed]) }
                        XCTAssertEqual(parsed as? NSObject, value as? NSObject, what)
                        continue
                    }
                    switch value {
                    case nil, is NSNull:
                        XCTAssertNil(cell, what)
                    case let text as String:
                        XCTAssertEqual(cell, text, what)
                    case let number as NSNumber:
                        // Both files hold the same digits; Foundation's JSON parser can land a
                        // few ulps from the nearest double, so compare within 1e-12.
                        let csv = try XCTUnwrap(cell.flatMap(Double.init), what)
                        XCTAssertEqual(csv, number.doubleValue, accuracy: max(abs(csv), 1) * 1e-12, what)
                    default:
                        XCTFail("\(what): \(String(describing: value)) in a column that is not JSON")
                    }
                }
            }
        }
    }

    /// The zip holds the same files, byte for byte, as the folder (made at the same instant);
    /// so does a zip with every ZIP64 form forced. Python's zipfile reads both and checks every
    /// CRC; `unzip -t` too where it is installed.
    func testZipHoldsTheSameFilesAsTheFolder() throws {
        let (dir, store) = try G.twoPersonStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        let at = Date(timeIntervalSince1970: 1_750_000_000)
        func export(_ path: String, zip64: Bool = false) throws {
            let job = try GDPRExportJob(GDPRExportRequest(storePath: store, person: "ann", outPath: path))
            job.createdAt = at
            if zip64 {
                job.zipSizeLimit = 0
                job.zipCountLimit = 0
            }
            _ = try job.run()
        }
        let folder = dir.appendingPathComponent("ann").path, zip = dir.appendingPathComponent("ann.zip").path
        let zip64 = dir.appendingPathComponent("ann64.zip").path
        try export(folder)
        try export(zip)
        try export(zip64, zip64: true)
        XCTAssertEqual(try StoreTestSupport.mode(zip), 0o600)
        var expected: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            expected[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        XCTAssertEqual(try G.unzip(zip), expected)
        XCTAssertEqual(try G.unzip(zip64), expected)
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") {
            for path in [zip, zip64] {
                let p = Process()
                p.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
                p.arguments = ["-tq", path]
                p.standardOutput = FileHandle.nullDevice
                try p.run()
                p.waitUntilExit()
                XCTAssertEqual(p.terminationStatus, 0, "unzip -t \(path)")
            }
        }
    }

    /// A sample's metadata is read by walking `sample_metadata` beside the samples (one walk for
    /// every person), so each row's object must hold its own entries, in their order, and none
    /// of the record before or after it, even where two persons' imports take turns: bob, ann,
    /// bob again (ann's ids lie between bob's). Checked for both persons, in both forms, against
    /// the store's entries per sample id.
    func testSampleMetadataBelongsToItsSampleWhenPersonsTakeTurns() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("health.sqlite").path
        let turns = [("bob", "b-1", "2024-03-10"), ("ann", "a-1", "2024-03-11"), ("bob", "b-2", "2024-03-12")]
        for (i, (person, value, day)) in turns.enumerated() {
            let input = dir.appendingPathComponent("in-\(i).xml")
            try G.ownExport(source: "\(person)’s watch", metadataValue: value, day: day).write(to: input, atomically: true, encoding: .utf8)
            _ = try ConvertJob(
                ConvertRequest(inputs: [input.path], outDir: dir.appendingPathComponent("out-\(i)").path, storePath: store, person: person)
            ).run()
        }
        for person in ["ann", "bob"] {
            var stored: [Int64: [String: String]] = [:]
            let sql = """
                SELECT m.sample_id, m.key, m.value FROM sample_metadata m JOIN sample_records r ON r.id = m.sample_id
                WHERE r.person = ?1 ORDER BY m.sample_id, m.position
                """
            // The export numbers the person's samples 1, 2, … in the store's id order.
            let order = try G.rows(store, "SELECT id FROM sample_records WHERE person = ?1 ORDER BY id", person).map { Int64($0[0])! }
            let number = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, Int64($0 + 1)) })
            for row in try G.rows(store, sql, person) { stored[number[Int64(row[0])!]!, default: [:]][row[1]] = row[2] }
            let out = dir.appendingPathComponent("\(person)-export").path
            _ = try GDPRExportJob(GDPRExportRequest(storePath: store, person: person, outPath: out)).run()
            let lines = try G.jsonLines(out + "/samples.jsonl")
            let (header, cells) = try G.csv(out + "/samples.csv")
            let idColumn = try XCTUnwrap(header.firstIndex(of: "sample_id")),
                metadataColumn = try XCTUnwrap(header.firstIndex(of: "metadata"))
            // Each own export has 2 records; bob's two imports give 4, one with HKExternalUUID each.
            XCTAssertEqual(lines.count, person == "bob" ? 4 : 2, person)
            XCTAssertEqual(stored.count, person == "bob" ? 2 : 1, person)
            for (line, row) in zip(lines, cells) {
                let id = try XCTUnwrap((line["sample_id"] as? NSNumber)?.int64Value)
                XCTAssertEqual(row[idColumn], String(id))
                let fromCSV = try XCTUnwrap(
                    row[metadataColumn].flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] })
                XCTAssertEqual(line["metadata"] as? [String: String], stored[id] ?? [:], "\(person) sample \(id)")
                XCTAssertEqual(fromCSV, stored[id] ?? [:], "\(person) sample \(id) in CSV")
            }
            let values = Set(stored.values.compactMap { $0["HKExternalUUID"] })
            XCTAssertEqual(values, person == "bob" ? ["b-1", "b-2"] : ["a-1"], person)
        }
    }

    /// A person the store does not hold: exit 1, one sentence naming the store, nothing written.
    func testPersonNotInTheStoreWritesNothing() throws {
        let (dir, store) = try G.twoPersonStore()
        defer { try? FileManager.default.removeItem(at: dir) }
        for out in [dir.appendingPathComponent("zed").path, dir.appendingPathComponent("zed.zip").path] {
            XCTAssertThrowsError(try GDPRExportJob(GDPRExportRequest(storePath: store, person: "zed", outPath: out)).run()) { e in
                XCTAssertTrue("\(e)".contains("holds no data of the person \"zed\""), "\(e)")
            }
            let run = try G.tool(["gdpr-export", "--store", store, "--person", "zed", "--out", out])
            XCTAssertEqual(run.status, 1)
            XCTAssertEqual(run.err.split(separator: "\n").count, 1, run.err)
            XCTAssertTrue(run.err.contains(store), run.err)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains("zed") }
        XCTAssertEqual(left, [], "nothing written")
    }
}
