import Foundation
import XCTest

@testable import ExportParser
@testable import HealthFixtures

/// What makes `compare`'s verdict one a person can act on: mixed-up inputs refused with one
/// sentence, each side stated up front, the dates really compared, `not-comparable` rows counted
/// apart, and `--monitor` judging each field by its own cadence on every fixture profile.
final class CompareVerdictTests: XCTestCase {
    typealias F = CompareFixtures

    private func run(_ native: [String], _ hae: [String], out: String, days: Int = 7, from: String? = nil, monitor: Int? = nil)
        throws -> CompareOutcome
    {
        try CompareJob(
            CompareRequest(
                native: native, hae: hae, days: days, from: from, timeZoneName: "Australia/Sydney", outDir: out, monitor: monitor)
        ).run()
    }

    private func refused(
        _ native: [String], _ hae: [String], out: String, monitor: Int? = nil, file: StaticString = #filePath, line: UInt = #line
    ) -> String {
        var message = ""
        XCTAssertThrowsError(try run(native, hae, out: out, monitor: monitor), file: file, line: line) { e in
            XCTAssertTrue(e is UsageError, "\(e)", file: file, line: line)
            message = "\(e)"
        }
        return message
    }

    /// Each mix-up ends the run with its sentence (the command exits 2 on a `UsageError`), in
    /// both modes, and writes no report.
    func testMixedUpInputsAreRefused() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let (native, hae) = try F.write(into: dir)
        let out = dir.appendingPathComponent("c").path
        let otherExport = TestPaths.fixtures.appendingPathComponent("twins/same-days.xml").path
        let haeSentence =
            "\(hae) is a Health Auto Export file, given as --native: the native side is the Health app's export (export.zip or export.xml) or payload JSON; give this file as --hae"
        for monitor in [nil, 3] as [Int?] {
            XCTAssertEqual(refused([hae], [otherExport], out: out, monitor: monitor), haeSentence)
            XCTAssertEqual(
                refused([native], [otherExport], out: out, monitor: monitor),
                "\(otherExport) is an Apple Health export, given as --hae: the HAE side is a Health Auto Export .json file or payload JSON; give this file as --native"
            )
            XCTAssertEqual(
                refused([hae], [hae], out: out, monitor: monitor),
                "--native and --hae are the same bytes (\(hae), \(hae)): a check needs the Health app's export on one side and Health Auto Export's data on the other"
            )
        }
        // The same bytes under another name, and the same set of two files in another order.
        let copy = dir.appendingPathComponent("copy.json").path
        try FileManager.default.copyItem(atPath: hae, toPath: copy)
        XCTAssertTrue(refused([hae], [copy], out: out).hasPrefix("--native and --hae are the same bytes"))
        let nativeOut = dir.appendingPathComponent("n").path
        _ = try ConvertJob(ConvertRequest(inputs: [native], outDir: nativeOut, timeZoneName: "Australia/Sydney")).run()
        let payloads = nativeOut + "/payloads.json"
        XCTAssertTrue(refused([payloads, copy], [hae, payloads], out: out).hasPrefix("--native and --hae are the same bytes"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: out + "/compare.json"), "no report for a refused check")

        // The export and the payload JSON converted from it: different bytes, identical values on
        // all 7 dates (whole numbers and times: the payload's rounding changes none).
        let identical =
            "native and HAE have identical values on every compared field of all 7 dates (2024-03-01 … 2024-03-07): that is the same data given twice (the same export as export.zip and export.xml, or payload JSON converted from the other side's file), not the Health app's export beside Health Auto Export's, which always differ a little (HAE sums its own buckets and rounds); give the export as --native and the HAE file as --hae"
        XCTAssertEqual(refused([native], [nativeOut + "/payloads"], out: out), identical)
        XCTAssertEqual(refused([nativeOut + "/payloads"], [payloads], out: out), identical)
        // Cut short, the same data is still the same: the payloads without 03-06 and 03-07 leave
        // 03-01 … 03-05 on both sides, identical there; the export's 03-06 and 03-07 are on one
        // side only and do not count.
        let cut = dir.appendingPathComponent("cut").path
        try FileManager.default.copyItem(atPath: nativeOut + "/payloads", toPath: cut)
        for date in ["2024-03-06", "2024-03-07"] { try FileManager.default.removeItem(atPath: cut + "/\(date).json") }
        XCTAssertTrue(
            refused([native], [cut], out: out).hasPrefix(
                "native and HAE have identical values on every compared field of all 5 dates (2024-03-01 … 2024-03-05):"))
        // Payload JSON is allowed on either side: the HAE file's payloads as --native against the
        // export's payloads as --hae is a check like any other (the planted differences: exit 1).
        let haeOut = dir.appendingPathComponent("h").path
        _ = try ConvertJob(ConvertRequest(inputs: [hae], outDir: haeOut, timeZoneName: "Australia/Sydney")).run()
        XCTAssertEqual(try run([haeOut + "/payloads.json"], [payloads], out: out).exitStatus, 1)
    }

    /// `--store`: the twins (one day's data written as an export and as its HAE twin) imported
    /// for a person are two readings of the same samples, by the right readers: they pass (the
    /// identical-values refusal is for payload JSON, whose origin its bytes do not tell).
    func testIdenticalSidesInAStorePass() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let twins = TestPaths.fixtures.appendingPathComponent("twins")
        let store = dir.appendingPathComponent("health.sqlite").path
        _ = try ConvertJob(
            ConvertRequest(
                inputs: [twins.appendingPathComponent("same-days.xml").path, twins.appendingPathComponent("same-days.hae.json").path],
                outDir: dir.appendingPathComponent("o").path, timeZoneName: "Australia/Sydney", storePath: store, person: "ann")
        ).run()
        let outcome = try CompareJob(
            CompareRequest(native: [], hae: [], days: 3, outDir: dir.path + "/c", storePath: store, person: "ann")
        ).run()
        XCTAssertEqual(outcome.exitStatus, 0, outcome.terminalText(color: false))
    }

    /// Each side stated up front: kind, files, date range (HAE has no 03-06: 6 dates in 03-01 …
    /// 03-07), sources.
    func testSidesAreStatedUpFront() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let (native, hae) = try F.write(into: dir)
        let out = dir.appendingPathComponent("c").path
        _ = try run([native], [hae], out: out)
        let sides = try XCTUnwrap(CompareTests.json(out + "/compare.json")["sides"] as? [[String: Any]])
        XCTAssertEqual(sides.map { $0["kind"] as? String }, ["Apple Health export", "Health Auto Export JSON"])
        XCTAssertEqual(sides.map { $0["files"] as? [String] }, [[native], [hae]])
        XCTAssertEqual(sides.map { $0["from"] as? String }, ["2024-03-01", "2024-03-01"])
        XCTAssertEqual(sides.map { $0["to"] as? String }, ["2024-03-07", "2024-03-07"])
        XCTAssertEqual(sides.map { $0["dates"] as? Int }, [7, 6])
        // HAE's run names no source: its reader gives it "Health Auto Export".
        XCTAssertEqual(sides.map { $0["sources"] as? [String] }, [[F.watch], [F.watch, "Health Auto Export"]])

        // No date on both sides: the sentence shows both ranges. An HAE file of 2024-04-01 and
        // 04-02 only.
        let april = dir.appendingPathComponent("april.json")
        try Data(
            """
            {"data": {"metrics": [{"name": "step_count", "units": "count", "data": [
              {"date": "2024-04-01 00:00:00 +1100", "qty": 100, "source": "Phone"},
              {"date": "2024-04-02 00:00:00 +1100", "qty": 200, "source": "Phone"}]}]}}
            """.utf8
        ).write(to: april)
        XCTAssertThrowsError(try run([native], [april.path], out: out)) { e in
            XCTAssertEqual(
                "\(e)",
                "no date has data on both sides (native: 2024-03-01 … 2024-03-07 (7 dates); HAE: 2024-04-01 … 2024-04-02 (2 dates)); give --from to choose the dates to compare"
            )
        }
    }

    /// `--days 60 --from 2024-03-01` on 7 dates of data: 7 dates compared, in a window of 60
    /// (03-01 + 59 days = 04-29: 31 days of March, then 29 of April).
    func testDatesComparedAreTheDatesWithData() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let (native, hae) = try F.write(into: dir)
        let out = dir.appendingPathComponent("c").path
        let outcome = try run([native], [hae], out: out, days: 60, from: "2024-03-01")
        let text = outcome.terminalText(color: false)
        XCTAssertTrue(text.contains("Compared 7 dates with data in 2024-03-01 … 2024-04-29 (a 60-date window):"), text)
        let json = try CompareTests.json(out + "/compare.json")
        XCTAssertEqual((json["summary"] as? [String: Any])?["dates"] as? Int, 7)
        XCTAssertEqual((json["window"] as? [String: Any])?["days"] as? Int, 60)
        let html = try String(contentsOfFile: out + "/compare.html", encoding: .utf8)
        XCTAssertTrue(html.contains("fields compared over 7 dates"), html)
        XCTAssertTrue(html.contains("Validation window 2024-03-01 – 2024-04-29 (7 dates with data of 60)"), html)
    }

    /// Rows that are `not-comparable` are in no verdict and not under "Not matching": one line
    /// counts them. One date: steps 100 on both sides (match); a heart-rate count of 50 only the
    /// export states and a sleep source spelt differently: 2 values not comparable.
    func testNotComparableRowsAreCountedInOneLine() throws {
        var n = ComparableDay(date: "2024-03-01"), h = ComparableDay(date: "2024-03-01")
        n.values = [
            "metrics.step_count": .number(100), "metrics.heart_rate_samples.count": .number(50), "sleep.source": .text("Watch"),
        ]
        h.values = ["metrics.step_count": .number(100), "sleep.source": .text("Anna’s Apple Watch")]
        let window = Comparison.Window(from: CivilDate.parseISODate("2024-03-01")!, to: CivilDate.parseISODate("2024-03-01")!)
        let c = Comparison(native: [n.date: n], hae: [h.date: h], window: window, tolerances: Tolerances())
        XCTAssertEqual(
            c.rows.filter { $0.status == .notComparable }.map(\.field).sorted(), ["metrics.heart_rate_samples.count", "sleep.source"])
        let report = CompareReport(mode: .validate, window: window, comparison: c, gaps: c.gaps)
        XCTAssertEqual(report.verdicts.map(\.sentence), ["step_count 1/1 date within ±2 %"])
        XCTAssertEqual(
            FieldVerdict.notComparableLine(c.rows), "2 values not comparable, not judged: heart_rate_samples.count (1), sleep.source (1)")
        let text = CompareOutcome(report: report, outDir: "x").terminalText(color: false)
        XCTAssertTrue(text.contains("\n  2 values not comparable, not judged: heart_rate_samples.count (1), sleep.source (1)\n"), text)
        XCTAssertFalse(text.contains("Not matching"), text)
        XCTAssertTrue(text.contains("PASSED"), text)
    }

    /// The fixture's HAE file without its last `dates` dates: HAE switched off before the export.
    static func cutHAE(_ fixture: URL, before cut: String) throws -> String {
        var json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: fixture.appendingPathComponent("hae.json"))) as? [String: Any])
        var data = try XCTUnwrap(json["data"] as? [String: Any])
        let metrics = try XCTUnwrap(data["metrics"] as? [[String: Any]])
        data["metrics"] = metrics.map { m in
            var m = m
            m["data"] = (m["data"] as? [[String: Any]] ?? []).filter { (($0["date"] as? String) ?? "").prefix(10) < cut }
            return m
        }
        data["workouts"] = (data["workouts"] as? [[String: Any]] ?? []).filter { (($0["start"] as? String) ?? "").prefix(10) < cut }
        json["data"] = data
        let path = fixture.appendingPathComponent("hae-until-switch.json")
        try JSONSerialization.data(withJSONObject: json).write(to: path)
        return path.path
    }

    /// `--monitor 3` on every profile's 21 dates (2026-03-02 … 03-22), HAE cut before 03-20: the
    /// reference is 03-13 … 03-19, and weekly or occasional fields (weight, VO2 max, alcohol,
    /// cardio recovery, running metrics) do not fail. Steps gone on 03-21 and 03-22 (their records
    /// removed from export.xml) fail naming step_count: seen on 7 of 7 reference dates, spacing
    /// max(1, ⌈7 / 7⌉) = 1; 03-22 − 03-20 = 2 > 1.
    func testMonitorKnowsEachFieldsCadenceOnEveryFixtureProfile() throws {
        for profile in FixtureProfile.all.map(\.name) {
            let fixture = try FixtureCheck.make(days: 21, profile: profile, name: "monitor-" + profile)
            let hae = try Self.cutHAE(fixture, before: "2026-03-20")
            let out = fixture.appendingPathComponent("c").path
            let export = fixture.appendingPathComponent("export.zip").path
            let outcome = try CompareJob(CompareRequest(native: [export], hae: [hae], outDir: out, monitor: 3, until: "2026-03-22")).run()
            XCTAssertEqual(outcome.exitStatus, 0, profile + ": " + outcome.terminalText(color: false))
            XCTAssertTrue(
                outcome.terminalText(color: false).contains(
                    "Monitored the native side's dates 2026-03-20 … 2026-03-22 (up to --until), each field by its cadence in 2026-03-13 … 2026-03-19: 0 gaps"
                ), outcome.terminalText(color: false))
            guard profile == "runner" else { continue }
            let xml = try String(contentsOf: fixture.appendingPathComponent("export.xml"), encoding: .utf8)
            var removed = 0
            let kept = xml.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
                let gone =
                    line.contains("HKQuantityTypeIdentifierStepCount\"")
                    && ["2026-03-21", "2026-03-22"].contains { line.contains("startDate=\"\($0)") || line.contains("endDate=\"\($0)") }
                if gone { removed += 1 }
                return !gone
            }
            XCTAssertGreaterThan(removed, 0)
            let stopped = fixture.appendingPathComponent("steps-stopped.xml")
            try Data(kept.joined(separator: "\n").utf8).write(to: stopped)
            let failed = try CompareJob(CompareRequest(native: [stopped.path], hae: [hae], outDir: out, monitor: 3, until: "2026-03-22"))
                .run()
            XCTAssertEqual(failed.exitStatus, 1)
            XCTAssertEqual(
                failed.report.gaps.map(\.sentence),
                ["native step_count missing on 2026-03-21 … 2026-03-22 (usually every date: seen on 7 of the 7 reference dates)"])
            XCTAssertTrue(failed.terminalText(color: false).contains("step_count"))
        }
    }
}
