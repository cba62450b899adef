import Foundation
import XCTest

@testable import ExportParser

/// `push` against a real HTTP server on 127.0.0.1 (`PushTestServer`), with the payloads convert
/// made from the compare fixtures (seven dates). Retry waits are recorded, not slept, and the
/// jitter's random source is fixed, so the tests take seconds and every wait is exact.
final class PushTests: XCTestCase {
    typealias S = PushTestSupport

    func testEveryDayArrivesOnceWithItsPayloadAndTheKey() throws {
        let f = try S.fixture()
        let server = try PushTestServer(dir: f.dir)
        let outcome = try S.run(S.request(server, f))
        XCTAssertEqual(outcome.accepted, 7)
        XCTAssertEqual(outcome.sent, 7)
        XCTAssertEqual(outcome.lastSync, "2024-02-28T10:00:00Z")
        XCTAssertEqual(outcome.exitStatus, 0)

        let requests = server.requests()
        XCTAssertEqual(requests.first?.method, "GET", "the status is asked first")
        XCTAssertEqual(requests.first?.path, "/sync/status")
        let posts = server.posts()
        XCTAssertEqual(posts.compactMap(\.date).sorted(), S.dates, "every date exactly once")
        for p in posts {
            let date = try XCTUnwrap(p.date)
            XCTAssertEqual(p.body, S.wrapped(try f.payload(date)), "\(date): the payload file's bytes in {\"data\": [...]}")
            XCTAssertEqual(p.headers["x-api-key"], S.key)
            XCTAssertEqual(p.headers["content-type"], "application/json")
        }
        XCTAssertEqual(requests.first?.headers["x-api-key"], S.key)
        let recorded = try S.recorded(f.store)
        XCTAssertEqual(recorded.keys.sorted(), S.dates)
        XCTAssertTrue(recorded.values.allSatisfy { $0.result == "accepted" && $0.status == "200" })

        // --body bare from the folder: the payload file alone.
        let bare = try PushTestServer(dir: f.dir.appendingPathComponent("bare").creatingDirectory())
        let o2 = try S.run(
            S.request(bare, f) {
                $0.payloadsDir = f.payloadsDir; $0.body = .bare; $0.from = "2024-03-02"; $0.to = "2024-03-03"
            })
        XCTAssertEqual(o2.accepted, 2)
        XCTAssertEqual(bare.posts().compactMap(\.date).sorted(), ["2024-03-02", "2024-03-03"])
        for p in bare.posts() { XCTAssertEqual(p.body, try f.payload(p.date!).trimmingCharacters(in: .newlines)) }
    }

    func testRetriesFollowRetryAfterAndBackoffAndGiveUpAfterMaxAttempts() throws {
        let f = try S.fixture()
        let server = try PushTestServer(
            dir: f.dir,
            plan: [
                "dates": [
                    "2024-03-01": ["503:7", "accept"],
                    "2024-03-02": ["429:3", "accept"],
                    "2024-03-03": ["500", "408", "accept"],
                    "2024-03-04": ["stall", "accept"],
                    "2024-03-05": ["drop", "accept"],
                    "2024-03-06": ["500"],
                ]
            ])
        let waits = S.Waits()
        // One request at a time, so the waits come in date order; random 0.5: jitter factor 0.75.
        let outcome = try S.run(
            S.request(server, f) {
                $0.concurrency = 1; $0.maxAttempts = 3
            }, waits: waits, random: 0.5)
        // Backoff with base 0.01 s: after the 1st failure 0.01 · 0.75 = 0.0075, after the 2nd 0.02 · 0.75 = 0.015.
        let expected = [7, 3, 0.0075, 0.015, 0.0075, 0.0075, 0.0075, 0.015]
        XCTAssertEqual(waits.all.count, expected.count, "\(waits.all)")
        for (got, want) in zip(waits.all, expected) { XCTAssertEqual(got, want, accuracy: 1e-9, "\(waits.all)") }

        var perDate: [String: Int] = [:]
        for p in server.posts() { perDate[p.date!, default: 0] += 1 }
        XCTAssertEqual(
            perDate,
            ["2024-03-01": 2, "2024-03-02": 2, "2024-03-03": 3, "2024-03-04": 2, "2024-03-05": 2, "2024-03-06": 3, "2024-03-07": 1])
        XCTAssertEqual(outcome.accepted, 6)
        XCTAssertEqual(outcome.failures, [.init(date: "2024-03-06", reason: "HTTP 500, given up after 3 attempts")])
        XCTAssertEqual(try S.recorded(f.store)["2024-03-06"]?.result, "failed")
        XCTAssertEqual(outcome.exitStatus, 1)
    }

    func testA400StopsThatDayOnly() throws {
        let f = try S.fixture()
        let server = try PushTestServer(dir: f.dir, plan: ["dates": ["2024-03-02": ["400"]]])
        let outcome = try S.run(S.request(server, f))
        XCTAssertEqual(outcome.accepted, 6)
        XCTAssertEqual(outcome.failures, [.init(date: "2024-03-02", reason: "HTTP 400: planned 400")])
        XCTAssertEqual(server.posts().filter { $0.date == "2024-03-02" }.count, 1, "a 400 is not tried again")
        XCTAssertEqual(server.posts().compactMap(\.date).sorted(), S.dates)
        let recorded = try S.recorded(f.store)
        XCTAssertEqual(recorded["2024-03-02"]?.result, "rejected")
        XCTAssertEqual(recorded["2024-03-02"]?.status, "400")
        // A rejected day is sent again by the next run; the accepted ones are not.
        try server.setPlan([:])
        let again = try S.run(S.request(server, f))
        XCTAssertEqual(again.skipped, 6)
        XCTAssertEqual(again.accepted, 1)
    }

    func testA401StopsTheRun() throws {
        let f = try S.fixture()
        let server = try PushTestServer(dir: f.dir, plan: ["dates": ["2024-03-03": ["401"]]])
        let outcome = try S.run(S.request(server, f) { $0.concurrency = 1 })
        XCTAssertEqual(server.posts().compactMap(\.date), ["2024-03-01", "2024-03-02", "2024-03-03"], "nothing after the 401")
        XCTAssertEqual(outcome.accepted, 2)
        XCTAssertEqual(outcome.notSent, 5)
        // The counts add up to the 7 days: 2 accepted (03-01, 03-02) + 0 skipped + 0 failed + 5
        // not sent (03-03, refused with the 401, and 03-04 … 03-07, never sent) = 7.
        let summary = outcome.summaryLines().joined(separator: "\n")
        XCTAssertTrue(
            summary.contains(
                "7 days: 2 accepted, 0 skipped as already sent, 0 failed, 5 not sent (the run stopped; 1 of them got no answer before the stop)"
            ),
            summary)
        let reason = try XCTUnwrap(outcome.stopReason)
        XCTAssertTrue(reason.contains("refused the API key (HTTP 401"), reason)
        XCTAssertEqual(outcome.exitStatus, 1)
        XCTAssertEqual(
            try S.recorded(f.store).keys.sorted(), ["2024-03-01", "2024-03-02"], "the refused day is not recorded: the next run sends it")

        // Refused already when asking the status: nothing is sent.
        let refusing = try PushTestServer(dir: f.dir.appendingPathComponent("status").creatingDirectory(), plan: ["status_code": 403])
        let o2 = try S.run(S.request(refusing, f) { $0.force = true })
        XCTAssertTrue(refusing.posts().isEmpty)
        XCTAssertTrue(o2.stopReason?.contains("HTTP 403") == true, "\(String(describing: o2.stopReason))")
    }

    func testAPayloadChangedSinceIsSentAgain() throws {
        let f = try S.fixture()
        let server = try PushTestServer(dir: f.dir)
        let folder = { (r: inout PushRequest) in r.payloadsDir = f.payloadsDir }
        XCTAssertEqual(try S.run(S.request(server, f, configure: folder)).accepted, 7)
        // Unchanged: nothing is sent.
        let same = try S.run(S.request(server, f, configure: folder))
        XCTAssertEqual(same.skipped, 7)
        XCTAssertEqual(same.sent, 0)
        XCTAssertEqual(server.posts().count, 7)
        // 03-04's steps change (10500 → 10501): only that day goes again, with the new bytes.
        let file = f.payloadsDir + "/2024-03-04.json"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(text.contains("10500"))
        try Data(text.replacingOccurrences(of: "10500", with: "10501").utf8).write(to: URL(fileURLWithPath: file))
        let changed = try S.run(S.request(server, f, configure: folder))
        XCTAssertEqual(changed.sent, 1)
        XCTAssertEqual(changed.skipped, 6)
        XCTAssertEqual(server.posts().count, 8)
        XCTAssertEqual(server.posts().last?.date, "2024-03-04")
        XCTAssertTrue(server.posts().last?.body.contains("10501") == true)
    }

    func testForceSendsEverythingAgain() throws {
        let f = try S.fixture()
        let server = try PushTestServer(dir: f.dir)
        XCTAssertEqual(try S.run(S.request(server, f)).accepted, 7)
        let forced = try S.run(S.request(server, f) { $0.force = true })
        XCTAssertEqual(forced.accepted, 7)
        XCTAssertEqual(forced.skipped, 0)
        var perDate: [String: Int] = [:]
        for p in server.posts() { perDate[p.date!, default: 0] += 1 }
        XCTAssertEqual(perDate.values.sorted(), Array(repeating: 2, count: 7))
    }

    func testDryRunSendsNothing() throws {
        let f = try S.fixture()
        let server = try PushTestServer(dir: f.dir)
        let outcome = try S.run(
            S.request(server, f) {
                $0.dryRun = true; $0.from = "2024-03-05"
            })
        XCTAssertTrue(server.requests().isEmpty, "not even the status request")
        XCTAssertEqual(outcome.planned.map(\.date), ["2024-03-05", "2024-03-06", "2024-03-07"])
        for p in outcome.planned { XCTAssertEqual(p.bytes, S.wrapped(try f.payload(p.date)).utf8.count) }
        XCTAssertTrue(try S.recorded(f.store).isEmpty)
        XCTAssertTrue(outcome.summaryLines().last?.contains("Nothing was sent") == true)
    }

    func testPlainHTTPToAnotherHostIsRefused() throws {
        for url in ["http://example.com", "http://10.0.0.7:8080", "http://[2001:db8::1]/api", "ftp://127.0.0.1"] {
            XCTAssertThrowsError(try PushJob(PushRequest(url: url, dryRun: true)), url) { e in
                XCTAssertEqual((e as? UsageError)?.option, "--url", "\(e)")
            }
        }
        for url in ["https://api.example.com", "http://127.0.0.1:8080", "http://localhost", "http://[::1]:9000/base/"] {
            XCTAssertNoThrow(try PushJob(PushRequest(url: url, dryRun: true)), url)
        }
        XCTAssertEqual(try PushEndpoint("http://[::1]:9000/base/").base, "http://[::1]:9000/base")
    }

    /// The IPv6 loopback test reads the address's 16 bytes: ::1 is fifteen zero bytes then 1;
    /// an IPv4-mapped address is ten zero bytes, FF FF, then the IPv4 address, loopback when its
    /// first byte is 127 (`::ffff:7f00:1` is the same bytes as `::ffff:127.0.0.1`).
    func testIPv6LoopbackIsReadFromTheAddressBytes() {
        for host in ["::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "::FFFF:7f00:1", "::ffff:127.255.0.9"] {
            XCTAssertTrue(PushEndpoint.isLoopback(host), host)
        }
        for host in ["::2", "1::1", "2001:db8::1", "::ffff:10.0.0.1", "::fffe:127.0.0.1", "::127.0.0.1"] {
            XCTAssertFalse(PushEndpoint.isLoopback(host), host)
        }
    }
}

extension URL {
    /// Creates the folder (with its parents) and returns it.
    func creatingDirectory() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}
