import Foundation
import XCTest

@testable import ExportParser

/// The checked-in sample (samples/export.xml and the zip holding it) through the whole convert
/// command, against the payloads worked out by hand in samples/expected (arithmetic in
/// samples/EXPECTED.md); and every file written validated against the project's schema copy.
final class SampleExportTests: XCTestCase {
    private func convert(_ input: String) throws -> (URL, ConvertOutcome) {
        let out = try TestPaths.temporaryDirectory()
        let job = try ConvertJob(ConvertRequest(inputs: [TestPaths.samples.appendingPathComponent(input).path], outDir: out.path))
        return (out, try job.run())
    }

    private func json(_ url: URL) throws -> Any { try JSONSerialization.jsonObject(with: Data(contentsOf: url)) }

    func testSampleExportGivesTheHandComputedPayloads() throws {
        for input in ["export.xml", "export.zip"] {
            let (out, outcome) = try convert(input)
            let expectedDir = TestPaths.samples.appendingPathComponent("expected")
            let expected = try FileManager.default.contentsOfDirectory(atPath: expectedDir.path).filter { $0.hasSuffix(".json") }.sorted()
            let written = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("payloads").path).sorted()
            XCTAssertEqual(written, expected, input)
            XCTAssertEqual(outcome.daysWritten, expected.count)
            for name in expected {
                let got = try json(out.appendingPathComponent("payloads/" + name))
                let want = try json(expectedDir.appendingPathComponent(name))
                assertSameJSON(got, want, "\(input) \(name)")
            }
            let skips = outcome.inputs[0].report?.skips ?? [:]
            XCTAssertEqual(skips.filter { $0.key.contains("unknown unit") }.values.reduce(0, +), 1, "\(skips)")
            // payloads.json holds the same objects in date order.
            let batch = try XCTUnwrap(try json(out.appendingPathComponent("payloads.json")) as? [String: Any])
            let data = try XCTUnwrap(batch["data"] as? [[String: Any]])
            XCTAssertEqual(data.map { $0["date"] as? String }, expected.map { String($0.dropLast(5)) })
        }
    }

    func testCSVHasTheCatalogColumnsAndOneRowADate() throws {
        let (out, _) = try convert("export.xml")
        let text = try String(contentsOf: out.appendingPathComponent("daily.csv"), encoding: .utf8)
        let rows = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        XCTAssertEqual(rows.first, OutputFields.columns.compactMap(\.column).joined(separator: ","))
        XCTAssertEqual(rows.count, 4)
        // Payload and CSV agree: step_count of 2026-03-21 (4705 by hand, EXPECTED.md).
        let header = rows[0].components(separatedBy: ",")
        let first = rows[1].components(separatedBy: ",")
        XCTAssertEqual(first[header.firstIndex(of: "date")!], "2026-03-21")
        XCTAssertEqual(first[header.firstIndex(of: "step_count")!], "4705")
        XCTAssertEqual(first.count, header.count)
    }

    func testOutputsAreOwnerOnly() throws {
        let (out, _) = try convert("export.xml")
        for rel in ["payloads.json", "daily.csv", "payloads/2026-03-21.json"] {
            let mode = try XCTUnwrap(
                FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(rel).path)[.posixPermissions] as? NSNumber)
            XCTAssertEqual(mode.intValue & 0o777, 0o600, rel)
        }
    }

    func testWrittenPayloadsValidateAgainstTheSchema() throws {
        let (out, _) = try convert("export.xml")
        let schema = TestPaths.repoRoot.appendingPathComponent("docs/payload.schema.json").path
        let files = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("payloads").path).map {
            out.appendingPathComponent("payloads/" + $0).path
        }
        let status = try SchemaValidator.validate(files, schema: schema)
        XCTAssertEqual(status, 0, "a payload does not validate against docs/payload.schema.json")
    }

    func testAFailedRunLeavesEarlierOutputsUntouched() throws {
        let (out, _) = try convert("export.xml")
        let before = try Data(contentsOf: out.appendingPathComponent("payloads.json"))
        let bad = out.appendingPathComponent("bad.xml")
        try Data("<?xml version=\"1.0\"?>\n<HealthData>\n<Record type=\"x\"".utf8).write(to: bad)
        let job = try ConvertJob(
            ConvertRequest(inputs: [TestPaths.samples.appendingPathComponent("export.xml").path, bad.path], outDir: out.path))
        XCTAssertThrowsError(try job.run())
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("payloads.json")), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("payloads").path).count, 3)
    }

    func testTheSameFileTwiceIsImportedOnceIntoTheStore() throws {
        let out = try TestPaths.temporaryDirectory()
        let store = out.appendingPathComponent("health.sqlite").path
        let request = ConvertRequest(
            inputs: [TestPaths.samples.appendingPathComponent("export.xml").path], outDir: out.path, storePath: store)
        let first = try ConvertJob(request).run()
        XCTAssertFalse(first.inputs[0].alreadyImported)
        XCTAssertGreaterThan(first.storeRowsAdded["sample_records"] ?? 0, 100)
        let second = try ConvertJob(request).run()
        XCTAssertTrue(second.inputs[0].alreadyImported)
        XCTAssertTrue(second.storeRowsAdded.isEmpty)
        XCTAssertTrue(second.summaryLines().contains { $0.contains("already imported") })
        XCTAssertEqual(second.daysWritten, 3, "payloads are still written")
        XCTAssertEqual(try HealthStore(path: store).imports(person: "me").count, 1)
        // The zip holds the same XML but is another file: a different sha256, so it is a new
        // import, and adds no sample the first one already stored (natural keys).
        let zip = try ConvertJob(
            ConvertRequest(inputs: [TestPaths.samples.appendingPathComponent("export.zip").path], outDir: out.path, storePath: store)
        ).run()
        XCTAssertFalse(zip.inputs[0].alreadyImported)
        XCTAssertEqual(zip.storeRowsAdded["sample_records"] ?? 0, 0)
    }

    func testTheSummaryNamesTheFileOfEverySkip() throws {
        try TestPaths.requirePublicSamples()
        let out = try TestPaths.temporaryDirectory()
        let other = TestPaths.publicExports.appendingPathComponent("tagbug__apple-health-analyzer/tests/fixtures/export.xml").path
        let outcome = try ConvertJob(
            ConvertRequest(inputs: [TestPaths.samples.appendingPathComponent("export.xml").path, other], outDir: out.path)
        ).run()
        let lines = outcome.summaryLines()
        // samples/export.xml has one StepCount in "furlong" (EXPECTED.md); tagbug's 5 records all
        // start after its ExportDate (2024-01-01 00:00 +0000), its VO2Max in "ml/kg/min" among them.
        let first = try XCTUnwrap(lines.firstIndex { $0.hasSuffix("samples/export.xml:") })
        let second = try XCTUnwrap(lines.firstIndex { $0 == "  in \(other):" })
        XCTAssertTrue(lines[first + 1].contains("unknown unit \"furlong\" for StepCount (first at line 130"), lines[first + 1])
        XCTAssertTrue(lines[second + 1].contains("5  record starting after the export moment (ExportDate)"), lines[second + 1])
        XCTAssertTrue(lines.contains("Skipped 6 items:"))  // 1 + 5
    }

    func testFromAndToLimitTheDatesWritten() throws {
        let out = try TestPaths.temporaryDirectory()
        let job = try ConvertJob(
            ConvertRequest(
                inputs: [TestPaths.samples.appendingPathComponent("export.xml").path], outDir: out.path, from: "2026-03-22",
                to: "2026-03-22"))
        let outcome = try job.run()
        XCTAssertEqual(outcome.daysWritten, 1)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("payloads").path), ["2026-03-22.json"])
        XCTAssertThrowsError(try ConvertJob(ConvertRequest(inputs: ["x"], from: "2026-03-32")))
        XCTAssertThrowsError(try ConvertJob(ConvertRequest(inputs: ["x"], from: "2026-03-22", to: "2026-03-21")))
        XCTAssertThrowsError(try ConvertJob(ConvertRequest(inputs: ["x"], timeZoneName: "Mars/Olympus")))
    }
}

/// Runs Python's `jsonschema` (a real JSON Schema draft 2020-12 validator; `.ci/run` installs it).
enum SchemaValidator {
    static func validate(_ files: [String], schema: String) throws -> Int32 {
        let script = """
            import json, sys
            try:
                import jsonschema
            except ImportError:
                print("python3 -m pip install jsonschema is needed for this test", file=sys.stderr); sys.exit(3)
            schema = json.load(open(sys.argv[1]))
            v = jsonschema.Draft202012Validator(schema)
            bad = 0
            for f in sys.argv[2:]:
                for e in v.iter_errors(json.load(open(f))):
                    bad += 1
                    print(f, e.json_path, e.message, file=sys.stderr)
            sys.exit(1 if bad else 0)
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script, schema] + files
        try p.run()
        p.waitUntilExit()
        return p.terminationStatus
    }
}

/// Every public HAE file through the whole convert command: no fatal error, payloads valid
/// against the project's schema (whose heart-rate `count` is optional for HAE buckets).
final class PublicHAEConvertTests: XCTestCase {
    override func setUpWithError() throws { try TestPaths.requirePublicSamples() }

    func testEveryPublicHAEFileConvertsToValidPayloads() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: TestPaths.publicHAE.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertEqual(files.count, 5)
        let schema = TestPaths.repoRoot.appendingPathComponent("docs/payload.schema.json").path
        for name in files {
            let out = try TestPaths.temporaryDirectory()
            let outcome = try ConvertJob(ConvertRequest(inputs: [TestPaths.publicHAE.appendingPathComponent(name).path], outDir: out.path))
                .run()
            XCTAssertGreaterThan(outcome.daysWritten, 0, name)
            let dir = out.appendingPathComponent("payloads")
            let payloads = try FileManager.default.contentsOfDirectory(atPath: dir.path).map { dir.appendingPathComponent($0).path }
            XCTAssertEqual(try SchemaValidator.validate(payloads, schema: schema), 0, name)
        }
    }
}
