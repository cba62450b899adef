import Foundation
import XCTest

@testable import ExportParser

/// `--hae-style samples`: hae.json as Health Auto Export writes it with Summarize off, one datum
/// a sample. Converted, it must give `expected/` within compare's tolerances (compare of
/// `expected/payloads` against it exits 0), and compare of the export against it must pass, for
/// every profile, both unit systems, three seeds and across daylight-saving changes, as for the
/// day-aggregated twin (FixturesConvertTests).
///
/// No tolerance beyond compare's defaults: the afternoon snack's Banana and Dates, logged at one
/// instant with 1.3 g of protein each, are two datums alike in every field, and the reader keeps
/// them as two samples (HAE writes one datum per HealthKit sample; docs/rules.md, "sum"), so every
/// date's protein is the plan's.
final class FixturesHAESamplesTests: XCTestCase {
    let start = "2026-03-02"
    let days = 5

    private func check(profile: String) throws {
        for units in ["metric", "imperial"] {
            for seed: UInt64 in [1, 2, 3] {
                let label = "\(profile) \(units) seed \(seed) samples"
                let dir = try FixtureCheck.make(days: days, start: start, seed: seed, profile: profile, units: units, haeStyle: "samples")
                try FixtureCheck.assertCompareAgrees(dir, native: "expected/payloads", days: days, start: start, label + " (expected)")
                try FixtureCheck.assertCompareAgrees(dir, days: days, start: start, label + " (export.zip)")
            }
        }
    }

    func testRunnerSamplesConvertToThePlan() throws { try check(profile: "runner") }

    func testSedentarySamplesConvertToThePlan() throws { try check(profile: "sedentary") }

    func testShiftWorkerSamplesConvertToThePlan() throws { try check(profile: "shift-worker") }

    func testTravellerSamplesConvertToThePlan() throws { try check(profile: "traveller") }

    func testSamplesAcrossDaylightSavingChanges() throws {
        for (zone, from) in [("Europe/Amsterdam", "2026-03-25"), ("Australia/Sydney", "2026-04-01")] {
            let dir = try FixtureCheck.make(days: 8, start: from, seed: 5, zone: zone, haeStyle: "samples")
            let hae = try String(contentsOf: dir.appendingPathComponent("hae.json"), encoding: .utf8)
            let offsets = zone == "Europe/Amsterdam" ? ("+0100", "+0200") : ("+1100", "+1000")
            XCTAssertTrue(hae.contains(offsets.0 + "\"") && hae.contains(offsets.1 + "\""), "\(zone): both offsets in hae.json")
            try FixtureCheck.assertCompareAgrees(dir, native: "expected/payloads", days: 8, start: from, zone + " (expected)")
            try FixtureCheck.assertCompareAgrees(dir, days: 8, start: from, zone + " (export.zip)")
        }
    }

    /// Beyond the tolerances: converted, the samples give every field of the plan exactly, the
    /// heart-rate count included (one datum a reading) and the snack's two alike protein datums,
    /// but for what HAE cannot carry (the zone's name, the export date, a workout's source).
    func testSamplesGiveThePlanExactlyButForWhatHAECannotCarry() throws {
        for profile in ["runner", "sedentary", "shift-worker", "traveller"] {
            for units in ["metric", "imperial"] {
                try assertExact(profile: profile, units: units)
            }
        }
    }

    private func assertExact(profile: String, units: String) throws {
        let dir = try FixtureCheck.make(days: 4, seed: 8, profile: profile, units: units, haeStyle: "samples", name: profile + units)
        let out = dir.appendingPathComponent("converted-hae")
        _ = try ConvertJob(ConvertRequest(inputs: [dir.appendingPathComponent("hae.json").path], outDir: out.path)).run()
        for day in ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"] {
            func payload(_ folder: URL) throws -> [String: Any] {
                let data = try Data(contentsOf: folder.appendingPathComponent("payloads/\(day).json"))
                var p = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                p["timezone"] = nil
                p["device_sync_timestamp"] = nil
                p["workouts"] = (p["workouts"] as? [[String: Any]])?.map { w in w.filter { $0.key != "source" } }
                return p
            }
            let want = try payload(dir.appendingPathComponent("expected"))
            let got = try payload(out)
            let heartRate = (got["metrics"] as? [String: Any])?["heart_rate_samples"] as? [String: Any]
            XCTAssertNotNil(heartRate?["count"], "\(profile) \(units) \(day): the count of readings")
            assertSameJSON(got, want, "\(profile) \(units) \(day)")
        }
    }

    /// The same arguments give the same hae.json; the style changes hae.json (and the README and
    /// plan that quote the command) and nothing else.
    func testSamplesAreDeterministicAndChangeOnlyTheHAEFile() throws {
        func digests(_ dir: URL) throws -> [String: String] { try FixtureCheck.files(dir).mapValues { FileDigest.sha256(bytes: $0) } }
        let a = try digests(FixtureCheck.make(days: 6, seed: 12, profile: "sedentary", haeStyle: "samples", name: "first"))
        let b = try digests(FixtureCheck.make(days: 6, seed: 12, profile: "sedentary", haeStyle: "samples", name: "second"))
        let days = try digests(FixtureCheck.make(days: 6, seed: 12, profile: "sedentary", name: "days"))
        XCTAssertEqual(a, b)
        XCTAssertEqual(Set(a.keys), Set(days.keys))
        XCTAssertEqual(Set(a.keys.filter { a[$0] != days[$0] }), ["hae.json", "README.md", "plan.json"])
        let text = try String(
            contentsOf: FixtureCheck.make(days: 2, seed: 12, haeStyle: "samples", name: "text").appendingPathComponent("hae.json"),
            encoding: .utf8)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(text.utf8)))
        XCTAssertTrue(text.contains("\"Min\": "), "heart rate a reading at a time")
        XCTAssertTrue(text.contains("\"value\": \"Deep\""), "sleep as segments")
    }
}
