import Foundation
import XCTest

@testable import ExportParser

/// Every export file of the public samples (`TestPaths.publicExports`, real files written by other people):
/// each parses without a fatal error, and the records it reports by type equal an independent
/// count of its top-level `<Record` elements made here with plain string scanning.
final class PublicSampleTests: XCTestCase {
    override func setUpWithError() throws { try TestPaths.requirePublicSamples() }

    /// Top-level records by type, counted without any XML parser: `<Record` start tags outside
    /// `<Correlation>…</Correlation>`, their `type="…"` read from the tag text.
    static func independentCount(_ text: String) -> [String: Int] {
        var counts: [String: Int] = [:]
        for tag in topLevelRecordTags(text) {
            if let type = attribute(tag, "type") { counts[type, default: 0] += 1 }
        }
        return counts
    }

    /// The text of every top-level `<Record …` start tag (up to its `>`), found with plain string
    /// scanning: records inside `<Correlation>…</Correlation>` are members, not top level.
    static func topLevelRecordTags(_ text: String) -> [Substring] {
        var tags: [Substring] = []
        var depthInCorrelation = 0
        var i = text.startIndex
        while let lt = text[i...].firstIndex(of: "<") {
            let rest = text[lt...]
            if rest.hasPrefix("<Correlation") {
                depthInCorrelation += 1
            } else if rest.hasPrefix("</Correlation>") {
                depthInCorrelation -= 1
            } else if rest.hasPrefix("<Record "), depthInCorrelation == 0, let close = rest.firstIndex(of: ">") {
                tags.append(text[lt..<close])
            }
            i = text.index(after: lt)
        }
        return tags
    }

    /// An attribute's value as written in a start tag's text; nil when absent (or unterminated).
    static func attribute(_ tag: Substring, _ name: String) -> String? {
        guard let r = tag.range(of: " \(name)=\"") else { return nil }
        let after = tag[r.upperBound...]
        return after.firstIndex(of: "\"").map { String(after[..<$0]) }
    }

    /// The files to read: XML and ZIP, not GPX routes nor the CDA document.
    static func exportFiles() throws -> [URL] {
        let e = FileManager.default.enumerator(at: TestPaths.publicExports, includingPropertiesForKeys: nil)!
        return e.compactMap { $0 as? URL }
            .filter { ["xml", "zip"].contains($0.pathExtension) && !$0.lastPathComponent.hasPrefix("export_cda") }
            .sorted { $0.path < $1.path }
    }

    /// Fragments (a bare `<Record>` list or one `<Workout>`) are wrapped in a root here, as their
    /// own repository's fixture script does before use.
    static func wrapIfFragment(_ text: String) -> String {
        if text.contains("<HealthData") { return text }
        var body = text
        if body.hasPrefix("<?xml"), let end = body.range(of: "?>") { body = String(body[end.upperBound...]) }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n" + body + "\n</HealthData>\n"
    }

    func testSamplesArePresent() throws {
        let files = try Self.exportFiles()
        XCTAssertGreaterThanOrEqual(files.count, 25, "public export samples in \(TestPaths.publicExports.path)")
    }

    func testEveryPublicXMLParsesWithCountsEqualToAnIndependentCount() throws {
        for url in try Self.exportFiles() where url.pathExtension == "xml" {
            let raw = try String(contentsOf: url, encoding: .utf8)
            let text = Self.wrapIfFragment(raw)
            let sink = CollectingSink()
            let report = try AppleExportReader.read(data: Data(text.utf8), name: url.lastPathComponent, into: sink)
            XCTAssertEqual(report.recordsByType, Self.independentCount(raw), url.path)
            XCTAssertEqual(report.workouts, raw.components(separatedBy: "<Workout ").count - 1, url.path)
            // Every record reaches the sink but those whose dates could not be read or that start
            // after the export moment (ExportDate); a workout's skip is not a record's.
            let dateSkips = report.skips.filter {
                ($0.key.contains("Date") || $0.key.contains("date")) && $0.key != ExportElementHandler.afterExportMoment("workout")
            }.values.reduce(0, +)
            XCTAssertEqual(sink.samples.count + dateSkips, report.totalRecords, url.path)
        }
    }

    func testEveryPublicZipReadsTheSameRecordsAsItsXML() throws {
        let pairs: [(String, String)] = [
            ("rgosdin__docs/export.zip", "rgosdin__docs/apple_health_export/export.xml"),
            ("alxdrcirilo__apple-health-parser/tests/data/export.zip", "alxdrcirilo__apple-health-parser/tests/data/export.xml"),
            ("paulstaab__health-data-parser/tests/fixtures/export.zip", "paulstaab__health-data-parser/tests/fixtures/export.xml"),
        ]
        for (zip, xml) in pairs {
            let z = try AppleExportReader(path: TestPaths.publicExports.appendingPathComponent(zip).path).read(
                into: CollectingSink(details: false))
            let raw = try String(contentsOf: TestPaths.publicExports.appendingPathComponent(xml), encoding: .utf8)
            XCTAssertEqual(z.recordsByType, Self.independentCount(raw), zip)
        }
    }

    func testRealExportDailyStepsMatchAHandCountOfOneDay() throws {
        // rgosdin (iPhone only, -0400): the StepCount records that start on 2019-06-16 are summed
        // here independently from the text (no record crosses that day's midnights in this file,
        // checked below), and must equal the payload's step_count for that date.
        let url = TestPaths.publicExports.appendingPathComponent("rgosdin__docs/apple_health_export/export.xml")
        let text = try String(contentsOf: url, encoding: .utf8)
        var expected = 0.0
        for line in text.split(separator: "\n")
        where line.contains("HKQuantityTypeIdentifierStepCount\"") && line.contains("startDate=\"2019-06-16") {
            XCTAssertTrue(line.contains("endDate=\"2019-06-16"), "a record crosses midnight: \(line)")
            let v = line.range(of: "value=\"")!
            let rest = line[v.upperBound...]
            expected += Double(rest[..<rest.firstIndex(of: "\"")!])!
        }
        let c = try Converted(xml: text)
        XCTAssertGreaterThan(expected, 1000)
        XCTAssertEqual(c.metric("2019-06-16", "step_count"), expected.rounded())
        // The file's HKTimeZone entries (on sleep records) name America/New_York: that zone's
        // timeline names every date's zone, also 2019-05-20, which has no such record and before
        // this change fell back to the recorded offset, -04:00 (New York's in May, so no date moves).
        XCTAssertEqual(c.payloads["2019-06-16"]?["timezone"] as? String, "America/New_York")
        XCTAssertEqual(c.payloads["2019-05-20"]?["timezone"] as? String, "America/New_York")
    }

    func testUnrealisticSamplesGiveSkipsNotCrashes() throws {
        // tagbug's export.xml writes VO2Max in "ml/kg/min", a unit export.xml never uses; but its
        // ExportDate is 2024-01-01 00:00 +0000 and all 5 of its records start later that day
        // (06:00 to 23:00): each is skipped as after the export moment before its unit is read.
        let url = TestPaths.publicExports.appendingPathComponent("tagbug__apple-health-analyzer/tests/fixtures/export.xml")
        let report = try AppleExportReader(path: url.path).read(into: CollectingSink())
        XCTAssertEqual(report.skips[ExportElementHandler.afterExportMoment("record")], 5)
        XCTAssertNil(report.skips["unknown unit \"ml/kg/min\" for VO2Max"])
        // paulstaab's synthetic HeartRate records have no unit at all.
        let p = TestPaths.publicExports.appendingPathComponent("paulstaab__health-data-parser/tests/fixtures/export.xml")
        let r2 = try AppleExportReader(path: p.path).read(into: CollectingSink())
        XCTAssertEqual(r2.skips.first { $0.key.hasPrefix("no unit given for HeartRate") }?.value, 5)
        // A fragment without a root is refused with the reason, not a crash.
        let frag = TestPaths.publicExports.appendingPathComponent(
            "NicolasReyrolle__apple-health-analyzer/tests/fixtures/exports/record_vo2_max.xml")
        XCTAssertThrowsError(try AppleExportReader(path: frag.path).read(into: CollectingSink())) { error in
            XCTAssertTrue("\(error)".contains("root element is <Record>"), "\(error)")
        }
    }

    func testModernWorkoutsTakeTotalsFromStatisticsWithoutActivityDoubleCount() throws {
        // workout_running_multiple_parts.xml: one Workout with 17+ WorkoutActivity parts, each with
        // its own statistics. The payload's distance must be the workout-level
        // DistanceWalkingRunning sum, read from the file here, not the sum over parts plus it.
        let url = TestPaths.publicExports.appendingPathComponent(
            "NicolasReyrolle__apple-health-analyzer/tests/fixtures/exports/workout_running_multiple_parts.xml")
        let raw = try String(contentsOf: url, encoding: .utf8)
        let lines = raw.split(separator: "\n").map(String.init)
        // The workout-level statistics are the ones indented one level below <Workout> (two spaces in this file).
        let distanceLine = try XCTUnwrap(
            lines.first { $0.hasPrefix("  <WorkoutStatistics") && $0.contains("DistanceWalkingRunning") }, "layout changed")
        let sumText = distanceLine.components(separatedBy: "sum=\"")[1].components(separatedBy: "\"")[0]
        let km = try XCTUnwrap(Double(sumText))
        let c = try Converted(xml: Self.wrapIfFragment(raw))
        let workouts = c.payloads.values.flatMap { ($0["workouts"] as? [[String: Any]]) ?? [] }
        XCTAssertEqual(workouts.count, 1)
        XCTAssertEqual(workouts.first?["type"] as? String, "Running")
        XCTAssertEqual(workouts.first?["distance_m"] as? Double, (km * 1000).rounded())
    }
}
