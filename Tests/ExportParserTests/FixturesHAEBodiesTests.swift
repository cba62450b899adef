import Foundation
import XCTest

@testable import ExportParser
@testable import HealthFixtures

/// `--hae-bodies default|since`: the fixture's HAE data cut into the REST bodies HAE would have
/// POSTed, four syncs a day (docs/fixtures.md, "HAE's REST bodies"). Converted together, as
/// files, as a folder and as JSON Lines, the bodies give the days `hae.json` gives, byte for
/// byte; in the samples style that is `expected/` exactly but for what HAE cannot carry.
final class FixturesHAEBodiesTests: XCTestCase {
    private func payloads(_ inputs: [String], _ out: URL) throws -> [String: Data] {
        _ = try ConvertJob(ConvertRequest(inputs: inputs, outDir: out.path)).run()
        return try FixtureCheck.files(out.appendingPathComponent("payloads"))
    }

    private func check(
        style: String, window: String, profile: String = "runner", days: Int = 4, start: String = FixtureRequest.defaultStart,
        zone: String = FixtureRequest.defaultTimeZone
    ) throws {
        let label = "\(profile) \(style) \(window) \(zone) from \(start)"
        let dir = try FixtureCheck.make(
            days: days, start: start, seed: 3, zone: zone, profile: profile, haeStyle: style, haeBodies: window,
            name: "bodies-\(style)-\(window)-\(profile)-\(start)")
        let folder = dir.appendingPathComponent("hae-bodies")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        // Four syncs a date and the next morning's: 4 × days + 1 bodies, one a line in the JSONL.
        XCTAssertEqual(names.count, 4 * days + 1, label)
        let lines = try String(contentsOf: dir.appendingPathComponent("hae-bodies.jsonl"), encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 4 * days + 1, label)
        let whole = try payloads([dir.appendingPathComponent("hae.json").path], dir.appendingPathComponent("from-hae-json"))
        XCTAssertEqual(whole.count, days, label)
        let forms: [(String, [String])] = [
            ("files", names.map { folder.appendingPathComponent($0).path }), ("folder", [folder.path]),
            ("JSON Lines", [dir.appendingPathComponent("hae-bodies.jsonl").path]),
        ]
        for (form, inputs) in forms {
            let got = try payloads(inputs, dir.appendingPathComponent("from-" + form.replacingOccurrences(of: " ", with: "-")))
            XCTAssertEqual(Set(got.keys), Set(whole.keys), label + " " + form)
            for (name, bytes) in whole { XCTAssertEqual(got[name], bytes, "\(label) \(form) \(name)") }
        }
        if style == "samples" { try assertExpected(dir, days: days, label) }
    }

    /// Samples-style bodies give `expected/` exactly, the heart-rate count and the snack's two
    /// alike protein datums included, but for what HAE cannot carry (the zone's name, the export
    /// date, a workout's source).
    private func assertExpected(_ dir: URL, days: Int, _ label: String) throws {
        let out = dir.appendingPathComponent("from-folder")
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("expected/payloads").path) {
            func payload(_ folder: URL) throws -> [String: Any] {
                let data = try Data(contentsOf: folder.appendingPathComponent("payloads/" + name))
                var p = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                p["timezone"] = nil
                p["device_sync_timestamp"] = nil
                p["workouts"] = (p["workouts"] as? [[String: Any]])?.map { w in w.filter { $0.key != "source" } }
                return p
            }
            assertSameJSON(try payload(out), try payload(dir.appendingPathComponent("expected")), label + " " + name)
        }
    }

    func testSamplesBodiesWithDefaultWindows() throws { try check(style: "samples", window: "default") }

    func testSamplesBodiesSinceLastSync() throws { try check(style: "samples", window: "since") }

    func testDayBucketBodiesWithDefaultWindows() throws { try check(style: "days", window: "default") }

    func testDayBucketBodiesSinceLastSync() throws { try check(style: "days", window: "since") }

    func testTravellerAndDaylightSavingBodies() throws {
        try check(style: "samples", window: "default", profile: "traveller", days: 5)
        // Amsterdam moves to summer time on 2026-03-29; Sydney back to standard time on 04-05.
        try check(style: "samples", window: "since", days: 8, start: "2026-03-25", zone: "Europe/Amsterdam")
        try check(style: "days", window: "default", days: 8, start: "2026-04-01", zone: "Australia/Sydney")
    }

    func testAnUnknownPeriodIsRefused() {
        XCTAssertThrowsError(try FixtureRequest(days: 2, haeBodies: "hourly").validate()) { e in
            XCTAssertTrue("\(e)".contains("--hae-bodies \"hourly\" is not a sync period: default, since"), "\(e)")
        }
    }
}
