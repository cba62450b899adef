import Foundation
import XCTest

@testable import ExportParser

/// kill -9 of a real `health-import convert` while it writes the store leaves the store as it
/// was before that import or with the import complete, never in between.
final class StoreKillTests: XCTestCase {
    typealias T = StoreTestSupport

    /// An export.xml of `records` step and heart-rate records, one a minute from 2024-01-01.
    static func exportXML(records: Int) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE HealthData [
            <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
            ]>
            <HealthData locale="en_US">
             <ExportDate value="2024-03-01 10:00:00 +0100"/>
             <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>

            """
        out.reserveCapacity(records * 330)
        let base = Int64(1_704_063_600)  // 2024-01-01 00:00:00 +0100
        for i in 0..<records {
            let t = base + Int64(i) * 60
            let start = Self.exportDate(t), end = Self.exportDate(t + 30)
            if i % 2 == 0 {
                out +=
                    #" <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Ann’s iPhone" sourceVersion="17.2" "#
                    + #"device="&lt;&lt;HKDevice: 0x28\#(i)&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone&gt;" unit="count" "#
                    + #"creationDate="\#(end)" startDate="\#(start)" endDate="\#(end)" value="\#(i % 120 + 1)"/>"# + "\n"
            } else {
                out +=
                    #" <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Ann’s Apple Watch" sourceVersion="10.2" unit="count/min" "#
                    + #"creationDate="\#(end)" startDate="\#(start)" endDate="\#(start)" value="\#(60 + i % 50)">"#
                    + #"<MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/></Record>"# + "\n"
            }
        }
        out += "</HealthData>\n"
        return out
    }

    static func exportDate(_ seconds: Int64) -> String {
        let iso = CivilDate.isoTimestamp(seconds: seconds, offset: 3600)  // 2024-01-01T00:00:00+01:00
        return String(iso.prefix(10)) + " " + String(iso.dropFirst(11).prefix(8)) + " +0100"
    }

    func runTool(_ args: [String]) throws -> Process {
        let p = Process()
        p.executableURL = TestPaths.tool
        p.arguments = args
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    func testKillDuringConvertLeavesTheStoreBeforeOrComplete() throws {
        let tool = TestPaths.tool
        guard FileManager.default.isExecutableFile(atPath: tool.path) else {
            throw XCTSkip("no built health-import at \(tool.path)")
        }
        let help = Process()
        let pipe = Pipe()
        help.executableURL = tool
        help.arguments = ["convert", "--help"]
        help.standardOutput = pipe
        help.standardError = pipe
        try help.run()
        let helpText = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        help.waitUntilExit()
        guard helpText.contains("--store") else {
            throw XCTSkip("health-import convert has no --store option yet")
        }

        let dir = try T.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let earlier = dir.appendingPathComponent("earlier.xml").path
        let later = dir.appendingPathComponent("later.xml").path
        try Self.exportXML(records: 4000).write(toFile: earlier, atomically: true, encoding: .utf8)
        try Self.exportXML(records: 24000).write(toFile: later, atomically: true, encoding: .utf8)
        let laterSHA = try FileDigest.sha256(path: later)

        // The store as it was before: the earlier export imported completely.
        let before = dir.appendingPathComponent("before.sqlite").path
        let first = try runTool(["convert", earlier, "--out", dir.appendingPathComponent("out0").path, "--store", before, "--quiet"])
        first.waitUntilExit()
        XCTAssertEqual(first.terminationStatus, 0)
        let samplesBefore = try T.count(before, "SELECT count(*) FROM samples")
        XCTAssertEqual(samplesBefore, 4000)

        // How long an uninterrupted import of the later export takes, to aim the kills inside it.
        let full = dir.appendingPathComponent("full.sqlite").path
        try FileManager.default.copyItem(atPath: before, toPath: full)
        let t0 = Date()
        let whole = try runTool(["convert", later, "--out", dir.appendingPathComponent("outF").path, "--store", full, "--quiet"])
        whole.waitUntilExit()
        let duration = Date().timeIntervalSince(t0)
        XCTAssertEqual(whole.terminationStatus, 0)
        XCTAssertEqual(try T.count(full, "SELECT count(*) FROM samples"), 24000)

        var outcomes: [String] = []
        for round in 0..<6 {
            let path = dir.appendingPathComponent("kill\(round).sqlite").path
            try FileManager.default.copyItem(atPath: before, toPath: path)
            let p = try runTool(["convert", later, "--out", dir.appendingPathComponent("out\(round)").path, "--store", path, "--quiet"])
            // Spread over the run, from start-up to about its end, so some kills land in the
            // commit and some runs finish.
            let delay = Double.random(in: (duration * 0.2)...(duration * 1.05))
            Thread.sleep(forTimeInterval: delay)
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()

            let store = try HealthStore(path: path)
            let samples = try T.count(path, "SELECT count(*) FROM samples")
            let imports = try T.count(path, "SELECT count(*) FROM imports")
            let unfinished = try T.count(path, "SELECT count(*) FROM imports WHERE finished_at IS NULL")
            XCTAssertEqual(unfinished, 0, "round \(round)")
            if try store.existingImport(person: "me", sha256: laterSHA) != nil {
                XCTAssertEqual(imports, 2, "round \(round)")
                XCTAssertEqual(samples, 24000, "round \(round): the later import is complete")
                XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_metadata"), 12000, "round \(round)")
                outcomes.append(String(format: "complete (%.2f s)", delay))
            } else {
                XCTAssertEqual(imports, 1, "round \(round)")
                XCTAssertEqual(samples, samplesBefore, "round \(round): the store is as before")
                XCTAssertEqual(try T.count(path, "SELECT count(*) FROM sample_metadata"), 2000, "round \(round)")
                outcomes.append(String(format: "before (%.2f s)", delay))
            }
            XCTAssertEqual(try T.rows(path, "PRAGMA integrity_check"), [["ok"]], "round \(round)")
            _ = store
        }
        // A first import into a new store: afterwards there is no import at all, or the whole one.
        for round in 0..<3 {
            let path = dir.appendingPathComponent("fresh\(round).sqlite").path
            let p = try runTool(["convert", later, "--out", dir.appendingPathComponent("outN\(round)").path, "--store", path, "--quiet"])
            Thread.sleep(forTimeInterval: Double.random(in: (duration * 0.2)...(duration * 1.05)))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            guard FileManager.default.fileExists(atPath: path) else { outcomes.append("no store"); continue }
            let store = try HealthStore(path: path)
            let imports = try T.count(path, "SELECT count(*) FROM imports")
            let samples = try T.count(path, "SELECT count(*) FROM samples")
            XCTAssertTrue(
                (imports == 0 && samples == 0) || (imports == 1 && samples == 24000),
                "fresh round \(round): \(imports) imports, \(samples) samples")
            XCTAssertEqual(try T.rows(path, "PRAGMA integrity_check"), [["ok"]], "fresh round \(round)")
            XCTAssertEqual(try T.mode(path), 0o600)
            outcomes.append(imports == 0 ? "fresh: empty" : "fresh: complete")
            _ = store
        }
        print("kill -9 rounds (import took \(String(format: "%.2f", duration)) s): \(outcomes)")
    }
}
