import Foundation
import XCTest

@testable import ExportParser

/// `compare` on native and HAE inputs of the same dates with planted differences
/// (`CompareFixtures`): the expected rows are written out there and checked here row by row in
/// the CSV and the JSON; the gaps; the exit statuses 0, 1 and 2; `--monitor`; payload-JSON inputs.
final class CompareTests: XCTestCase {
    typealias F = CompareFixtures

    private func run(
        native: [String], hae: [String], out: String, days: Int = 7, monitor: Int? = nil, until: String? = nil, from: String? = nil,
        tolerances: String? = nil
    ) throws -> CompareOutcome {
        try CompareJob(
            CompareRequest(
                native: native, hae: hae, days: days, from: from, timeZoneName: "Australia/Sydney", tolerancesPath: tolerances,
                outDir: out, monitor: monitor, until: until)
        ).run()
    }

    /// The CSV's rows as `date,field,workout,native,hae,status` (RFC 4180, no quoted commas here).
    static func csvRows(_ path: String) throws -> [String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        XCTAssertEqual(lines.first, CompareCSV.header.joined(separator: ","))
        return lines.dropFirst().map { line in
            let c = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return [c[0], c[1], c[2], c[3], c[4], c[9]].joined(separator: ",")
        }
    }

    static func json(_ path: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    func testPlantedDifferencesRowByRow() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let (native, hae) = try F.write(into: dir)
        let out = dir.appendingPathComponent("compare").path
        let outcome = try run(native: [native], hae: [hae], out: out)
        XCTAssertEqual(outcome.exitStatus, 1)

        XCTAssertEqual(try Self.csvRows(out + "/compare.csv"), F.expectedRows)
        let json = try Self.json(out + "/compare.json")
        let rows = try XCTUnwrap(json["rows"] as? [[String: Any]])
        func text(_ v: Any?) -> String {
            if let n = v as? NSNumber { return JSONValue.format(n.doubleValue, decimals: 6) }
            return v as? String ?? ""
        }
        XCTAssertEqual(
            rows.map { r in ["date", "field", "workout", "native", "hae", "status"].map { text(r[$0]) }.joined(separator: ",") },
            F.expectedRows)
        XCTAssertEqual((json["gaps"] as? [[String: Any]])?.compactMap { $0["sentence"] as? String }, F.expectedGaps)
        let summary = try XCTUnwrap(json["summary"] as? [String: Any])
        // 58 rows: 45 match, 3 mismatch (two sleep fields on 03-02, steps on 03-04), 10 only
        // native (8 on 03-06, energy on 03-07, the walk on 03-05).
        XCTAssertEqual(summary["rows"] as? Int, 58)
        XCTAssertEqual(summary["match"] as? Int, 45)
        XCTAssertEqual(summary["mismatch"] as? Int, 3)
        XCTAssertEqual(summary["only_native"] as? Int, 10)
        XCTAssertEqual(summary["passed"] as? Bool, false)
        XCTAssertEqual((json["window"] as? [String: Any])?["from"] as? String, "2024-03-01")
        XCTAssertEqual((json["window"] as? [String: Any])?["to"] as? String, "2024-03-07")

        // The steps row in full: +500, 500 / 10,000 = 0.05, tolerance ±2 %.
        let steps = try XCTUnwrap(rows.first { $0["date"] as? String == "2024-03-04" && $0["field"] as? String == "metrics.step_count" })
        XCTAssertEqual(steps["difference"] as? Double, 500)
        XCTAssertEqual(steps["relative_difference"] as? Double, 0.05)
        XCTAssertEqual(steps["tolerance"] as? String, "±2 %")

        // The explain command of each side, beside the mismatch only.
        XCTAssertEqual(
            steps["explain"] as? [String: String],
            [
                "native": "health-import explain \(native) --date 2024-03-04 --field metrics.step_count --timezone Australia/Sydney",
                "hae": "health-import explain \(hae) --date 2024-03-04 --field metrics.step_count --timezone Australia/Sydney",
            ])
        XCTAssertTrue(rows.filter { $0["status"] as? String != "mismatch" }.allSatisfy { $0["explain"] is NSNull })

        // The per-field verdict, failing fields first (field-table order, workouts last), then
        // those with dates on one side only, then those that pass. By hand from the plan above:
        // steps: 5 of 7 dates match (03-04 is 10,500 − 10,000 = +500, 500 / 10,000 = 5 %; 03-06
        // has no HAE); sleep total and core: 7 − 7.2 h = −0.2 h = −12 min on 03-02, 03-06 only
        // native; workouts: the run paired, the walk alone; resting heart rate (±3 %, an average),
        // in-bed times and the sleep source: 6 of 7, 03-06 only native; energy: 5 of 7 (03-06 and
        // 03-07 only native); the run's energy 300 = 300.
        let verdicts = try XCTUnwrap(json["verdict"] as? [[String: Any]])
        XCTAssertEqual(
            verdicts.compactMap { $0["sentence"] as? String },
            [
                "step_count 5/7 dates within ±2 % (2024-03-04 +500 (+5 %), 2024-03-06 only native)",
                "sleep.total_hours 5/7 dates within ±10 min (2024-03-02 −12 min, 2024-03-06 only native)",
                "sleep.core_hours 5/7 dates within ±10 min (2024-03-02 −12 min, 2024-03-06 only native)",
                "workouts 1/2 paired (2024-03-05 Walking 12:00:00 only native)",
                "resting_hr 6/7 dates within ±3 % (2024-03-06 only native)",
                "active_calories 5/7 dates within ±2 % (2024-03-06 only native, 2024-03-07 only native)",
                "sleep.in_bed_start 6/7 dates within ±15 min (2024-03-06 only native)",
                "sleep.in_bed_end 6/7 dates within ±15 min (2024-03-06 only native)",
                "sleep.source 6/7 dates the same (2024-03-06 only native)",
                "workouts.energy_kcal 1/1 workout within ±2 %",
            ])
        XCTAssertEqual(
            verdicts.compactMap { $0["status"] as? String },
            Array(repeating: "fail", count: 4) + Array(repeating: "one-sided", count: 5) + ["pass"])

        // The terminal: each side (HAE's run names no source: its reader calls it "Health Auto
        // Export"), the summary, the per-field verdict, the rows that are not
        // `match`, how each mismatch was made, the gaps, the verdict.
        let text = outcome.terminalText(color: false)
        XCTAssertTrue(
            text.hasPrefix(
                """
                native: Apple Health export \(native), 2024-03-01 … 2024-03-07 (7 dates), sources: Anna’s Apple Watch
                HAE: Health Auto Export JSON \(hae), 2024-03-01 … 2024-03-07 (6 dates), sources: Anna’s Apple Watch, Health Auto Export
                Compared 2024-03-01 … 2024-03-07 (7 dates)
                """), text)
        XCTAssertTrue(text.contains("\nPer field:\n  ✗ step_count 5/7 dates within ±2 %"), text)
        XCTAssertLessThan(text.range(of: "Per field:")!.lowerBound, text.range(of: "Not matching:")!.lowerBound)
        XCTAssertTrue(
            text.contains(
                """
                  2024-03-04 step_count
                    native:  health-import explain \(native) --date 2024-03-04 --field metrics.step_count --timezone Australia/Sydney
                    HAE:     health-import explain \(hae) --date 2024-03-04 --field metrics.step_count --timezone Australia/Sydney
                """),
            text)
        XCTAssertTrue(text.contains("  2024-03-04  step_count"), text)
        XCTAssertTrue(text.contains("no active_calories from HAE after 2024-03-05"), text)
        XCTAssertTrue(text.contains("FAILED: 3 values out of tolerance, 1 workout on one side only, 2 gaps"), text)
        XCTAssertFalse(text.contains("\u{1B}["), "no colour when not asked")
        XCTAssertTrue(outcome.terminalText(color: true).contains("\u{1B}[31m"))
        for name in ["compare.csv", "compare.json", "compare.html"] {
            XCTAssertEqual(try StoreTestSupport.mode(out + "/" + name), 0o600, name)
        }
    }

    /// Payload JSON as inputs: the native side's payloads folder and the HAE side's payloads.json
    /// (both written by `convert`) give the same statuses as the files they came from (the
    /// payload's rounding moves no value across a tolerance here).
    func testPayloadJSONInputs() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let (native, hae) = try F.write(into: dir)
        let nativeOut = dir.appendingPathComponent("native").path, haeOut = dir.appendingPathComponent("hae").path
        _ = try ConvertJob(ConvertRequest(inputs: [native], outDir: nativeOut, timeZoneName: "Australia/Sydney")).run()
        _ = try ConvertJob(ConvertRequest(inputs: [hae], outDir: haeOut, timeZoneName: "Australia/Sydney")).run()
        let out = dir.appendingPathComponent("compare").path
        let outcome = try run(native: [nativeOut + "/payloads"], hae: [haeOut + "/payloads.json"], out: out)
        XCTAssertEqual(outcome.exitStatus, 1)
        let rows = try Self.csvRows(out + "/compare.csv")
        // 7.133333 h is 7.13 on the wire.
        let expected = F.expectedRows.map { $0.replacingOccurrences(of: "7.133333", with: "7.13") }
        XCTAssertEqual(rows, expected)
        // A file of bodies, one a line, reads the same as payloads.json.
        let lines = dir.appendingPathComponent("bodies.jsonl")
        let payloads = try Self.json(haeOut + "/payloads.json")["data"] as! [Any]
        let text = try payloads.map { String(decoding: try JSONSerialization.data(withJSONObject: ["data": [$0]]), as: UTF8.self) }.joined(
            separator: "\n")
        try Data(text.utf8).write(to: lines)
        XCTAssertTrue(PayloadReader.isPayloadInput(lines.path))
        XCTAssertFalse(PayloadReader.isPayloadInput(hae), "an HAE export is not payload JSON")
        XCTAssertTrue(PayloadReader.isPayloadInput(nativeOut + "/payloads"), "a folder of DATE.json")
        let haeFolder = dir.appendingPathComponent("hae-files")
        try FileManager.default.createDirectory(at: haeFolder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: hae, toPath: haeFolder.appendingPathComponent("a.json").path)
        XCTAssertFalse(PayloadReader.isPayloadInput(haeFolder.path), "a folder of HAE files is not payload JSON")
        _ = try run(native: [nativeOut + "/payloads"], hae: [lines.path], out: out)
        XCTAssertEqual(try Self.csvRows(out + "/compare.csv"), expected)
        XCTAssertFalse(
            try run(native: [nativeOut + "/payloads"], hae: [lines.path], out: out).terminalText(color: false).contains("Ignored"))

        // Keys no field has (another writer's names) are reported, not silently compared as
        // missing: restingHeartRate on all 7 dates of the HAE side, a made-up section once.
        var renamed = try Self.json(haeOut + "/payloads.json")
        var days = renamed["data"] as! [[String: Any]]
        for i in days.indices {
            var metrics = days[i]["metrics"] as! [String: Any]
            metrics["restingHeartRate"] = 55
            days[i]["metrics"] = metrics
        }
        days[0]["extras"] = "x"
        renamed["data"] = days
        let renamedPath = dir.appendingPathComponent("renamed.json").path
        try JSONSerialization.data(withJSONObject: renamed).write(to: URL(fileURLWithPath: renamedPath))
        let withUnknown = try run(native: [nativeOut + "/payloads"], hae: [renamedPath], out: out)
        XCTAssertTrue(
            withUnknown.terminalText(color: false).contains(
                "Ignored in \(renamedPath), keys no payload field has: metrics.restingHeartRate (\(days.count)), extras (1)"),
            withUnknown.terminalText(color: false))
        let ignored = try XCTUnwrap(Self.json(out + "/compare.json")["ignored_keys"] as? [[String: Any]])
        XCTAssertEqual(ignored.count, 1)
        XCTAssertEqual(ignored.first?["input"] as? String, renamedPath)
        XCTAssertEqual(ignored.first?["keys"] as? [String: Int], ["metrics.restingHeartRate": days.count, "extras": 1])
    }

    /// `--store`: both sides from one store's imports of a person (the native export and the HAE
    /// file converted into it) give the same rows as the files themselves.
    func testStoreInputs() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let (native, hae) = try F.write(into: dir)
        let store = dir.appendingPathComponent("health.sqlite").path
        _ = try ConvertJob(
            ConvertRequest(
                inputs: [native, hae], outDir: dir.appendingPathComponent("o").path, timeZoneName: "Australia/Sydney",
                storePath: store, person: "ann")
        ).run()
        let out = dir.appendingPathComponent("compare").path
        let outcome = try CompareJob(CompareRequest(native: [], hae: [], outDir: out, storePath: store, person: "ann")).run()
        XCTAssertEqual(outcome.exitStatus, 1)
        XCTAssertEqual(try Self.csvRows(out + "/compare.csv"), F.expectedRows)
        XCTAssertThrowsError(try CompareJob(CompareRequest(native: [], hae: [], outDir: out, storePath: store, person: "bob")).run()) { e in
            XCTAssertTrue("\(e)".contains("no import for the person \"bob\""), "\(e)")
        }
    }

    /// The same days through both readers (an export and its HAE twin, as HAE writes one with
    /// Summarize off) are two readings of the same HealthKit samples: identical values pass, as a
    /// good migration does (only payload JSON identical to the other side is refused,
    /// CompareVerdictTests). The HAE side's steps on 03-02 raised by 1 % (3,500 → 3,535:
    /// 35 / 3,500 = 1 %, within ±2 %) pass too.
    func testTwinsPassANearTwinPasses() throws {
        let twins = TestPaths.fixtures.appendingPathComponent("twins")
        let dir = try StoreTestSupport.temporaryDirectory()
        let out = dir.appendingPathComponent("c").path
        let xml = twins.appendingPathComponent("same-days.xml").path
        // The twins hold 3 dates: the check is asked for those 3 (with 7 it would say "not enough
        // data", CompareTrustTests).
        let same = try run(native: [xml], hae: [twins.appendingPathComponent("same-days.hae.json").path], out: out, days: 3)
        XCTAssertEqual(same.exitStatus, 0, same.terminalText(color: false))
        let near = try Self.nearTwin(in: dir)
        let outcome = try run(native: [xml], hae: [near], out: out, days: 3)
        XCTAssertEqual(outcome.exitStatus, 0, outcome.terminalText(color: false))
        XCTAssertTrue(outcome.terminalText(color: false).contains("PASSED"))
        XCTAssertTrue(outcome.terminalText(color: false).contains("✓ step_count 2/2 dates within ±2 %"), outcome.terminalText(color: false))
    }

    /// The twins' HAE file with 03-02's steps 1 % higher (3,535 for 3,500).
    static func nearTwin(in dir: URL) throws -> String {
        let text = try String(
            contentsOf: TestPaths.fixtures.appendingPathComponent("twins/same-days.hae.json"), encoding: .utf8)
        XCTAssertTrue(text.contains("\"qty\": 3500,"))
        let path = dir.appendingPathComponent("near-twin.hae.json")
        try Data(text.replacingOccurrences(of: "\"qty\": 3500,", with: "\"qty\": 3535,").utf8).write(to: path)
        return path.path
    }

    /// `--monitor 3` after the switch-off: the native side's last three dates (03-05 … 03-07),
    /// each field by its cadence in the reference dates before them that the side has: 03-01 …
    /// 03-04 (the window is the 7 dates 02-27 … 03-04, 2024 being a leap year; nothing before
    /// 03-01). Sleep came on 4 of 4: spacing max(1, ⌈4 / 4⌉) = 1, so it is missing once more
    /// than 1 date has passed since it was last seen. Sleep gone from 03-07 alone: 03-07 − 03-05
    /// = 1, no gap. Gone from 03-06 and 03-07: 03-07 − 03-05 = 2 > 1, one line for each of the
    /// five sleep fields.
    func testMonitorFindsAFieldTheNativeSideStoppedDelivering() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let (native, hae) = try F.write(into: dir)
        let nativeOut = dir.appendingPathComponent("native").path
        _ = try ConvertJob(ConvertRequest(inputs: [native], outDir: nativeOut, timeZoneName: "Australia/Sydney")).run()
        func dropSleep(_ date: String) throws {
            let path = nativeOut + "/payloads/\(date).json"
            var day = try Self.json(path)
            day["sleep"] = nil
            try JSONSerialization.data(withJSONObject: day).write(to: URL(fileURLWithPath: path))
        }
        let out = dir.appendingPathComponent("compare").path
        try dropSleep("2024-03-07")
        let oneDate = try run(native: [nativeOut + "/payloads"], hae: [hae], out: out, monitor: 3, until: "2024-03-07")
        XCTAssertEqual(oneDate.exitStatus, 0, oneDate.terminalText(color: false))

        try dropSleep("2024-03-06")
        let outcome = try run(native: [nativeOut + "/payloads"], hae: [hae], out: out, monitor: 3, until: "2024-03-07")
        XCTAssertEqual(outcome.exitStatus, 1)
        let gaps = (try Self.json(out + "/compare.json")["gaps"] as? [[String: Any]])?.compactMap { $0["sentence"] as? String }
        let usual = "(usually every date: seen on 4 of the 4 reference dates)"
        XCTAssertEqual(
            gaps,
            ["sleep.total_hours", "sleep.core_hours", "sleep.in_bed_start", "sleep.in_bed_end", "sleep.source"].map {
                "native \($0) missing on 2024-03-06 … 2024-03-07 \(usual)"
            })
        // The dates checked are named: the three up to --until, 03-05 … 03-07.
        XCTAssertTrue(
            outcome.terminalText(color: false).contains(
                "Monitored the native side's dates 2024-03-05 … 2024-03-07 (up to --until), each field by its cadence in 2024-02-27 … 2024-03-04"
            ),
            outcome.terminalText(color: false))
        XCTAssertEqual(
            try Self.json(out + "/compare.json")["monitored"] as? [String: String],
            ["from": "2024-03-05", "to": "2024-03-07", "until": "--until"])

        // A monitored date with nothing at all is one line, not one a field: 03-06 gone, 03-07
        // whole again (each field last seen 03-05: 03-07 − 03-05 = 2 dates, but present on 03-07).
        let wholeOut = dir.appendingPathComponent("whole").path
        _ = try ConvertJob(ConvertRequest(inputs: [native], outDir: wholeOut, timeZoneName: "Australia/Sydney")).run()
        try FileManager.default.removeItem(atPath: wholeOut + "/payloads/2024-03-06.json")
        _ = try run(native: [wholeOut + "/payloads"], hae: [hae], out: out, monitor: 3, until: "2024-03-07")
        XCTAssertEqual(
            (try Self.json(out + "/compare.json")["gaps"] as? [[String: Any]])?.compactMap { $0["sentence"] as? String },
            ["no data from native on 2024-03-06"])

        // Whole dates pass.
        let whole = try run(native: [native], hae: [hae], out: out, monitor: 3, until: "2024-03-07")
        XCTAssertEqual(whole.exitStatus, 0, whole.terminalText(color: false))
    }

    /// A tolerances file widens what matches: steps at ±6 % and sleep at ±15 min make every
    /// value match (the gaps remain). TOML and JSON say the same.
    func testTolerancesFile() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let (native, hae) = try F.write(into: dir)
        let toml = dir.appendingPathComponent("t.toml"), json = dir.appendingPathComponent("t.json")
        try Data("# wider\n\"metrics.step_count\" = \"6%\"\nsleep-duration = \"15 min\"\n".utf8).write(to: toml)
        try Data(#"{"metrics.step_count": "6 %", "sleep-duration": "15min"}"#.utf8).write(to: json)
        for file in [toml, json] {
            let out = dir.appendingPathComponent("c").path
            _ = try run(native: [native], hae: [hae], out: out, tolerances: file.path)
            let summary = try XCTUnwrap(try Self.json(out + "/compare.json")["summary"] as? [String: Any])
            XCTAssertEqual(summary["mismatch"] as? Int, 0, file.lastPathComponent)
            XCTAssertEqual(summary["gaps"] as? Int, 2, file.lastPathComponent)
        }
        let bad = dir.appendingPathComponent("bad.toml")
        try Data("steps = \"2%\"\n".utf8).write(to: bad)
        XCTAssertThrowsError(try run(native: [native], hae: [hae], out: dir.path + "/c", tolerances: bad.path)) { e in
            XCTAssertTrue("\(e)".contains("\"steps\" is neither a field kind"), "\(e)")
        }
        // Minutes only for times: on steps "10 min" would have meant 10 steps.
        for (text, key) in [("\"metrics.step_count\" = \"10 min\"\n", "metrics.step_count"), ("sum = \"10 min\"\n", "sum")] {
            try Data(text.utf8).write(to: bad)
            XCTAssertThrowsError(try run(native: [native], hae: [hae], out: dir.path + "/c", tolerances: bad.path)) { e in
                XCTAssertTrue("\(e)".contains("\"10 min\" is a time, but \(key) is not a sleep duration or time"), "\(e)")
            }
        }
        try Data("\"sleep.in_bed_start\" = \"20 min\"\n".utf8).write(to: bad)
        XCTAssertNoThrow(try run(native: [native], hae: [hae], out: dir.path + "/c", tolerances: bad.path))
    }

}
