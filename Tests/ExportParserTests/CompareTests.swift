import Foundation
import XCTest

@testable import ExportParser

/// `compare` on native and HAE inputs of the same dates with planted differences
/// (`CompareFixtures`): the expected rows are written out there and checked here row by row in
/// the CSV and the JSON; the gaps; the exit statuses 0, 1 and 2; `--monitor`; payload-JSON inputs.
final class CompareTests: XCTestCase {
    typealias F = CompareFixtures

    private func run(
        native: [String], hae: [String], out: String, monitor: Int? = nil, from: String? = nil,
        tolerances: String? = nil
    ) throws -> CompareOutcome {
        try CompareJob(
            CompareRequest(
                native: native, hae: hae, from: from, timeZoneName: "Australia/Sydney", tolerancesPath: tolerances,
                outDir: out, monitor: monitor)
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

        // The terminal: the summary, the rows that are not `match`, the gaps, the verdict.
        let text = outcome.terminalText(color: false)
        XCTAssertTrue(text.hasPrefix("Compared 2024-03-01 … 2024-03-07 (7 dates)"), text)
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

    /// The same days through both readers match: exit 0.
    func testTwinsPass() throws {
        let twins = TestPaths.fixtures.appendingPathComponent("twins")
        let out = try StoreTestSupport.temporaryDirectory().appendingPathComponent("c").path
        let outcome = try run(
            native: [twins.appendingPathComponent("same-days.xml").path],
            hae: [twins.appendingPathComponent("same-days.hae.json").path], out: out)
        XCTAssertEqual(outcome.exitStatus, 0, outcome.terminalText(color: false))
        XCTAssertTrue(outcome.terminalText(color: false).contains("PASSED"))
    }

    /// `--monitor 3` after the switch-off: the native side's last three dates must carry every
    /// field it had in the window. The last date's payload lost its sleep: five sleep fields
    /// missing on 03-07; the other two dates are whole.
    func testMonitorFindsAFieldTheNativeSideStoppedDelivering() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let (native, hae) = try F.write(into: dir)
        let nativeOut = dir.appendingPathComponent("native").path
        _ = try ConvertJob(ConvertRequest(inputs: [native], outDir: nativeOut, timeZoneName: "Australia/Sydney")).run()
        let last = nativeOut + "/payloads/2024-03-07.json"
        var day = try Self.json(last)
        day["sleep"] = nil
        try JSONSerialization.data(withJSONObject: day).write(to: URL(fileURLWithPath: last))
        let out = dir.appendingPathComponent("compare").path
        let outcome = try run(native: [nativeOut + "/payloads"], hae: [hae], out: out, monitor: 3)
        XCTAssertEqual(outcome.exitStatus, 1)
        let gaps = (try Self.json(out + "/compare.json")["gaps"] as? [[String: Any]])?.compactMap { $0["sentence"] as? String }
        XCTAssertEqual(
            gaps,
            [
                "native sleep.total_hours missing on 2024-03-07", "native sleep.core_hours missing on 2024-03-07",
                "native sleep.in_bed_start missing on 2024-03-07", "native sleep.in_bed_end missing on 2024-03-07",
                "native sleep.source missing on 2024-03-07",
            ])
        // The dates checked are named: the native side's last three, 03-05 … 03-07.
        XCTAssertTrue(
            outcome.terminalText(color: false).hasPrefix(
                "Monitored the native side's last dates, 2024-03-05 … 2024-03-07, for every field"),
            outcome.terminalText(color: false))
        XCTAssertEqual(try Self.json(out + "/compare.json")["monitored"] as? [String: String], ["from": "2024-03-05", "to": "2024-03-07"])
        // Whole dates pass.
        let whole = try run(native: [native], hae: [hae], out: out, monitor: 3)
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

    /// The real executable: 0 when everything matches, 1 when not, 2 for bad input or usage,
    /// each with what a person needs on the terminal.
    func testExitStatusesOfTheCommand() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let (native, hae) = try F.write(into: dir)
        let twins = TestPaths.fixtures.appendingPathComponent("twins")
        func command(_ args: [String]) throws -> (Int32, String, String) {
            let p = Process()
            p.executableURL = StoreKillTests.toolURL
            p.arguments = ["compare"] + args
            var env = ProcessInfo.processInfo.environment
            env["NO_COLOR"] = "1"
            p.environment = env
            let out = Pipe(), err = Pipe()
            p.standardOutput = out
            p.standardError = err
            try p.run()
            let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
        }
        let out = dir.appendingPathComponent("c").path
        let pass = try command([
            "--native", twins.appendingPathComponent("same-days.xml").path, "--hae",
            twins.appendingPathComponent("same-days.hae.json").path, "--timezone", "Australia/Sydney", "--out", out,
        ])
        XCTAssertEqual(pass.0, 0, pass.1 + pass.2)
        let fail = try command(["--native", native, "--hae", hae, "--timezone", "Australia/Sydney", "--out", out])
        XCTAssertEqual(fail.0, 1, fail.2)
        XCTAssertTrue(fail.1.contains("FAILED"))
        let broken = dir.appendingPathComponent("broken.json")
        try Data("{\"data\": {\"metrics\": [".utf8).write(to: broken)
        let bad = try command(["--native", native, "--hae", broken.path, "--out", out])
        XCTAssertEqual(bad.0, 2)
        XCTAssertTrue(bad.2.contains(broken.path), bad.2)
        let usage = try command(["--native", native, "--out", out])
        XCTAssertEqual(usage.0, 2)
        XCTAssertTrue(usage.2.contains("--hae"), usage.2)
    }
}
