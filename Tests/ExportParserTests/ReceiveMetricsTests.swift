import Foundation
import Logging
import XCTest

@testable import ExportParser
@testable import Receiver

/// `receive`'s operators' view in process, on a real socket (`InProcessReceiver`): after known requests, `GET
/// /metrics` counts exactly them, by endpoint and status, the bodies and bytes stored, and one
/// check and commit timing a body; and the request log line holds no key and no body.
final class ReceiveMetricsTests: XCTestCase {
    private func server(_ dir: URL) throws -> ReceiveServer {
        let keys = dir.appendingPathComponent("keys").path
        try "ann key-ann-0123456789\nbob key-bob-0123456789\n".write(toFile: keys, atomically: true, encoding: .utf8)
        chmod(keys, 0o600)
        let store = dir.appendingPathComponent("received.sqlite").path
        let options = ReceiveOptions(host: "127.0.0.1", port: 0, maxBodyBytes: 1 << 20, keys: try ReceiveKeys.file(keys), storePath: store)
        return try ReceiveServer(options)
    }

    /// The value of the sample line `name{labels}` (labels as Prometheus writes them), or nil.
    private static func value(_ text: String, _ name: String, _ labels: String) -> Double? {
        let prefix = labels.isEmpty ? name + " " : name + "{" + labels + "} "
        return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Double($0.dropFirst(prefix.count)) }
    }

    /// 20 app bodies at once (10 a person, each different: 20 × 200, 20 stored), bob's HAE body
    /// twice (2 × 200, stored once), a body HAE's reader refuses (400), a request without a key
    /// (401), a wrong path (404) and /healthz (200). Stored bytes: each app body is
    /// `{"data": [{"date": "2026-03-DD"}]}`, 34 bytes (`{` 1, `"data"` 6, `: ` 2, `[{` 2, `"date"` 6,
    /// `: ` 2, the date in quotes 12, `}]}` 3), 20 × 34 = 680; the HAE body `{"data": {"metrics": []}}`
    /// is 25 (`{` 1, `"data"` 6, `: ` 2, `{` 1, `"metrics"` 9, `: ` 2, `[]` 2, `}}` 2). Checks: 20
    /// app, 3 HAE (two accepted, one refused); commits: 20 app, 2 HAE (the second commits nothing
    /// new but is timed).
    func testCountersReadTheRequestsSent() async throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try server(dir)
        let hae = #"{"data": {"metrics": []}}"#
        XCTAssertEqual(hae.utf8.count, 25)
        let live = try await InProcessReceiver.start(server)
        let appBodies = ["ann", "bob"].flatMap { person in
            (1...10).map { day in
                (
                    path: "/sync/healthkit", key: "key-\(person)-0123456789",
                    body: String(format: #"{"data": [{"date": "2026-03-%02d"}]}"#, day)
                )
            }
        }
        for b in appBodies { XCTAssertEqual(b.body.utf8.count, 34) }
        XCTAssertEqual(live.sendAtOnce(appBodies), [Int?](repeating: 200, count: 20))
        let bob = "key-bob-0123456789"
        for _ in 0..<2 { XCTAssertEqual(live.send("POST", "/hae", key: bob, body: hae)?.status, 200) }
        XCTAssertEqual(live.send("POST", "/hae", key: bob, body: #"{"foo": 1}"#)?.status, 400)
        XCTAssertEqual(live.send("POST", "/hae", body: hae)?.status, 401)
        XCTAssertEqual(live.send("GET", "/nowhere")?.status, 404)
        XCTAssertEqual(live.send("GET", "/healthz")?.status, 200)
        let metrics = try XCTUnwrap(live.send("GET", "/metrics"))
        XCTAssertEqual(metrics.status, 200)
        XCTAssertEqual(metrics.headers["content-type"], "text/plain; version=0.0.4; charset=utf-8")
        let text = metrics.body
        let requests = "receive_requests_total"
        XCTAssertEqual(Self.value(text, requests, #"endpoint="sync/healthkit",status="200""#), 20, text)
        XCTAssertEqual(Self.value(text, requests, #"endpoint="hae",status="200""#), 2, text)
        XCTAssertEqual(Self.value(text, requests, #"endpoint="hae",status="400""#), 1, text)
        XCTAssertEqual(Self.value(text, requests, #"endpoint="hae",status="401""#), 1, text)
        XCTAssertEqual(Self.value(text, requests, #"endpoint="other",status="404""#), 1, text)
        XCTAssertEqual(Self.value(text, requests, #"endpoint="healthz",status="200""#), 1, text)
        // This request is counted once it is answered: not yet in its own answer.
        XCTAssertNil(Self.value(text, requests, #"endpoint="metrics",status="200""#), text)
        XCTAssertEqual(Self.value(text, "receive_bodies_stored_total", #"endpoint="sync/healthkit""#), 20, text)
        XCTAssertEqual(Self.value(text, "receive_bodies_stored_total", #"endpoint="hae""#), 1, text)
        XCTAssertEqual(Self.value(text, "receive_body_bytes_stored_total", #"endpoint="sync/healthkit""#), 680, text)
        XCTAssertEqual(Self.value(text, "receive_body_bytes_stored_total", #"endpoint="hae""#), 25, text)
        XCTAssertEqual(Self.value(text, "receive_check_seconds_count", #"endpoint="sync/healthkit""#), 20, text)
        XCTAssertEqual(Self.value(text, "receive_check_seconds_count", #"endpoint="hae""#), 3, text)
        XCTAssertEqual(Self.value(text, "receive_commit_seconds_count", #"endpoint="hae""#), 2, text)
        XCTAssertEqual(Self.value(text, "receive_commit_seconds_bucket", #"endpoint="hae",le="+Inf""#), 2, text)
        XCTAssertTrue(text.contains("# TYPE receive_check_seconds histogram"), text)
        XCTAssertFalse(text.contains("ann") || text.contains("bob") || text.contains("0123456789"), "no person, no key")
        let again = try XCTUnwrap(live.send("GET", "/metrics"))
        XCTAssertEqual(Self.value(again.body, "receive_requests_total", #"endpoint="metrics",status="200""#), 1)
        await live.stop()
    }

    /// The request line as swift-log hands it to `ReceiveLogHandler`: time, person, method,
    /// path, status, then bytes and ms by name; a level other than info named; a path the server
    /// does not serve never echoed.
    func testLogLines() {
        let time = Date(timeIntervalSince1970: 1_780_000_000)  // 2026-05-28T20:26:40Z
        let event = LogEvent(
            level: .info, message: "POST /hae 200", metadata: ["person": "bob", "bytes": "812", "ms": "3"], source: "t", file: "f",
            function: "g", line: 1)
        XCTAssertEqual(ReceiveLogHandler.line(event, base: [:], at: time), "2026-05-28T20:26:40Z person=bob POST /hae 200 bytes=812 ms=3")
        let failure = LogEvent(
            level: .error, message: "receive: storing a body failed", metadata: nil, source: "t", file: "f", function: "g", line: 1)
        XCTAssertEqual(ReceiveLogHandler.line(failure, base: [:], at: time), "2026-05-28T20:26:40Z error receive: storing a body failed")
        XCTAssertEqual(ReceiveLog.path("/hae?key=secret"), "(other path)")
        XCTAssertEqual(ReceiveLog.path("/metrics"), "/metrics")
    }
}
