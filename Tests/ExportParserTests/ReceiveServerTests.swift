import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import XCTest

@testable import ExportParser
@testable import Receiver

/// `receive`'s server in process (HummingbirdTesting drives its responder; the process tests in
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

    private static func object(_ buffer: ByteBuffer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))) as? [String: Any] ?? [:]
    }

    /// ann's payload (1 row), bob's HAE body (1 row), the same HAE body again (no new row), a
    /// body no reader takes (400, no row), no key (401), a wrong path (404), a GET to an
    /// endpoint (405); then `GET /status` for ann: one side, one body.
    func testAnswersAndWhatIsStored() async throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (server, store) = try server(dir)
        let payload = ByteBuffer(string: #"{"data": [{"date": "2026-03-02", "metrics": {"step_count": 1200}}]}"#)
        let hae = ByteBuffer(
            string:
                #"{"data": {"metrics": [{"name": "step_count", "units": "count", "data": [{"date": "2026-03-02 00:00:00 +0100", "qty": 1200}]}]}}"#
        )
        try await server.application().test(.router) { client in
            let ann: HTTPFields = [.init("x-api-key")!: "key-ann-0123456789", .contentType: "application/json"]
            let bob: HTTPFields = [.init("x-api-key")!: "key-bob-0123456789", .contentType: "application/json"]
            try await client.execute(uri: "/sync/healthkit", method: .post, headers: ann, body: payload) { r in
                XCTAssertEqual(r.status, .ok)
                let o = Self.object(r.body)
                XCTAssertEqual(o["status"] as? String, "accepted")
                XCTAssertNotNil(o["last_sync"] as? String)
                XCTAssertEqual(o["warnings"] as? [String], [])
            }
            for _ in 0..<2 {
                try await client.execute(uri: "/hae", method: .post, headers: bob, body: hae) { r in XCTAssertEqual(r.status, .ok) }
            }
            try await client.execute(uri: "/hae", method: .post, headers: bob, body: ByteBuffer(string: #"{"foo": 1}"#)) { r in
                XCTAssertEqual(r.status, .badRequest)
                XCTAssertTrue((Self.object(r.body)["error"] as? String ?? "").contains("Health Auto Export reader"))
            }
            try await client.execute(uri: "/hae", method: .post, body: hae) { r in XCTAssertEqual(r.status, .unauthorized) }
            try await client.execute(uri: "/other", method: .post, headers: ann, body: hae) { r in XCTAssertEqual(r.status, .notFound) }
            try await client.execute(uri: "/hae", method: .get, headers: ann) { r in
                XCTAssertEqual(r.status, .methodNotAllowed)
                XCTAssertEqual(r.headers[.allow], "POST")
            }
            try await client.execute(uri: "/status", method: .get, headers: ann) { r in
                XCTAssertEqual(r.status, .ok)
                let o = Self.object(r.body)
                XCTAssertEqual(o["person"] as? String, "ann")
                XCTAssertEqual((o["sides"] as? [[String: Any]])?.map { $0["bodies"] as? Int }, [1])
            }
        }
        XCTAssertEqual(try rows(store), [["ann", "sync/healthkit"], ["bob", "hae"]])
    }

    /// Bodies of several people at once, as a cohort sends them: every acknowledged body is a row
    /// (20 requests, 10 a person, each body different).
    func testConcurrentBodiesAreEachStoredOnce() async throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (server, store) = try server(dir)
        try await server.application().test(.router) { client in
            try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for person in ["ann", "bob"] {
                    for day in 1...10 {
                        let body = ByteBuffer(string: String(format: #"{"data": [{"date": "2026-03-%02d"}]}"#, day))
                        let headers: HTTPFields = [.init("x-api-key")!: "key-\(person)-0123456789"]
                        group.addTask {
                            try await client.execute(uri: "/sync/healthkit", method: .post, headers: headers, body: body) { $0.status }
                        }
                    }
                }
                for try await status in group { XCTAssertEqual(status, .ok) }
            }
        }
        let stored = try rows(store)
        XCTAssertEqual(stored.count, 20)
        XCTAssertEqual(stored.filter { $0[0] == "ann" }.count, 10)
    }
}
