import Foundation
import XCTest

@testable import ExportParser
@testable import HealthFixtures

/// The app syncs a date several times (docs/compare.md, "Several syncs of a date"): per date the
/// payload with the latest `device_sync_timestamp` is that date, ties to the later in the input,
/// whatever order the backend kept the bodies in; the summary counts the superseded syncs.
final class PayloadSyncsTests: XCTestCase {
    static func body(_ date: String, sync: String, steps: Int) -> String {
        "{\"data\": [{\"date\": \"\(date)\", \"timezone\": \"-06:00\", \"device_sync_timestamp\": \"\(sync)\", \"metrics\": {\"step_count\": \(steps)}}]}"
    }

    /// 03-02 synced at 10:00 (1,000 steps so far), 18:00 (6,000) and the next morning 06:00
    /// (9,000: the whole day). 03-03 synced at 09:00 (500) and twice at 21:00 (6,999, then 7,000:
    /// the tie goes to the later line). Shuffled. Latest: 03-02 9,000, 03-03 7,000; superseded
    /// 2 + 2 = 4. HAE's day buckets say 9,000 and 7,000: compare agrees.
    static let lines = [
        body("2026-03-02", sync: "2026-03-03T06:00:00-06:00", steps: 9000),
        body("2026-03-03", sync: "2026-03-03T09:00:00-06:00", steps: 500),
        body("2026-03-02", sync: "2026-03-02T10:00:00-06:00", steps: 1000),
        body("2026-03-03", sync: "2026-03-03T21:00:00-06:00", steps: 6999),
        body("2026-03-02", sync: "2026-03-02T18:00:00-06:00", steps: 6000),
        body("2026-03-03", sync: "2026-03-03T21:00:00-06:00", steps: 7000),
    ]

    static let hae = """
        {"data": {"metrics": [{"name": "step_count", "units": "count", "data": [
          {"date": "2026-03-02 00:00:00 -0600", "qty": 9000}, {"date": "2026-03-03 00:00:00 -0600", "qty": 7000}]}]}}
        """

    func testLatestSyncOfEachDateIsThatDate() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let native = dir.appendingPathComponent("app-bodies.jsonl"), hae = dir.appendingPathComponent("hae.json")
        try Data((Self.lines.joined(separator: "\n") + "\n").utf8).write(to: native)
        try Data(Self.hae.utf8).write(to: hae)
        let outcome = try CompareJob(
            CompareRequest(
                native: [native.path], hae: [hae.path], days: 2, from: "2026-03-02", outDir: dir.appendingPathComponent("c").path)
        ).run()
        XCTAssertEqual(outcome.exitStatus, 0, outcome.terminalText(color: false))
        XCTAssertEqual(outcome.report.supersededSyncs.native, 4)
        XCTAssertEqual(outcome.report.supersededSyncs.hae, 0)
        XCTAssertTrue(
            outcome.terminalText(color: false).contains(
                "The native side's payload JSON holds several syncs of a date: 4 earlier syncs were superseded"))
        let json = try String(contentsOfFile: dir.appendingPathComponent("c/compare.json").path, encoding: .utf8)
        XCTAssertTrue(json.contains("\"superseded_syncs\""), json)
    }

    /// The choice itself, one date: a later line with an earlier timestamp does not win; a
    /// missing timestamp counts as earlier than any.
    func testLatestSyncsChoice() {
        func day(_ steps: Double, _ sync: String?) -> ComparableDay {
            var d = ComparableDay(date: "2026-03-02")
            d.values["metrics.step_count"] = .number(steps)
            d.deviceSync = sync.flatMap(ISOTimestamp.parse)
            return d
        }
        var syncs = LatestSyncs()
        syncs.add(day(5, "2026-03-02T20:00:00Z"))
        syncs.add(day(3, "2026-03-02T12:00:00Z"))  // earlier: superseded
        syncs.add(day(1, nil))  // no timestamp: superseded
        XCTAssertEqual(syncs.days.count, 1)
        XCTAssertEqual(syncs.days.first?.values["metrics.step_count"], .number(5))
        XCTAssertEqual(syncs.superseded, 2)
    }

    /// A fixture's expected payloads synced three times a date, as the app does, the earlier two
    /// partial (at 10:00 UTC every number halved and no night; at 18:00 UTC every number at 80 %),
    /// the last the whole day (the next morning), kept by the backend shuffled in one JSON Lines
    /// file: compare against the fixture's HAE data exits 0, 2 syncs a date superseded. Taking
    /// the last line of each date instead would compare a partial sync on most dates.
    func testShuffledRepeatedSyncsOfAFixtureAgreeWithItsHAEData() throws {
        let days = 6
        let dir = try FixtureCheck.make(days: days, seed: 4, name: "repeated-syncs")
        var lines: [(order: Int, text: String)] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("expected/payloads").path).sorted() {
            let data = try Data(contentsOf: dir.appendingPathComponent("expected/payloads/" + name))
            let whole = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let date = try XCTUnwrap(whole["date"] as? String)
            let n = try XCTUnwrap(CivilDate.parseISODate(date))
            func scaled(_ v: Any, _ f: Double) -> Any {
                if let d = v as? [String: Any] { return d.mapValues { scaled($0, f) } }
                if let x = PayloadReader.number(v) { return x * f }
                return v
            }
            var early = whole, middle = whole, last = whole
            early["metrics"] = scaled(whole["metrics"] ?? [:], 0.5)
            early["sleep"] = nil
            early["device_sync_timestamp"] = date + "T10:00:00Z"
            middle["metrics"] = scaled(whole["metrics"] ?? [:], 0.8)
            middle["device_sync_timestamp"] = date + "T18:00:00Z"
            last["device_sync_timestamp"] = CivilDate.isoDate(n + 1) + "T06:00:00Z"
            // Shuffled: the whole day first, the partial ones after it (a naive "last wins" loses).
            for (k, p) in [last, early, middle].enumerated() {
                let body = try JSONSerialization.data(withJSONObject: ["data": [p]], options: [.sortedKeys])
                lines.append((k * 100 + n % 7, String(decoding: body, as: UTF8.self)))
            }
        }
        let native = dir.appendingPathComponent("app-bodies.jsonl")
        try Data((lines.sorted { $0.order < $1.order }.map(\.text).joined(separator: "\n") + "\n").utf8).write(to: native)
        let outcome = try CompareJob(
            CompareRequest(
                native: [native.path], hae: [dir.appendingPathComponent("hae.json").path], days: days, from: FixtureRequest.defaultStart,
                outDir: dir.appendingPathComponent("compare").path)
        ).run()
        XCTAssertEqual(outcome.exitStatus, 0, outcome.terminalText(color: false))
        XCTAssertEqual(outcome.report.supersededSyncs.native, 2 * days)
    }
}
