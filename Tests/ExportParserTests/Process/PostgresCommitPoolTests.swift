import Foundation
import XCTest

@testable import ExportParser

/// A receiver on PostgreSQL commits over several connections (`PostgresConnectionPool`), so one
/// commit that waits does not hold up the others. The wait is made, not hoped for: the test
/// inserts the same person, endpoint and SHA-256 as one body in a transaction of its own and
/// leaves it open, so the receiver's INSERT of that body must wait on the row's lock until the
/// test ends its transaction. The test sees the receiver's backend waiting in
/// `pg_stat_activity` before it sends anything else: with one connection every other body
/// would wait behind that one, and none would be answered until the ROLLBACK.
final class PostgresCommitPoolTests: PostgresServerTestCase {
    typealias B = ReceiveBodies

    func testACommitWaitingOnALockDoesNotHoldUpTheOthers() throws {
        let server = try XCTUnwrap(Self.server)
        let url = try server.createDatabase("pool")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fixture = try FixtureCheck.make(days: 2, start: "2026-03-02", seed: 5, name: "pg-pool")
        defer { try? FileManager.default.removeItem(at: fixture) }
        let bodies = try B.appSyncs(fixture)  // 3 a date, 2 dates: 6 distinct bodies
        XCTAssertEqual(Set(bodies.map(B.sha256)).count, 6)
        let held = bodies[0], others = Array(bodies[1...])  // 1 held, 5 others
        let keyFile = try ReceiveProcess.keyFile(in: dir)
        let receiver = try ReceiveProcess(
            ["--store", url, "--api-key-file", keyFile], log: dir.appendingPathComponent("receive.log"),
            environment: server.environment)

        // The test's own sessions: one holds the row, one looks on (and never in a transaction,
        // so it sees every commit). A session lives as long as its connection object.
        setenv("PGPASSWORD", PostgresTestServer.password, 1)
        let settings = try PostgresConnection.parse(url)
        let holder = try PostgresConnection(settings: settings, shownAs: "holder")
        let observer = try PostgresConnection(settings: settings, shownAs: "observer")
        try holder.run("BEGIN")
        // The single key's person is "me" (docs/receive.md).
        try holder.run(
            "INSERT INTO received_bodies (person, endpoint, body_sha256, bytes, body, received_at) VALUES ('me', $1, $2, 0, '', now())",
            [.text(ReceiveEndpoint.app.rawValue), .text(B.sha256(held))])

        func request(_ body: [UInt8]) -> [UInt8] {
            let head =
                "POST \(ReceiveEndpoint.app.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nx-api-key: \(ReceiveProcess.key)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
            return Array(head.utf8) + body
        }
        let heldRequest = request(held)
        let heldAnswer = HeldAnswer()
        let sender = Thread {
            // Longer than the test waits for anything: a nil here is the server's, not a timeout.
            let r = RawHTTP.exchange(port: receiver.port, heldRequest, readTimeout: 300)
            heldAnswer.set(r)
        }
        sender.start()

        // The receiver's INSERT of the held body is waiting on the test's row lock.
        let waiting = """
            SELECT count(*) FROM pg_stat_activity WHERE datname = 'pool' AND wait_event_type = 'Lock'
                AND query LIKE 'INSERT INTO received_bodies%' AND pid <> pg_backend_pid()
            """
        var deadline = Date().addingTimeInterval(60)
        while try observer.run(waiting).int(0, 0) != 1, Date() < deadline { usleep(20_000) }
        XCTAssertEqual(try observer.run(waiting).int(0, 0), 1, "the held body's commit waits on the lock")

        // Meanwhile every other body is answered and committed, one after the other. With one
        // connection the first of them waits behind the held commit: no answer in 20 s (a small
        // body's check and commit take milliseconds), and the test stops sending.
        for (i, body) in others.enumerated() {
            let answer = RawHTTP.exchange(port: receiver.port, request(body), readTimeout: 20)
            guard answer?.status == 200 else {
                XCTFail("body \(i + 1) not answered 200 while the held one waits: \(String(describing: answer))")
                break
            }
        }
        let shas = others.map(B.sha256)
        let stored = try observer.run(
            "SELECT count(*) FROM received_bodies WHERE person = 'me' AND body_sha256 = ANY(string_to_array($1, ','))",
            [.text(shas.joined(separator: ","))])
        XCTAssertEqual(stored.int(0, 0), 5)
        XCTAssertNil(heldAnswer.value, "the held body is not answered before its row is free")
        XCTAssertEqual(try observer.run(waiting).int(0, 0), 1, "and its commit still waits")

        // The row is let go: the held body is committed, stored once, and answered 200.
        try holder.run("ROLLBACK")
        deadline = Date().addingTimeInterval(60)
        while heldAnswer.value == nil, Date() < deadline { usleep(20_000) }
        let answer = try XCTUnwrap(heldAnswer.value ?? nil, "the held body is answered once its row is free")
        XCTAssertEqual(answer.status, 200, answer.body)
        XCTAssertTrue(answer.body.contains("\"accepted\""), answer.body)
        let once = try observer.run(
            "SELECT count(*), min(bytes) FROM received_bodies WHERE person = 'me' AND body_sha256 = $1", [.text(B.sha256(held))])
        XCTAssertEqual(once.int(0, 0), 1)
        XCTAssertEqual(once.int(0, 1), Int64(held.count), "the receiver's row, not the test's")
        XCTAssertEqual(try observer.run("SELECT count(*) FROM received_bodies").int(0, 0), 6)  // 5 others + the held one
        XCTAssertEqual(receiver.terminate(), 0)
    }

    /// The pool opens connections only when all open ones are busy, and connects again one the
    /// server ended while it was idle. Bodies sent one after another never find the first busy,
    /// so the receiver keeps the one it opened at start; the server then ends that backend
    /// (`pg_terminate_backend`, as a failover or an operator does). The next use is a
    /// `GET /status`, which, unlike a commit, has no retry of its own: it is answered 200 only
    /// because the pool noticed the ended connection before handing it out
    /// (`PostgresConnection.heardWhileIdle`; without it, a 500). The bodies after it are
    /// answered 200 and stored, over that one new connection. (Connections counted in the
    /// server's log, `PostgresTestServer.connections(to:)`.)
    func testConnectionsOpenWhenNeededAndOneTheServerEndedIsConnectedAgain() throws {
        let server = try XCTUnwrap(Self.server)
        let url = try server.createDatabase("broken")
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fixture = try FixtureCheck.make(days: 2, start: "2026-03-02", seed: 6, name: "pg-broken")
        defer { try? FileManager.default.removeItem(at: fixture) }
        let bodies = try B.appSyncs(fixture)  // 6 distinct bodies
        let keyFile = try ReceiveProcess.keyFile(in: dir)
        let receiver = try ReceiveProcess(
            ["--store", url, "--api-key-file", keyFile], log: dir.appendingPathComponent("receive.log"),
            environment: server.environment)
        // At start: the store's first connection, and the one of the check of the bodies already
        // held that runs beside the server once it listens (`Receive.reportUnreadable`).
        var deadline = Date().addingTimeInterval(30)
        while server.connections(to: "broken") < 2, Date() < deadline { usleep(20_000) }
        XCTAssertEqual(server.connections(to: "broken"), 2)
        for body in bodies[0..<3] { XCTAssertEqual(receiver.send("POST", ReceiveEndpoint.app.path, body: body)?.status, 200) }
        XCTAssertEqual(server.connections(to: "broken"), 2, "three bodies one after another: no new connection")

        setenv("PGPASSWORD", PostgresTestServer.password, 1)
        let observer = try PostgresConnection(settings: try PostgresConnection.parse(url), shownAs: "observer")  // connection 3
        let others = "FROM pg_stat_activity WHERE datname = 'broken' AND pid <> pg_backend_pid()"
        // The check's connection ends with the check; the store's stays open.
        deadline = Date().addingTimeInterval(30)
        while try observer.run("SELECT count(*) \(others)").int(0, 0) != 1, Date() < deadline { usleep(20_000) }
        XCTAssertEqual(try observer.run("SELECT count(*) \(others)").int(0, 0), 1)
        XCTAssertEqual(try observer.run("SELECT count(pg_terminate_backend(pid)) \(others)").int(0, 0), 1)
        deadline = Date().addingTimeInterval(30)
        while try observer.run("SELECT count(*) \(others)").int(0, 0) != 0, Date() < deadline { usleep(20_000) }
        XCTAssertEqual(try observer.run("SELECT count(*) \(others)").int(0, 0), 0, "the receiver's backend has ended")

        XCTAssertEqual(receiver.send("GET", "/status")?.status, 200, "the ended connection is connected again before use")
        XCTAssertEqual(server.connections(to: "broken"), 4, "the 3 above and one in place of the ended one")
        for body in bodies[3...] { XCTAssertEqual(receiver.send("POST", ReceiveEndpoint.app.path, body: body)?.status, 200) }
        XCTAssertEqual(try observer.run("SELECT count(*) FROM received_bodies").int(0, 0), 6)
        XCTAssertEqual(server.connections(to: "broken"), 4, "the bodies after it go over that connection")
        XCTAssertEqual(receiver.terminate(), 0)
    }
}

/// The held request's answer once it came (`.some(nil)`: the connection closed without one).
final class HeldAnswer: @unchecked Sendable {
    private let lock = NSLock()
    private var answer: (status: Int, body: String)??

    var value: (status: Int, body: String)?? { lock.withLock { answer } }
    func set(_ r: (status: Int, body: String)?) { lock.withLock { answer = .some(r) } }
}
