import Foundation
import XCTest

@testable import ExportParser

/// The export moment bounds the data (docs/rules.md, "The export moment"): nothing starts after
/// it, and the date it falls on is partial, which `convert` says and `push` leaves out unless
/// `--include-partial`. Inputs written here, the arithmetic beside them.
final class ExportMomentTests: XCTestCase {
    static let steps = "HKQuantityTypeIdentifierStepCount"

    /// Exported 2019-06-17 17:08 −0400 (no HKTimeZone: the days are cut at −04:00).
    /// - 06-16 10:00–10:10, 1,000 steps            → 06-16: 1,000
    /// - 06-17 09:00–09:10, 500 steps              → 06-17: 500
    /// - 06-17 17:30–17:40, 200 steps: after 17:08 → skipped
    /// - 2030-01-01 09:00, 300 steps (a clock set ahead) → skipped, no 2030 day
    /// - a walk on 06-18 07:00, after the moment  → skipped
    /// So 2 days, 3 skips, and 06-17 partial (the moment falls at 17:08 on it).
    static let xml = export(
        record(steps, "1000", unit: "count", source: "iPhone", start: "2019-06-16 10:00:00 -0400", end: "2019-06-16 10:10:00 -0400")
            + record(steps, "500", unit: "count", source: "iPhone", start: "2019-06-17 09:00:00 -0400", end: "2019-06-17 09:10:00 -0400")
            + record(steps, "200", unit: "count", source: "iPhone", start: "2019-06-17 17:30:00 -0400", end: "2019-06-17 17:40:00 -0400")
            + record(steps, "300", unit: "count", source: "iPhone", start: "2030-01-01 09:00:00 -0400", end: "2030-01-01 09:10:00 -0400")
                + """
                 <Workout workoutActivityType="HKWorkoutActivityTypeWalking" duration="30" durationUnit="min" sourceName="iPhone" startDate="2019-06-18 07:00:00 -0400" endDate="2019-06-18 07:30:00 -0400"/>
                """,
        exportDate: "2019-06-17 17:08:00 -0400")

    /// The payloads `convert` wrote under `out`, by date.
    struct TestDays {
        var payloads: [String: [String: Any]] = [:]
        init(_ out: URL) throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: out.path + "/payloads") {
                let data = try Data(contentsOf: out.appendingPathComponent("payloads/" + name))
                payloads[String(name.dropLast(5))] = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            }
        }
        func metric(_ date: String, _ field: String) -> Double? { (payloads[date]?["metrics"] as? [String: Any])?[field] as? Double }
    }

    private func convertExport(_ dir: URL) throws -> (ConvertOutcome, URL) {
        let file = dir.appendingPathComponent("export.xml")
        try Data(Self.xml.utf8).write(to: file)
        let out = dir.appendingPathComponent("out")
        return (try ConvertJob(ConvertRequest(inputs: [file.path], outDir: out.path)).run(), out)
    }

    func testRecordsAfterExportDateAreSkippedAndItsDateIsPartial() throws {
        let dir = try TestPaths.temporaryDirectory(#function)
        let (outcome, out) = try convertExport(dir)
        let days = try TestDays(out)
        XCTAssertEqual(days.payloads.keys.sorted(), ["2019-06-16", "2019-06-17"], "no 2030 day, no 06-18")
        XCTAssertEqual(days.metric("2019-06-16", "step_count"), 1_000)
        XCTAssertEqual(days.metric("2019-06-17", "step_count"), 500)  // not 500 + 200
        let report = try XCTUnwrap(outcome.inputs.first?.report)
        XCTAssertEqual(report.skips[ExportElementHandler.afterExportMoment("record")], 2)
        XCTAssertEqual(report.skips[ExportElementHandler.afterExportMoment("workout")], 1)
        XCTAssertEqual(outcome.partialDates.map(\.date), ["2019-06-17"])
        XCTAssertEqual(outcome.partialDates.first?.moment, "2019-06-17T17:08:00-04:00")
        let lines = outcome.summaryLines()
        XCTAssertTrue(lines.contains { $0.hasPrefix("Note: 2019-06-17 is partial:") && $0.contains("stop at 17:08") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.contains("2  record starting after the export moment (ExportDate)") }, "\(lines)")
    }

    /// HAE states no moment: the file's modification time bounds it. The file is dated
    /// 2026-03-03 12:00 −0600 (18:00 UTC).
    /// - 03-02 10:00–10:10, 100 steps → 03-02: 100
    /// - 03-03 09:00–09:10, 40 steps  → 03-03: 40
    /// - 03-03 13:00–13:10, 60 steps: after 12:00, when the file was written → skipped
    /// - a day bucket of 2999-01-01, 50 steps → skipped
    /// The data ends 03-03 09:10, so 03-03 is the partial date.
    func testAnHAEDatumAfterItsFilesTimeIsSkipped() throws {
        let dir = try TestPaths.temporaryDirectory(#function)
        let file = dir.appendingPathComponent("hae.json")
        func datum(_ start: String, _ end: String, _ qty: Int) -> String {
            "{\"startDate\": \"\(start) -0600\", \"endDate\": \"\(end) -0600\", \"qty\": \(qty), \"source\": \"iPhone\"}"
        }
        let body = HAEBodiesTests.body(metrics: [
            HAEBodiesTests.metric(
                "step_count", "count",
                [
                    datum("2026-03-02 10:00:00", "2026-03-02 10:10:00", 100), datum("2026-03-03 09:00:00", "2026-03-03 09:10:00", 40),
                    datum("2026-03-03 13:00:00", "2026-03-03 13:10:00", 60),
                    "{\"date\": \"2999-01-01 00:00:00 -0600\", \"qty\": 50, \"source\": \"iPhone\"}",
                ])
        ])
        try Data(body.utf8).write(to: file)
        // 2026-03-03 18:00:00 UTC = 1,772,560,800 s (20,515 days × 86,400 + 18 × 3,600).
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_772_560_800)], ofItemAtPath: file.path)
        let out = dir.appendingPathComponent("out")
        let outcome = try ConvertJob(ConvertRequest(inputs: [file.path], outDir: out.path)).run()
        let days = try TestDays(out)
        XCTAssertEqual(days.payloads.keys.sorted(), ["2026-03-02", "2026-03-03"])
        XCTAssertEqual(days.metric("2026-03-02", "step_count"), 100)
        XCTAssertEqual(days.metric("2026-03-03", "step_count"), 40)
        XCTAssertEqual(outcome.inputs.first?.report?.skips[HAEDatumMapper.afterMoment], 2)
        XCTAssertEqual(outcome.partialDates.map(\.date), ["2026-03-03"])
    }

    /// `push` leaves the partial date out and says so; `--include-partial` sends it. A real push
    /// to the test server, and a dry run.
    func testPushLeavesThePartialDateOutUnlessAsked() throws {
        let dir = try TestPaths.temporaryDirectory(#function)
        let (_, out) = try convertExport(dir)
        let f = PushTestSupport.Fixture(
            dir: dir, store: dir.appendingPathComponent("push.sqlite").path, payloadsDir: out.path + "/payloads")
        let server = try PushTestServer(dir: dir)
        let first = try PushTestSupport.run(PushTestSupport.request(server, f) { $0.payloadsDir = f.payloadsDir })
        XCTAssertEqual(first.accepted, 1)
        XCTAssertEqual(server.posts().compactMap(\.date), ["2019-06-16"])
        XCTAssertEqual(first.partialLeftOut.map(\.date), ["2019-06-17"])
        XCTAssertTrue(
            first.summaryLines().contains {
                $0.hasPrefix("Left out 2019-06-17: partial") && $0.contains("until 17:08") && $0.contains("--include-partial")
            }, "\(first.summaryLines())")
        let dry = try PushTestSupport.run(
            PushTestSupport.request(server, f) {
                $0.payloadsDir = f.payloadsDir
                $0.dryRun = true
                $0.includePartial = true
            })
        XCTAssertEqual(dry.planned.map(\.date), ["2019-06-17"], "06-16 was accepted already; the partial date now planned")
        XCTAssertTrue(dry.partialLeftOut.isEmpty)
        let all = try PushTestSupport.run(
            PushTestSupport.request(server, f) {
                $0.payloadsDir = f.payloadsDir
                $0.includePartial = true
            })
        XCTAssertEqual(all.accepted, 1)
        XCTAssertEqual(all.skipped, 1)
        XCTAssertEqual(server.posts().compactMap(\.date), ["2019-06-16", "2019-06-17"])
    }

    /// Two exports: this one (made 06-17 17:08: 06-17 holds 500 steps) and a later one made
    /// 06-20 09:00 that holds 06-17 whole (500 + 300 at 20:00 = 800) and 06-18 (100). In either
    /// order 06-17 is the whole day's 800 steps and not partial (its device_sync_timestamp is the
    /// later export's); 06-16 (1,000) only the first has.
    func testAWholeDayOfALaterExportWinsOverAPartialOneInEitherOrder() throws {
        let dir = try TestPaths.temporaryDirectory(#function)
        let early = dir.appendingPathComponent("early.xml"), later = dir.appendingPathComponent("later.xml")
        try Data(Self.xml.utf8).write(to: early)
        let whole = export(
            record(Self.steps, "500", unit: "count", source: "iPhone", start: "2019-06-17 09:00:00 -0400", end: "2019-06-17 09:10:00 -0400")
                + record(
                    Self.steps, "300", unit: "count", source: "iPhone", start: "2019-06-17 20:00:00 -0400", end: "2019-06-17 20:10:00 -0400"
                )
                + record(
                    Self.steps, "100", unit: "count", source: "iPhone", start: "2019-06-18 09:00:00 -0400", end: "2019-06-18 09:10:00 -0400"
                ),
            exportDate: "2019-06-20 09:00:00 -0400")
        try Data(whole.utf8).write(to: later)
        for (i, inputs) in [[early.path, later.path], [later.path, early.path]].enumerated() {
            let out = dir.appendingPathComponent("out-\(i)")
            let outcome = try ConvertJob(ConvertRequest(inputs: inputs, outDir: out.path)).run()
            let days = try TestDays(out)
            XCTAssertEqual(days.metric("2019-06-16", "step_count"), 1_000, "\(i)")
            XCTAssertEqual(days.metric("2019-06-17", "step_count"), 800, "\(i)")  // 500 + 300, never the partial 500
            XCTAssertEqual(days.metric("2019-06-18", "step_count"), 100, "\(i)")
            XCTAssertEqual(days.payloads["2019-06-17"]?["device_sync_timestamp"] as? String, "2019-06-20T09:00:00-04:00", "\(i)")
            XCTAssertEqual(outcome.partialDates.map(\.date), [], "\(i)")
        }
    }
}
