import Foundation
import XCTest

@testable import ExportParser

/// `health-import receive` as it runs for real: the built tool (`swift build` first) on a free
/// loopback port, the app's and HAE's bodies cut from a generated fixture, plain HTTP from the
/// test, SIGKILL halfway, a restart on the same store, and `compare --store` while it runs.
final class ReceiveProcessTests: XCTestCase {
    typealias B = ReceiveBodies
    let start = "2026-03-02"
    let dates = ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06"]

    private func keyFile(_ dir: URL) throws -> String {
        let file = dir.appendingPathComponent("key").path
        try (ReceiveProcess.key + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        return file
    }

    /// sha256 of every body the store holds, by endpoint.
    private func stored(_ store: String) throws -> [String: [String]] {
        let db = try SQLiteConnection(path: store, readOnly: true)
        let s = try db.prepare("SELECT endpoint, body_sha256 FROM received_bodies ORDER BY id")
        var out: [String: [String]] = [:]
        while try s.step() { out[s.text(0)!, default: []].append(s.text(1)!) }
        return out
    }

    /// Runs the tool to completion (compare, convert); exit status and what it printed.
    private func run(_ args: [String], _ dir: URL) throws -> (Int32, String) {
        let r = try ToolRun.run(args, in: dir)
        return (r.status, r.printed)
    }

    private func assertKeyAbsent(_ files: [String], file: StaticString = #filePath, line: UInt = #line) {
        for path in files {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
            XCTAssertNil(bytes.range(of: Data(ReceiveProcess.key.utf8)), "the key is in \(path)", file: file, line: line)
        }
    }

    /// Both streams go in; the server is killed with SIGKILL after a third of them were
    /// acknowledged, restarted on the same store, and sent everything again (a client that
    /// retries what it does not know was taken). Every acknowledged body is in the store, each
    /// body once; `compare --store` agrees while receive still runs; SIGTERM exits 0.
    func testBothStreamsSurviveAKillAndCompareAgrees() throws {
        let fixture = try FixtureCheck.make(days: dates.count, start: start)
        defer { try? FileManager.default.removeItem(at: fixture) }
        let store = fixture.appendingPathComponent("received.sqlite").path
        let log = fixture.appendingPathComponent("receive.log")
        let key = try keyFile(fixture)
        // 5 dates * 3 syncs = 15 app bodies; 4 HAE bodies of two dates each (5 dates, overlapping by one).
        let app = try B.appSyncs(fixture), hae = try B.haeSyncs(fixture, dates: dates)
        XCTAssertEqual(app.count, 15)
        XCTAssertEqual(hae.count, 4)
        // Interleaved as two senders would be: an HAE sync after every fourth app body (i = 2, 6, 10, 14).
        var all: [(ReceiveEndpoint, [UInt8])] = []
        for i in 0..<app.count {
            all.append((.app, app[i]))
            if i % 4 == 2 { all.append((.hae, hae[i / 4])) }
        }
        XCTAssertEqual(all.count, 19)

        let first = try ReceiveProcess(["--store", store, "--api-key-file", key], log: log)
        let acknowledged = LockedList()
        let requests = all
        let sender = Thread {
            for (endpoint, body) in requests {
                guard let r = first.send("POST", endpoint.path, body: body) else { continue }
                // The backend's answer: {"status": "accepted", "last_sync": …, "warnings": […]}.
                let answer = try? JSONSerialization.jsonObject(with: Data(r.body.utf8)) as? [String: Any]
                if r.status == 200, answer?["status"] as? String == "accepted" { acknowledged.add(B.sha256(body)) }
            }
        }
        sender.start()
        // Kill it once a third has been acknowledged (the rest are in flight or not yet sent).
        let deadline = Date().addingTimeInterval(60)
        while acknowledged.count < 7, Date() < deadline { usleep(2_000) }
        first.killHard()
        while !sender.isFinished { usleep(10_000) }
        let acked = acknowledged.items
        XCTAssertGreaterThanOrEqual(acked.count, 7)
        XCTAssertLessThan(acked.count, all.count, "the kill came before the end")
        let afterKill = try stored(store)
        let kept = Set(afterKill.values.joined())
        for sha in acked { XCTAssertTrue(kept.contains(sha), "an acknowledged body is missing after SIGKILL") }

        // Restart on the same store; everything again: 200 for each, nothing twice.
        let second = try ReceiveProcess(["--store", store, "--api-key-file", key], log: log)
        for (endpoint, body) in all {
            let r = second.send("POST", endpoint.path, body: body)
            XCTAssertEqual(r?.status, 200, r?.body ?? "no answer")
        }
        let afterAll = try stored(store)
        XCTAssertEqual(afterAll["sync/healthkit"]?.count, 15)
        XCTAssertEqual(afterAll["hae"]?.count, 4)
        XCTAssertEqual(Set(afterAll.values.joined()).count, 19, "each body once")
        // A body sent once more is still one row.
        XCTAssertEqual(second.send("POST", "/hae", body: hae[0])?.status, 200)
        XCTAssertEqual(try stored(store)["hae"]?.count, 4)

        // GET /status: 15 app bodies over 2026-03-02..06; 4 HAE bodies whose dates start with the
        // wrist temperature of the evening before (2026-03-01) and end on 2026-03-06.
        let status = try XCTUnwrap(second.send("GET", "/status"))
        XCTAssertEqual(status.status, 200)
        let sides = try XCTUnwrap(
            (try JSONSerialization.jsonObject(with: Data(status.body.utf8)) as? [String: Any])?["sides"] as? [[String: Any]])
        let bySide = Dictionary(uniqueKeysWithValues: sides.map { ($0["side"] as! String, $0) })
        XCTAssertEqual(bySide["native"]?["bodies"] as? Int, 15)
        XCTAssertEqual(bySide["native"]?["first_date"] as? String, "2026-03-02")
        XCTAssertEqual(bySide["native"]?["last_date"] as? String, "2026-03-06")
        XCTAssertEqual(bySide["hae"]?["bodies"] as? Int, 4)
        XCTAssertEqual(bySide["hae"]?["first_date"] as? String, "2026-03-01")
        XCTAssertEqual(bySide["hae"]?["last_date"] as? String, "2026-03-06")

        // compare --store while receive runs (a WAL reader): the app's latest sync of each date
        // against HAE's bodies read as one set. The early syncs hold half and three quarters of
        // the steps: were one of them taken for the date, step_count would be out of tolerance.
        let (code, printed) = try run(
            ["compare", "--store", store, "--from", start, "--days", "5", "--out", fixture.appendingPathComponent("cmp").path], fixture)
        XCTAssertEqual(code, 0, printed)
        // convert --received: HAE's bodies as inputs, a payload for each date.
        let out = fixture.appendingPathComponent("conv")
        let (ccode, cprinted) = try run(["convert", "--store", store, "--received", "--out", out.path, "--quiet"], fixture)
        XCTAssertEqual(ccode, 0, cprinted)
        let payloads = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("payloads").path).sorted()
        XCTAssertEqual(payloads, dates.map { $0 + ".json" })

        XCTAssertEqual(second.terminate(), 0, "SIGTERM exits 0")
        XCTAssertTrue(second.logText.contains("POST /sync/healthkit 200"), second.logText)
        assertKeyAbsent([log.path, store, store + "-wal"])
    }

    /// No key, a wrong key, broken JSON, the other endpoint's kind, too large (declared and
    /// chunked), another path, another method: each refused with its status, nothing stored,
    /// and the key in neither the log, the store nor its WAL.
    func testRefusedRequestsStoreNothing() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("received.sqlite").path
        let log = dir.appendingPathComponent("receive.log")
        let server = try ReceiveProcess(["--store", store, "--api-key-file", try keyFile(dir), "--max-body", "1"], log: log)
        let payload = Array(#"{"data": [{"date": "2026-03-02", "metrics": {"step_count": 100}}]}"#.utf8)
        XCTAssertEqual(server.send("POST", "/sync/healthkit", key: nil, body: payload)?.status, 401)
        XCTAssertEqual(server.send("POST", "/sync/healthkit", key: ReceiveProcess.key + "x", body: payload)?.status, 401)
        XCTAssertEqual(server.send("POST", "/sync/healthkit", key: String(ReceiveProcess.key.dropLast()), body: payload)?.status, 401)
        XCTAssertEqual(server.send("GET", "/status", key: "nope")?.status, 401)
        let broken = server.send("POST", "/sync/healthkit", body: Array(payload.dropLast()))
        XCTAssertEqual(broken?.status, 400)
        XCTAssertTrue(broken?.body.contains("not valid JSON") ?? false, broken?.body ?? "")
        XCTAssertEqual(server.send("POST", "/hae", body: payload)?.status, 400, "a payload is not an HAE body")
        XCTAssertEqual(server.send("POST", "/sync/healthkit", body: Array(#"{"data": {"metrics": []}}"#.utf8))?.status, 400)
        XCTAssertEqual(server.send("POST", "/elsewhere", body: payload)?.status, 404)
        XCTAssertEqual(server.send("GET", "/hae")?.status, 405)
        XCTAssertEqual(server.send("PUT", "/sync/healthkit", body: payload)?.status, 405)

        // 1 MB + 1 byte declared: 413 at once, though only 1 KB of the body was ever sent (the
        // server did not wait for the rest: this exchange would otherwise time out after 30 s).
        let t0 = Date()
        let big = 1_048_577
        let head = "POST /hae HTTP/1.1\r\nHost: x\r\nx-api-key: \(ReceiveProcess.key)\r\nContent-Length: \(big)\r\n\r\n"
        let declared = RawHTTP.exchange(port: server.port, Array(head.utf8) + Array(repeating: UInt8(ascii: "{"), count: 1024))
        XCTAssertEqual(declared?.status, 413)
        XCTAssertLessThan(Date().timeIntervalSince(t0), 10)
        // Chunked (no length declared): refused once the collected bytes pass 1 MB.
        var chunked = Array(
            "POST /hae HTTP/1.1\r\nHost: x\r\nConnection: close\r\nx-api-key: \(ReceiveProcess.key)\r\nTransfer-Encoding: chunked\r\n\r\n"
                .utf8)
        for _ in 0..<20 { chunked += Array("10000\r\n".utf8) + Array(repeating: UInt8(ascii: " "), count: 0x10000) + Array("\r\n".utf8) }
        chunked += Array("0\r\n\r\n".utf8)
        XCTAssertEqual(RawHTTP.exchange(port: server.port, chunked)?.status, 413)

        // Nothing of any of them is stored; the server still takes a good body afterwards.
        XCTAssertEqual(try stored(store).values.joined().count, 0)
        XCTAssertEqual(server.send("POST", "/sync/healthkit", body: payload)?.status, 200)
        XCTAssertEqual(try stored(store)["sync/healthkit"]?.count, 1)
        XCTAssertEqual(server.terminate(), 0)
        // One log line per request (13 above: 4 without a valid key, 3 refused for their path or
        // method before the key is looked at), and never the key.
        let lines = server.logText.split(separator: "\n").filter { $0.contains(" bytes=") }
        XCTAssertEqual(lines.count, 13, server.logText)
        XCTAssertEqual(lines.filter { $0.contains("person=-") }.count, 4 + 3, server.logText)
        assertKeyAbsent([log.path, store, store + "-wal"])
    }
}

extension ReceiveProcessTests {
    /// `--keys`: each key stores under its own person, and `GET /status` answers for the key's
    /// person only.
    func testEachKeySaysWhoseDataItIs() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("family.sqlite").path
        let keys = dir.appendingPathComponent("keys").path
        let annKey = "ann-" + ReceiveProcess.key, bobKey = "bob-" + ReceiveProcess.key
        try "ann \(annKey)\nbob \(bobKey)\n".write(toFile: keys, atomically: true, encoding: .utf8)
        chmod(keys, 0o600)
        let server = try ReceiveProcess(["--store", store, "--keys", keys], log: dir.appendingPathComponent("receive.log"))
        let body = Array(#"{"data": [{"date": "2026-03-02"}]}"#.utf8)
        XCTAssertEqual(server.send("POST", "/sync/healthkit", key: annKey, body: body)?.status, 200)
        XCTAssertEqual(server.send("POST", "/sync/healthkit", key: bobKey, body: body)?.status, 200)
        XCTAssertEqual(server.send("POST", "/hae", key: bobKey, body: Array(#"{"data": {"metrics": []}}"#.utf8))?.status, 200)
        XCTAssertEqual(server.send("POST", "/hae", key: ReceiveProcess.key, body: body)?.status, 401, "no one's key")
        // ann: her one app body; bob: his app body and his HAE body (the same app bytes are a row each).
        let status = try XCTUnwrap(server.send("GET", "/status", key: annKey))
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(status.body.utf8)) as? [String: Any])
        XCTAssertEqual(object["person"] as? String, "ann")
        XCTAssertEqual((object["sides"] as? [[String: Any]])?.map { $0["bodies"] as? Int }, [1])
        XCTAssertEqual(server.terminate(), 0)
        let rows = try GDPRTestSupport.rows(store, "SELECT person, endpoint FROM received_bodies WHERE ?1 = ?1 ORDER BY id", "")
        XCTAssertEqual(rows, [["ann", "sync/healthkit"], ["bob", "sync/healthkit"], ["bob", "hae"]])
        let log = try String(contentsOf: dir.appendingPathComponent("receive.log"), encoding: .utf8)
        XCTAssertTrue(log.contains("person=bob POST /hae 200"), log)
        XCTAssertFalse(log.contains(ReceiveProcess.key), "no key (nor a part of one) in the log")
    }
}

/// A list two threads add to and read.
final class LockedList: @unchecked Sendable {
    // @unchecked Sendable: guarded by `lock`.
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ s: String) { lock.withLock { list.append(s) } }
    var count: Int { lock.withLock { list.count } }
    var items: [String] { lock.withLock { list } }
}
