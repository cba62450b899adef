import Foundation
import Synchronization
import XCTest

@testable import ExportParser

/// Issue 41's "done when": two receivers on one PostgreSQL database take 20 people's streams
/// side by side, each body sent to one replica or the other as a load balancer would; one
/// replica is SIGKILLed once half the bodies are acknowledged and started again. Every
/// acknowledged body must then be in the database exactly once, and `compare --everyone` on it
/// must give each person the verdict the same bodies give in a SQLite store.
final class PostgresFleetProcessTests: PostgresServerTestCase {
    typealias B = ReceiveBodies
    let dates = (2...5).map { String(format: "2026-03-%02d", $0) }
    let people = (1...20).map { String(format: "p%02d", $0) }

    func testTwoReceiversOneKilledHalfwayLoseNothingAndCompareAsSQLite() throws {
        let server = try XCTUnwrap(Self.server)
        let url = try server.createDatabase("fleet")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let keys = dir.appendingPathComponent("keys").path
        try people.map { "\($0) key-\($0)-\(ReceiveProcess.key)" }.joined(separator: "\n").write(
            toFile: keys, atomically: true, encoding: .utf8)
        chmod(keys, 0o600)

        // Each person's two streams, from a fixture of their own seed: 4 dates × 3 app syncs and
        // 3 HAE bodies. Planted: p02's complete sync of 03-04 (body 8 of 12) says 10 % more steps;
        // p04 never set HAE up.
        var streams: [(person: String, endpoint: ReceiveEndpoint, bodies: [[UInt8]])] = []
        for (i, person) in people.enumerated() {
            let fixture = try FixtureCheck.make(days: dates.count, start: dates[0], seed: UInt64(i + 1), name: "pg-fleet-\(person)")
            defer { try? FileManager.default.removeItem(at: fixture) }
            var app = try B.appSyncs(fixture)
            if person == "p02" { app[8] = try FleetProcessTests.scaleSteps(app[8], by: 1.1) }
            streams.append((person, .app, app))
            if person != "p04" { streams.append((person, .hae, try B.haeSyncs(fixture, dates: dates))) }
        }
        let total = streams.reduce(0) { $0 + $1.bodies.count }  // 20 × 12 + 19 × 3 = 297

        let args = ["--store", url, "--keys", keys]
        let logs = (0..<2).map { dir.appendingPathComponent("receive-\($0).log") }
        let replicas = Replicas(
            try (0..<2).map { try ReceiveProcess(args, log: logs[$0], environment: server.environment) })
        let acknowledged = LockedList()
        var senders: [Thread] = []
        for stream in streams {
            let key = "key-\(stream.person)-\(ReceiveProcess.key)"
            let t = Thread {
                for body in stream.bodies where replicas.send(stream.endpoint.path, key: key, body: body) {
                    acknowledged.add("\(stream.person) \(stream.endpoint.rawValue) \(B.sha256(body))")
                }
            }
            senders.append(t)
            t.start()
        }
        // Halfway, replica 0 is killed without warning, then started again on a new port.
        var deadline = Date().addingTimeInterval(300)
        while acknowledged.count < total / 2, Date() < deadline { usleep(5_000) }
        replicas.kill(0)
        replicas.restart(0, try ReceiveProcess(args, log: logs[0], environment: server.environment))
        deadline = Date().addingTimeInterval(300)
        while senders.contains(where: { !$0.isFinished }), Date() < deadline { usleep(20_000) }
        XCTAssertEqual(acknowledged.count, total, "every body acknowledged, by one replica or the other")
        for status in replicas.terminateAll() { XCTAssertEqual(status, 0) }

        // Every acknowledged body is there, exactly once.
        let rows = try server.admin("SELECT person, endpoint, body_sha256 FROM received_bodies", in: "fleet")
        let stored = (0..<rows.rows).map { "\(rows.text($0, 0)!) \(rows.text($0, 1)!) \(rows.text($0, 2)!)" }
        XCTAssertEqual(stored.count, Set(acknowledged.items).count)
        XCTAssertEqual(Set(stored), Set(acknowledged.items))

        // The same bodies, in the same order per stream, into a SQLite store through one receiver.
        let sqlite = dir.appendingPathComponent("same.sqlite").path
        let single = try ReceiveProcess(["--store", sqlite, "--keys", keys], log: dir.appendingPathComponent("sqlite.log"))
        for stream in streams {
            for body in stream.bodies {
                XCTAssertEqual(
                    single.send("POST", stream.endpoint.path, key: "key-\(stream.person)-\(ReceiveProcess.key)", body: body)?.status, 200)
            }
        }
        XCTAssertEqual(single.terminate(), 0)

        // compare --everyone on both stores: the same verdict, person by person.
        var verdicts: [[String: String]] = []
        for store in [url, sqlite] {
            let out = dir.appendingPathComponent(store == url ? "fleet-pg" : "fleet-sqlite")
            let run = try ToolRun.run(
                ["compare", "--store", store, "--everyone", "--days", "3", "--out", out.path], environment: server.environment)
            XCTAssertEqual(run.status, 1, run.printed)  // p02 and p04 are not ready
            let people = try FleetProcessTests.people(try FleetProcessTests.json(out.appendingPathComponent("fleet.json")))
            verdicts.append(
                people.mapValues { p in
                    let fields = (p["fields"] as? [[String: Any]] ?? []).map { "\($0["field"] ?? "") \($0["dates"] ?? "")" }
                    return "\(p["status"] ?? "") \(p["ready"] ?? "") \(p["reason"] ?? "") \(fields)"
                })
        }
        // `ready` is a JSON boolean, read back as a number: 1 or 0.
        XCTAssertEqual(verdicts[0].count, 20)
        XCTAssertEqual(verdicts[0], verdicts[1])
        XCTAssertTrue(verdicts[0]["p02"]?.hasPrefix("not-ready 0") ?? false, verdicts[0]["p02"] ?? "")
        XCTAssertTrue(verdicts[0]["p04"]?.hasPrefix("not-enough-data 0") ?? false, verdicts[0]["p04"] ?? "")
        XCTAssertEqual(verdicts[0].values.filter { $0.hasPrefix("ready 1") }.count, 18)

        // Two shard workers at once on PostgreSQL, their verdicts meeting in its fleet_verdicts:
        // disjoint, together everyone, and --report's fleet.json is the unsharded run's, byte
        // for byte (the unsharded run above wrote fleet-pg/fleet.json from the same bodies).
        let shardOuts = Mutex<[Int: ToolRun.Result]>([:])
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            let r = try? ToolRun.run(
                ["compare", "--store", url, "--everyone", "--days", "3", "--shard", "\(k)/2", "--out", dir.path + "/shards"],
                environment: server.environment)
            shardOuts.withLock { $0[k] = r }
        }
        var shardPeople: [Set<String>] = []
        for k in 0..<2 {
            let r = try XCTUnwrap(shardOuts.withLock { $0[k] }, "shard \(k) ran")
            XCTAssertNotEqual(r.status, 2, r.printed)
            let f = try FleetProcessTests.json(dir.appendingPathComponent("shards/fleet-\(k)-of-2.json"))
            shardPeople.append(Set((f["people"] as? [[String: Any]] ?? []).compactMap { $0["person"] as? String }))
        }
        XCTAssertTrue(shardPeople[0].isDisjoint(with: shardPeople[1]))
        XCTAssertEqual(shardPeople[0].union(shardPeople[1]).count, 20)
        let report = try ToolRun.run(
            ["compare", "--store", url, "--everyone", "--report", "--out", dir.path + "/shards"], environment: server.environment)
        XCTAssertEqual(report.status, 1, report.printed)
        XCTAssertEqual(
            try String(contentsOf: dir.appendingPathComponent("shards/fleet.json"), encoding: .utf8),
            try String(contentsOf: dir.appendingPathComponent("fleet-pg/fleet.json"), encoding: .utf8))
        XCTAssertEqual(try server.admin("SELECT count(*) FROM fleet_verdicts", in: "fleet").int(0, 0), 20)

        // The verdict is the person's data: gdpr-export writes it (one row, read in one page).
        let export = dir.path + "/p02-export"
        let exported = try ToolRun.run(
            ["gdpr-export", "--store", url, "--person", "p02", "--out", export, "--quiet"], environment: server.environment)
        XCTAssertEqual(exported.status, 0, exported.printed)
        let verdictLines = try String(contentsOfFile: export + "/fleet_verdicts.jsonl", encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(verdictLines.count, 1)
        let verdict = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(verdictLines[0].utf8)) as? [String: Any])
        XCTAssertEqual(verdict["status"] as? String, "not-ready")
        // The sharded run wrote it last: sha256("p02") begins 867972ca2a0b25c5: its 8th byte 0xc5 is odd, so shard 1/2.
        XCTAssertEqual(verdict["shard"] as? String, "1/2")

        // A single person's compare on PostgreSQL agrees with its line of the fleet.
        let one = try ToolRun.run(
            ["compare", "--store", url, "--person", "p02", "--days", "3", "--out", dir.path + "/one"], environment: server.environment)
        XCTAssertEqual(one.status, 1, one.printed)
    }
}

/// Two receivers behind one address, as a load balancer spreads requests: each body goes to the
/// next replica in turn, and to the other when one does not answer 200 (killed, or restarting).
// @unchecked Sendable: `servers` and `next` are guarded by `lock`.
final class Replicas: @unchecked Sendable {
    private let lock = NSLock()
    private var servers: [ReceiveProcess?]
    private var next = 0

    init(_ servers: [ReceiveProcess]) { self.servers = servers }

    /// True once a replica answered 200; false when none did within a minute.
    func send(_ path: String, key: String, body: [UInt8]) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let server = lock.withLock {
                next += 1
                return servers[next % servers.count]
            }
            if let server, server.send("POST", path, key: key, body: body)?.status == 200 { return true }
            usleep(10_000)
        }
        return false
    }

    func kill(_ i: Int) {
        let server = lock.withLock {
            defer { servers[i] = nil }
            return servers[i]
        }
        server?.killHard()
    }

    func restart(_ i: Int, _ server: ReceiveProcess) { lock.withLock { servers[i] = server } }

    func terminateAll() -> [Int32?] { lock.withLock { servers.compactMap { $0?.terminate() } } }
}
