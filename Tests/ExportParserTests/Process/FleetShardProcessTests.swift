import Foundation
import Synchronization
import XCTest

@testable import ExportParser

/// `compare --everyone --shard K/N` as a fleet of workers runs it: two shards as two processes
/// at once on one store, then `--report`, which must equal an unsharded run's fleet.json. Six
/// people; with N = 2 each person's shard is the parity of the last of the first 8 bytes of
/// their id's SHA-256 (`sha256sum`): p4-no-hae (…c2be), p5 (…5f5e) and p6 (…110e) even,
/// shard 0; p1 (…7823), p2-field-off (…4fc5) and p3 (…90a5) odd, shard 1.
final class FleetShardProcessTests: XCTestCase {
    typealias B = ReceiveBodies
    let dates = (2...5).map { String(format: "2026-03-%02d", $0) }
    let people = ["p1", "p2-field-off", "p3", "p4-no-hae", "p5", "p6"]

    func testTwoShardsThenReportEqualTheWholeRun() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("cohort.sqlite").path
        try fill(store, scratch: dir)
        func run(_ extra: [String], _ out: String) throws -> ToolRun.Result {
            // --report takes its verdicts' options and refuses a window of its own.
            let window = extra.contains("--report") ? [] : ["--days", "3"]
            return try ToolRun.run(["compare", "--store", store, "--everyone"] + window + ["--out", dir.path + "/" + out] + extra)
        }
        func fleet(_ out: String, _ base: String = "fleet") throws -> [String: Any] {
            try FleetProcessTests.json(dir.appendingPathComponent(out + "/\(base).json"))
        }
        func names(_ f: [String: Any]) -> Set<String> {
            Set((f["people"] as? [[String: Any]] ?? []).compactMap { $0["person"] as? String })
        }

        // Shard 0 alone: --report names shard 1's three people as missing, in shard 1/2.
        XCTAssertNotEqual(try run(["--shard", "0/2"], "s0").status, 2)
        XCTAssertEqual(try run(["--report", "--days", "3"], "refused").status, 2)
        let partial = try run(["--report"], "partial")
        XCTAssertEqual(partial.status, 1, partial.printed)
        XCTAssertTrue(partial.printed.contains("No verdict yet for 3 people (p1, p2-field-off, p3): run shard 1/2"), partial.printed)
        let coverage = try XCTUnwrap(try fleet("partial")["coverage"] as? [String: Any])
        XCTAssertEqual(coverage["missing_shards"] as? [String], ["1/2"])

        // Both shards at once, as two processes writing to the one store.
        let results = Mutex<[Int: ToolRun.Result]>([:])
        let base = ["compare", "--store", store, "--everyone", "--days", "3"]
        let outs = dir.path
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            let r = try? ToolRun.run(base + ["--out", outs + "/s\(k)", "--shard", "\(k)/2"])
            results.withLock { $0[k] = r }
        }
        for k in 0..<2 {
            let r = try XCTUnwrap(results.withLock { $0[k] }, "shard \(k) ran")
            XCTAssertNotEqual(r.status, 2, r.printed)
        }
        // A worker's files are fleet-K-of-N.*: workers (and --report) may share one --out.
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path + "/s0/fleet.json"))
        let s0 = names(try fleet("s0", "fleet-0-of-2")), s1 = names(try fleet("s1", "fleet-1-of-2"))
        XCTAssertEqual(s0, ["p4-no-hae", "p5", "p6"])
        XCTAssertEqual(s1, ["p1", "p2-field-off", "p3"])

        let report = try run(["--report"], "report")
        let whole = try run([], "whole")
        XCTAssertEqual(report.status, 1, "p2's steps and p4's HAE: not all ready; " + report.printed)
        XCTAssertEqual(whole.status, report.status)
        let joined = try Data(contentsOf: dir.appendingPathComponent("report/fleet.json"))
        let unsharded = try Data(contentsOf: dir.appendingPathComponent("whole/fleet.json"))
        XCTAssertEqual(String(decoding: joined, as: UTF8.self), String(decoding: unsharded, as: UTF8.self))
        let people = try FleetProcessTests.people(try fleet("report"))
        XCTAssertEqual(people["p2-field-off"]?["status"] as? String, "not-ready")
        XCTAssertEqual(people["p4-no-hae"]?["status"] as? String, "not-enough-data")

        // A body p5 sends after the check makes p5's verdict stale.
        try keep(store, person: "p5", endpoint: .app, Array(#"{"data": [{"date": "2026-03-06"}]}"#.utf8), scratch: dir)
        let stale = try run(["--report"], "stale")
        XCTAssertTrue(stale.printed.contains("Stale: 1 verdict was made before newer data or with other options (p5)"), stale.printed)
        XCTAssertEqual((try fleet("stale")["coverage"] as? [String: Any])?["stale_people"] as? [String], ["p5"])

        // Usage: a shard past N, --shard without --everyone, --report with --shard.
        for args in [
            ["--everyone", "--shard", "2/2"], ["--shard", "0/2", "--person", "p1"], ["--everyone", "--report", "--shard", "0/2"],
        ] {
            let r = try ToolRun.run(["compare", "--store", store, "--out", dir.path + "/bad"] + args)
            XCTAssertEqual(r.status, 2, args.joined(separator: " ") + ": " + r.printed)
        }
    }

    /// Each person's two streams cut from a fixture of their own seed, committed as `receive`
    /// commits them; p2's complete sync of 03-04 (date 3 of 4: bodies 6, 7, 8) says 10 % more
    /// steps (out of the ±2 % tolerance); p4 never sends HAE.
    private func fill(_ store: String, scratch: URL) throws {
        for (i, person) in people.enumerated() {
            let fixture = try FixtureCheck.make(days: dates.count, start: dates[0], seed: UInt64(i + 1), name: "shard-\(person)")
            defer { try? FileManager.default.removeItem(at: fixture) }
            var app = try B.appSyncs(fixture)
            if person == "p2-field-off" { app[8] = try FleetProcessTests.scaleSteps(app[8], by: 1.1) }
            for body in app { try keep(store, person: person, endpoint: .app, body, scratch: scratch) }
            if person != "p4-no-hae" {
                for body in try B.haeSyncs(fixture, dates: dates) {
                    try keep(store, person: person, endpoint: .hae, body, scratch: scratch)
                }
            }
        }
    }

    private func keep(_ store: String, person: String, endpoint: ReceiveEndpoint, _ body: [UInt8], scratch: URL) throws {
        let bodies = try ReceivedBodyStore(path: store)
        try body.withUnsafeBytes { raw in
            let check = try ReceivedBodyCheck.check(
                BorrowedBytes(lentFor: raw), endpoint: endpoint, now: Date(), scratchFolder: scratch.path
            ).get()
            _ = try bodies.keep(raw, endpoint: endpoint, person: person, check: check, receivedAt: Date())
        }
    }
}
