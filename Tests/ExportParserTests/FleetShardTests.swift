import Foundation
import XCTest

@testable import ExportParser

/// `compare --everyone --shard K/N` and `--report`: which shard a person falls in (worked by
/// hand from `sha256sum`), that N shards split any cohort into disjoint shares that together are
/// everyone, and the fleet report rebuilt from stored verdicts with who is missing or stale.
final class FleetShardTests: XCTestCase {
    /// `printf ann | sha256sum` = 49915e0d7d4b402e 3017d0…: the first 8 bytes, big-endian, are
    /// 0x49915e0d7d4b402e = 5301121648421453870.
    /// - mod 2 and mod 4 depend on the last byte only (256 is a multiple of both): 0x2e = 46,
    ///   46 mod 2 = 0, 46 mod 4 = 2.
    /// - mod 3 by the digit sum of 5301121648421453870: 5+3+0+1+1+2+1+6+4+8+4+2+1+4+5+3+8+7+0
    ///   = 65, 65 mod 3 = 2.
    /// `printf cat | sha256sum` = 77af778b51abd4a3…: last byte 0xa3 = 163, mod 2 = 1, mod 4 = 3.
    func testAPersonsShardWorkedByHand() {
        XCTAssertEqual(FleetShard.index(of: "ann", count: 2), 0)
        XCTAssertEqual(FleetShard.index(of: "ann", count: 4), 2)
        XCTAssertEqual(FleetShard.index(of: "ann", count: 3), 2)
        XCTAssertEqual(FleetShard.index(of: "cat", count: 2), 1)
        XCTAssertEqual(FleetShard.index(of: "cat", count: 4), 3)
        XCTAssertEqual(FleetShard.index(of: "ann", count: 1), 0)
        XCTAssertTrue(try FleetShard("2/4").contains("ann"))
        XCTAssertFalse(try FleetShard("0/4").contains("ann"))
    }

    /// For several N, 303 ids: the N workers, each parsing its own `K/N` text and picking its
    /// people with `select` (as `FleetJob` does), pick every id exactly once. Counted per id, so
    /// a parse that gave two texts the same K (a person picked twice, another never), a
    /// selection that dropped or repeated items, or a hash that ignored its input (every id in
    /// one shard) fails: with 303 ids each shard of N ≤ 8 must pick someone.
    func testShardsAreDisjointAndCoverEveryone() throws {
        let people = (0..<300).map { "person-\($0)" } + ["", "é", "a/b"]
        for n in [1, 2, 3, 5, 8, 64] {
            var picked: [String: Int] = [:]
            for k in 0..<n {
                let mine = try FleetShard("\(k)/\(n)").select(people) { $0 }
                if n <= 8 { XCTAssertFalse(mine.isEmpty, "N=\(n): shard \(k) picked no one of 303") }
                for p in mine { picked[p, default: 0] += 1 }
            }
            XCTAssertEqual(picked.count, people.count, "N=\(n): some id in no shard")
            XCTAssertEqual(picked.filter { $0.value != 1 }.keys.sorted(), [], "N=\(n): ids picked more than once")
        }
    }

    /// A verdict whose JSON cannot be read counts as missing, once, with its shard; so does one
    /// of a person the store no longer holds. ann (0x2e) and bob (0xda) are even: shard 0/2;
    /// cat (0xa3) is odd: 1/2. Store: ann and bob; verdicts: ann readable, bob unreadable, cat
    /// unreadable. Missing: bob and cat (not bob twice), shards 0/2 (bob) and 1/2 (cat).
    func testUnreadableVerdictIsMissingOnceWithItsShard() throws {
        var bob = try verdict("bob", .ready), cat = try verdict("cat", .ready)
        bob.personJSON = "{not json"
        cat.personJSON = ""
        let report = try XCTUnwrap(
            FleetAssembly.report(verdicts: [try verdict("ann", .ready), bob, cat], everyone: ["ann", "bob"], changed: []))
        XCTAssertEqual(report.people.map(\.person), ["ann"])
        XCTAssertEqual(report.coverage.missingPeople, ["bob", "cat"])
        XCTAssertEqual(report.coverage.missingShards, ["0/2", "1/2"])
    }

    /// K counts from 0 as `$JOB_COMPLETION_INDEX`: 0/4 … 3/4 are shards, 4/4 is not.
    func testShardTexts() throws {
        XCTAssertEqual(try FleetShard("3/4").description, "3/4")
        for bad in ["4/4", "1/0", "-1/3", "a/b", "1", "1/2/3", ""] {
            XCTAssertThrowsError(try FleetShard(bad), bad) { e in XCTAssertEqual((e as? UsageError)?.option, "--shard", bad) }
        }
    }

    private func verdict(_ name: String, _ status: FleetStatus, days: Int = 7, shard: String = "0/2") throws -> FleetVerdict {
        let p = FleetPerson(
            person: name, status: status, exitStatus: status == .ready ? 0 : 1, reason: "r-\(name)",
            failing: status == .ready ? [] : [.init(field: "metrics.step_count", dates: ["2026-03-05"], text: "+600 (+6 %)")],
            holding: ["sleep.total_hours"])
        return try FleetVerdict(
            p, run: .init(mode: "validate", days: days, monitor: nil, until: nil), shard: FleetShard(shard),
            checkedAt: Date(timeIntervalSince1970: 1_780_000_000), writtenAt: Date(timeIntervalSince1970: 1_780_000_001))
    }

    /// The store holds ann, bob, cat and dan; verdicts of ann and bob only (shard 0/2: both have
    /// an even last byte, 0x2e and 0xda), bob's data changed after his check. cat (0xa3) and dan
    /// (0x95) are odd: missing, in shard 1/2. bob is stale. Not ready (exit 1) though ann and
    /// bob's statuses are in it.
    func testReportFromVerdictsNamesMissingAndStale() throws {
        let report = try XCTUnwrap(
            FleetAssembly.report(
                verdicts: [try verdict("ann", .ready), try verdict("bob", .notReady)], everyone: ["ann", "bob", "cat", "dan"],
                changed: ["bob"]))
        XCTAssertEqual(report.people.map(\.person), ["bob", "ann"])
        XCTAssertEqual(report.coverage, FleetCoverage(missingPeople: ["cat", "dan"], missingShards: ["1/2"], stalePeople: ["bob"]))
        XCTAssertFalse(report.allReady)
        XCTAssertEqual(report.fields.map(\.field), ["metrics.step_count", "sleep.total_hours"])
        let text = FleetTerminal.render(report, outDir: "out", color: false)
        XCTAssertTrue(text.contains("No verdict yet for 2 people (cat, dan): run shard 1/2"), text)
        XCTAssertTrue(text.contains("Stale: 1 verdict was made before newer data"), text)
        // A verdict made with other options than the newest one's is stale too; with everyone
        // current and ready, the report is complete.
        var older = try verdict("bob", .ready, days: 5)
        older.writtenAt = "2026-01-01T00:00:00.000Z"
        let mixed = try XCTUnwrap(
            FleetAssembly.report(verdicts: [try verdict("ann", .ready), older], everyone: ["ann", "bob"], changed: []))
        XCTAssertEqual(mixed.coverage.stalePeople, ["bob"])
        XCTAssertEqual(mixed.days, 7)
        let whole = try XCTUnwrap(
            FleetAssembly.report(
                verdicts: [try verdict("ann", .ready), try verdict("bob", .ready)], everyone: ["ann", "bob"], changed: []))
        XCTAssertTrue(whole.allReady)
        XCTAssertNil(FleetAssembly.report(verdicts: [], everyone: ["ann"], changed: []))
    }

    /// The SQLite table: a verdict written and read back whole (its person too), the later
    /// one of a person replacing the earlier, and a body received after the check making it
    /// stale; erase's list of tables names it.
    func testVerdictTableInSQLite() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("fleet.sqlite").path
        let bodies = try ReceivedBodyStore(path: path)
        let table = FleetVerdictTable(try HealthStore(path: path))
        let ann = try verdict("ann", .notReady), bob = try verdict("bob", .ready)
        try table.write(ann)
        try table.write(bob)
        try table.write(try verdict("ann", .ready))
        let read = try table.all()
        XCTAssertEqual(read.map(\.person), ["ann", "bob"])
        XCTAssertEqual(read[0].status, "ready")
        XCTAssertEqual(read[1], bob)
        XCTAssertEqual(read[1].fleetPerson()?.holding, ["sleep.total_hours"])
        XCTAssertEqual(ann.failingFields, ["metrics.step_count"])
        // A body of bob's, received now (after the check at 1_780_000_000, 2026-05-28), makes his stale.
        XCTAssertEqual(try table.changedSinceChecked(), [])
        let body = Array(#"{"data": [{"date": "2026-03-02"}]}"#.utf8)
        try body.withUnsafeBytes { raw in
            let check = try ReceivedBodyCheck.check(BorrowedBytes(lentFor: raw), endpoint: .app, now: Date(), scratchFolder: dir.path).get()
            _ = try bodies.keep(raw, endpoint: .app, person: "bob", check: check, receivedAt: Date())
        }
        XCTAssertEqual(try table.changedSinceChecked(), ["bob"])
        XCTAssertTrue(PersonRows.tables.contains { $0.name == "fleet_verdicts" })
    }
}
