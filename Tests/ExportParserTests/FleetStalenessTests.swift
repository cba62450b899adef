import Foundation
import XCTest

@testable import ExportParser

/// When `--report` takes a stored verdict as current: the person's data unchanged since the
/// check (by the store's ids and counts, never clocks), the same options, the same judged date
/// (`--monitor` without `--until`), and with `--run-id` the same run.
final class FleetStalenessTests: XCTestCase {
    private func verdict(
        _ name: String, run: FleetVerdict.Run = .init(mode: "validate", days: 7), judged: (String, String)? = nil, runID: String? = nil,
        watermark: FleetWatermark = .init()
    ) throws -> FleetVerdict {
        var p = FleetPerson(person: name, status: .ready, exitStatus: 0, reason: "r-\(name)")
        p.judgedDate = judged?.0
        p.judgedZone = judged?.1
        return try FleetVerdict(
            p, run: run, shard: .all, checkedAt: Date(timeIntervalSince1970: 1_780_000_000),
            writtenAt: Date(timeIntervalSince1970: 1_780_000_001), watermark: watermark, runID: runID)
    }

    /// A body whose `received_at` is an hour before the check (a receiver whose clock is
    /// behind, or one that took the time before a long check of the body) but committed after
    /// the check read bob's data: the clock comparison missed it; the watermark (bob's bodies:
    /// max id 0, count 0 at the check; 1 and 1 after) does not. Written and read back whole.
    func testABodyCommittedAfterTheCheckMakesItStaleWhateverItsClockTime() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("fleet.sqlite").path
        let bodies = try ReceivedBodyStore(path: path)
        let table = FleetVerdictTable(try HealthStore(path: path))
        let before = try table.watermark(person: "bob")
        XCTAssertEqual(before, FleetWatermark())
        var run = FleetVerdict.Run(mode: "monitor", days: 7, monitor: 3, until: nil, from: "2026-03-01", timeZone: "UTC")
        run.tolerancesDigest = String(repeating: "ab", count: 32)
        let v = try verdict("bob", run: run, judged: ("2026-05-28", "UTC"), runID: "job-1", watermark: before)
        try table.write(try verdict("ann"))
        try table.write(v)
        XCTAssertEqual(try table.all().last, v)
        XCTAssertEqual(try table.changedSinceChecked(), [])
        let body = Array(#"{"data": [{"date": "2026-03-02"}]}"#.utf8)
        try body.withUnsafeBytes { raw in
            let check = try ReceivedBodyCheck.check(BorrowedBytes(lentFor: raw), endpoint: .app, now: Date(), scratchFolder: dir.path).get()
            _ = try bodies.keep(
                raw, endpoint: .app, person: "bob", check: check, receivedAt: Date(timeIntervalSince1970: 1_780_000_000 - 3600))
        }
        XCTAssertEqual(try table.watermark(person: "bob"), FleetWatermark(bodiesMaxID: 1, bodies: 1, importsMaxID: 0, imports: 0))
        XCTAssertEqual(try table.changedSinceChecked(), ["bob"])
    }

    /// `--monitor 3` without `--until`, the report at 2026-11-29 03:00 UTC (1_795_921_200 s):
    /// ann judged 2026-11-29 in UTC: today, current. bob judged 2026-11-28 in UTC: yesterday's
    /// (a shard that failed today left it), stale. cat judged 2026-11-28 in -05:00, where it is
    /// still 2026-11-28 22:00: current.
    func testAVerdictOfAnotherDayIsStale() throws {
        let run = FleetVerdict.Run(mode: "monitor", days: 7, monitor: 3, until: nil)
        let report = try XCTUnwrap(
            FleetAssembly.report(
                verdicts: [
                    try verdict("ann", run: run, judged: ("2026-11-29", "UTC")),
                    try verdict("bob", run: run, judged: ("2026-11-28", "UTC")),
                    try verdict("cat", run: run, judged: ("2026-11-28", "-05:00")),
                ], everyone: ["ann", "bob", "cat"], changed: [], now: Date(timeIntervalSince1970: 1_795_921_200)))
        XCTAssertEqual(report.coverage.stalePeople, ["bob"])
        XCTAssertFalse(report.allReady)
    }

    /// Options that change a verdict: a verdict made with another tolerances file's content,
    /// `--from`, `--timezone` or tool version than the newest (ann's, written last) is stale.
    func testOtherOptionsAreStale() throws {
        let base = FleetVerdict.Run(mode: "validate", days: 7)
        var newest = try verdict("ann", run: base)
        newest.writtenAt = "2026-11-29T00:00:00.000Z"
        var tol = base, from = base, zone = base, tool = base
        tol.tolerancesDigest = String(repeating: "0", count: 64)
        from.from = "2026-03-01"
        zone.timeZone = "Europe/Madrid"
        tool.toolVersion = "0.0.1"
        let report = try XCTUnwrap(
            FleetAssembly.report(
                verdicts: [
                    newest, try verdict("bob", run: tol), try verdict("cat", run: from), try verdict("dan", run: zone),
                    try verdict("eve", run: tool), try verdict("fay", run: base),
                ], everyone: ["ann", "bob", "cat", "dan", "eve", "fay"], changed: []))
        XCTAssertEqual(report.coverage.stalePeople, ["bob", "cat", "dan", "eve"])
    }

    /// `--report --run-id job-b`: ann's verdict of run job-a is stale although newer; bob's and
    /// cat's of job-b are current, and the report's options are job-b's (days 5, not ann's 7).
    func testReportOfOneRun() throws {
        var ann = try verdict("ann", runID: "job-a")
        ann.writtenAt = "2026-11-29T00:00:00.000Z"
        let five = FleetVerdict.Run(mode: "validate", days: 5)
        let report = try XCTUnwrap(
            FleetAssembly.report(
                verdicts: [ann, try verdict("bob", run: five, runID: "job-b"), try verdict("cat", run: five, runID: "job-b")],
                everyone: ["ann", "bob", "cat"], changed: [], runID: "job-b"))
        XCTAssertEqual(report.coverage.stalePeople, ["ann"])
        XCTAssertEqual(report.days, 5)
    }

    /// `--report` takes its options from the verdicts: a window or tolerances given with it is
    /// a usage error naming the first (exit 2), and `--run-id` is for `--everyone` only.
    func testReportRefusesWindowAndToleranceOptions() {
        func request(_ change: (inout CompareRequest) -> Void) -> CompareRequest {
            var r = CompareRequest(native: [], hae: [], storePath: "s.sqlite", everyone: true)
            r.reportOnly = true
            change(&r)
            return r
        }
        XCTAssertNoThrow(try request { $0.runID = "job-b" }.validate())
        let cases: [(String, (inout CompareRequest) -> Void)] = [
            ("--days", { $0.daysGiven = true }), ("--from", { $0.from = "2026-03-01" }), ("--monitor", { $0.monitor = 3 }),
            ("--tolerances", { $0.tolerancesPath = "t.toml" }), ("--timezone", { $0.timeZoneName = "UTC" }),
        ]
        for (option, change) in cases {
            XCTAssertThrowsError(try request(change).validate(), option) { e in XCTAssertEqual((e as? UsageError)?.option, option) }
        }
        var single = CompareRequest(native: [], hae: [], storePath: "s.sqlite")
        single.runID = "x"
        XCTAssertThrowsError(try single.validate()) { e in XCTAssertEqual((e as? UsageError)?.option, "--run-id") }
    }
}
