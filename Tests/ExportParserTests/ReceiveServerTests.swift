import Foundation
import XCTest

@testable import ExportParser
@testable import Receiver

/// `receive`'s server in process, on a real socket (`InProcessReceiver`; the process tests in
/// Process/ run the built tool): who may post, what each answer is, and that what is
/// acknowledged is in the store, committed from NIO's blocking thread pool.
final class ReceiveServerTests: XCTestCase {
    private func server(_ dir: URL, maxBody: Int = 1 << 20) throws -> (ReceiveServer, store: String) {
        let keys = dir.appendingPathComponent("keys").path
        try "ann key-ann-0123456789\nbob key-bob-0123456789\n".write(toFile: keys, atomically: true, encoding: .utf8)
        chmod(keys, 0o600)
        let store = dir.appendingPathComponent("received.sqlite").path
        let options = ReceiveOptions(host: "127.0.0.1", port: 0, maxBodyBytes: maxBody, keys: try ReceiveKeys.file(keys), storePath: store)
        return (try ReceiveServer(options), store)
    }

    private func rows(_ store: String) throws -> [[String]] {
        try GDPRTestSupport.rows(store, "SELECT person, endpoint FROM received_bodies WHERE ?1 = ?1 ORDER BY id", "")
    }

    private static func object(_ body: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
    }

    /// ann's payload (1 row), bob's HAE body (1 row), the same HAE body again (no new row), a
    /// body no reader takes (400, no row), no key (401), a wrong path (404), a GET to an
    /// endpoint (405); then `GET /status` for ann: one side, one body.
    func testAnswersAndWhatIsStored() async throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (server, store) = try server(dir)
        let payload = #"{"data": [{"date": "2026-03-02", "metrics": {"step_count": 1200}}]}"#
        let hae =
            #"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [{"date": "2026-03-02 00:00:00 +0100", "qty": 1200}]}]}}"#
        let live = try await InProcessReceiver.start(server)
        let ann = "key-ann-0123456789", bob = "key-bob-0123456789"
        let accepted = try XCTUnwrap(live.send("POST", "/sync/healthkit", key: ann, body: payload))
        XCTAssertEqual(accepted.status, 200)
        let o = Self.object(accepted.body)
        XCTAssertEqual(o["status"] as? String, "accepted")
        XCTAssertNotNil(o["last_sync"] as? String)
        XCTAssertEqual(o["warnings"] as? [String], [])
        for _ in 0..<2 { XCTAssertEqual(live.send("POST", "/hae", key: bob, body: hae)?.status, 200) }
        let refused = try XCTUnwrap(live.send("POST", "/hae", key: bob, body: #"{"foo": 1}"#))
        XCTAssertEqual(refused.status, 400)
        XCTAssertTrue((Self.object(refused.body)["error"] as? String ?? "").contains("Health Auto Export reader"))
        XCTAssertEqual(live.send("POST", "/hae", body: hae)?.status, 401)
        XCTAssertEqual(live.send("POST", "/other", key: ann, body: hae)?.status, 404)
        let get = try XCTUnwrap(live.send("GET", "/hae", key: ann))
        XCTAssertEqual(get.status, 405)
        XCTAssertEqual(get.headers["allow"], "POST")
        let status = try XCTUnwrap(live.send("GET", "/status", key: ann))
        XCTAssertEqual(status.status, 200)
        let s = Self.object(status.body)
        XCTAssertEqual(s["person"] as? String, "ann")
        XCTAssertEqual((s["sides"] as? [[String: Any]])?.map { $0["bodies"] as? Int }, [1])
        await live.stop()
        XCTAssertEqual(try rows(store), [["ann", "sync/healthkit"], ["bob", "hae"]])
    }

    /// Bodies of several people at once, as a cohort sends them: every acknowledged body is a row
    /// (20 requests, 10 a person, each body different).
    func testConcurrentBodiesAreEachStoredOnce() async throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (server, store) = try server(dir)
        let live = try await InProcessReceiver.start(server)
        let requests = ["ann", "bob"].flatMap { person in
            (1...10).map { day in
                (
                    path: "/sync/healthkit", key: "key-\(person)-0123456789",
                    body: String(format: #"{"data": [{"date": "2026-03-%02d"}]}"#, day)
                )
            }
        }
        XCTAssertEqual(live.sendAtOnce(requests), [Int?](repeating: 200, count: 20))
        await live.stop()
        let stored = try rows(store)
        XCTAssertEqual(stored.count, 20)
        XCTAssertEqual(stored.filter { $0[0] == "ann" }.count, 10)
    }
}
