import Foundation
import XCTest

@testable import ExportParser

/// `receive` acknowledges only what the readers can read (docs/receive.md, "What a body must
/// be"), and a body in the store that cannot be read never stops the check: the built tool on
/// a free loopback port, the bodies of issue 38, and a store with unreadable bodies written in
/// by hand read by compare, convert --received, explain, people, gdpr-export and receive.
final class ReceiveReadableTests: XCTestCase {
    typealias B = ReceiveBodies

    private func keyFile(_ dir: URL) throws -> String {
        let file = dir.appendingPathComponent("key").path
        try (ReceiveProcess.key + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o600)
        return file
    }

    private func count(_ store: String) throws -> Int {
        let db = try SQLiteConnection(path: store, readOnly: true)
        let s = try db.prepare("SELECT count(*) FROM received_bodies")
        _ = try s.step()
        return Int(s.int(0))
    }

    private func object(_ text: String?) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data((text ?? "").utf8)) as? [String: Any], text ?? "no answer")
    }

    /// Each body of issue 38 that no reader takes, and data dated before 2014 or after tomorrow:
    /// 400 with one sentence, nothing stored; a good body afterwards is 200.
    func testBodiesNoReaderTakesAreRefusedAndNothingStored() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("received.sqlite").path
        let server = try ReceiveProcess(
            ["--store", store, "--api-key-file", try keyFile(dir)], log: dir.appendingPathComponent("receive.log"))
        let hae = "the Health Auto Export reader cannot read it"
        let refused: [(String, String, String)] = [
            ("/hae", #"{"foo":1}"#, hae),
            ("/hae", "[]", hae),
            ("/hae", #"{"data":null}"#, hae),
            ("/sync/healthkit", #"{"data":[{"metrics":{"step_count":100}}]}"#, #"data[0].date: payload without a "date""#),
            ("/sync/healthkit", #"{"data":[{"date":"2026-13-45"}]}"#, #"data[0].date: the payload's "date" is no real date"#),
            (
                "/sync/healthkit", #"{"data":[{"date":"2026-03-02","metrics":{"step_count":"lots"}}]}"#,
                "metrics.step_count is a text where the payload has a number"
            ),
            ("/sync/healthkit", #"{"data":[]}"#, "the body holds no payload"),
            ("/sync/healthkit", #"{"data":[{"date":"2013-12-31"}]}"#, "2013-12-31 is before 2014-01-01"),
            ("/sync/healthkit", #"{"data":[{"date":"2099-01-01","timezone":"Pacific/Kiritimati"}]}"#, "2099-01-01 is after tomorrow"),
            (
                "/hae",
                #"{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2013-06-01 10:00:00 +0100","qty":5}]}]}}"#,
                "data dated 2013-06-01 is before 2014-01-01"
            ),
        ]
        for (path, body, expected) in refused {
            let r = server.send("POST", path, body: Array(body.utf8))
            XCTAssertEqual(r?.status, 400, "\(path) \(body): \(r?.body ?? "no answer")")
            let error = try object(r?.body)["error"] as? String ?? ""
            XCTAssertTrue(error.contains(expected), "\(body): \(error)")
            if path == "/hae" && !body.contains("2099") && !body.contains("2013") { XCTAssertTrue(error.contains(hae), error) }
            if body.contains("lots") { XCTAssertTrue(error.hasPrefix("the payload reader cannot read it"), error) }
            // One sentence, naming no file (the HAE reader reads a temporary one).
            XCTAssertFalse(error.contains("/"), error)
            XCTAssertFalse(error.contains("\n"), error)
        }
        XCTAssertEqual(try count(store), 0, "nothing of a refused body is stored")
        // An HAE datum after the moment its body is received is after the body's export moment:
        // the HAE reader leaves it out (docs/rules.md, "The export moment"), here and whenever the
        // body is read, and the answer says so.
        let future = server.send(
            "POST", "/hae",
            body: Array(
                #"{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2099-01-01 10:00:00 +0100","qty":5}]}]}}"#.utf8)
        )
        XCTAssertEqual(future?.status, 200, future?.body ?? "")
        let warnings = try object(future?.body)["warnings"] as? [String] ?? []
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings.first?.contains("1 item left out: HAE datum starting after") ?? false, "\(warnings)")
        XCTAssertEqual(try count(store), 1)
        // Its 2999 date is not a date the body covers: /status names none (the reader kept nothing).
        let status = try object(server.send("GET", "/status")?.body)
        let haeSide = (status["sides"] as? [[String: Any]])?.first { $0["side"] as? String == "hae" }
        XCTAssertEqual(haeSide?["bodies"] as? Int, 1)
        XCTAssertTrue(haeSide?["last_date"] is NSNull, "\(haeSide ?? [:])")
        let good = server.send(
            "POST", "/sync/healthkit", body: Array(#"{"data":[{"date":"2026-03-02","metrics":{"step_count":100}}]}"#.utf8))
        XCTAssertEqual(good?.status, 200, good?.body ?? "")
        XCTAssertEqual(try count(store), 2)
        XCTAssertEqual(server.terminate(), 0)
    }

    /// A negative count is left out by the reader and said so in the answer's warnings, which
    /// `convert --received` then agrees with: the HAE day's steps are the other datum's alone.
    func testImplausibleValuesAreLeftOutAndSaid() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("received.sqlite").path
        let server = try ReceiveProcess(
            ["--store", store, "--api-key-file", try keyFile(dir)], log: dir.appendingPathComponent("receive.log"))
        let app = server.send(
            "POST", "/sync/healthkit",
            body: Array(#"{"data":[{"date":"2026-03-02","timezone":"+01:00","metrics":{"step_count":-5,"active_calories":300}}]}"#.utf8))
        XCTAssertEqual(app?.status, 200, app?.body ?? "")
        let answer = try object(app?.body)
        XCTAssertEqual(answer["status"] as? String, "accepted", "as the app expects")
        XCTAssertEqual(answer["warnings"] as? [String], ["2026-03-02: metrics.step_count is negative; left out"])
        // last_sync: this body's time, ISO 8601 UTC with milliseconds (2026-11-28T23:40:01.250Z).
        let lastSync = try XCTUnwrap(answer["last_sync"] as? String)
        XCTAssertEqual(lastSync.count, 24, lastSync)
        XCTAssertTrue(lastSync.hasSuffix("Z"), lastSync)

        // HAE: -3 steps at 10:00 and 40 at 11:00 on 2026-03-02 (+01:00): the -3 is skipped.
        let body = """
            {"data":{"metrics":[{"name":"step_count","units":"count","data":[
              {"date":"2026-03-02 10:00:00 +0100","qty":-3},{"date":"2026-03-02 11:00:00 +0100","qty":40}]}]}}
            """
        let hae = server.send("POST", "/hae", body: Array(body.utf8))
        XCTAssertEqual(hae?.status, 200, hae?.body ?? "")
        XCTAssertEqual(try object(hae?.body)["warnings"] as? [String], ["1 item left out: negative value for StepCount"])
        // A body without anything left out says so with an empty list.
        let clean = server.send("POST", "/sync/healthkit", body: Array(#"{"data":[{"date":"2026-03-03"}]}"#.utf8))
        XCTAssertEqual(try object(clean?.body)["warnings"] as? [String], [])
        XCTAssertEqual(try count(store), 3)
        XCTAssertEqual(server.terminate(), 0)
        // The HAE reader's copy of each body was written beside the store and is gone.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".health-import-body") }
        XCTAssertEqual(left, [])

        let out = dir.appendingPathComponent("conv")
        let r = try ToolRun.run(["convert", "--store", store, "--received", "--out", out.path, "--quiet"], in: dir)
        XCTAssertEqual(r.status, 0, r.printed)
        let payload = try object(String(contentsOf: out.appendingPathComponent("payloads/2026-03-02.json"), encoding: .utf8))
        // 40 steps: the one plausible datum (the -3 is no real count).
        XCTAssertEqual((payload["metrics"] as? [String: Any])?["step_count"] as? Double, 40)
    }

    /// explain --store on a person who has only HAE bodies received: the bodies are read as HAE
    /// input, sample by sample, as compare --store reads them.
    func testExplainReadsAnHAEOnlyPersonsReceivedBodies() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("received.sqlite").path
        let server = try ReceiveProcess(
            ["--store", store, "--api-key-file", try keyFile(dir)], log: dir.appendingPathComponent("receive.log"))
        // Two bodies of 2026-03-02 (+01:00): 25 steps at 09:00, then 40 at 11:00 with -3 at 10:00.
        let first = #"{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2026-03-02 09:00:00 +0100","qty":25}]}]}}"#
        let second = """
            {"data":{"metrics":[{"name":"step_count","units":"count","data":[
              {"date":"2026-03-02 10:00:00 +0100","qty":-3},{"date":"2026-03-02 11:00:00 +0100","qty":40}]}]}}
            """
        for body in [first, second] { XCTAssertEqual(server.send("POST", "/hae", body: Array(body.utf8))?.status, 200) }
        XCTAssertEqual(server.terminate(), 0)
        let r = try ToolRun.run(
            [
                "explain", "--store", store, "--date", "2026-03-02", "--field", "metrics.step_count", "--timezone", "Europe/Berlin",
                "--format",
                "json",
            ], in: dir)
        XCTAssertEqual(r.status, 0, r.printed)
        let explained = try object(r.stdout)
        // 25 + 40 = 65 steps; the -3 datum is skipped by the reader.
        XCTAssertEqual(explained["value"] as? Double, 65, r.stdout)
        XCTAssertEqual((explained["samples"] as? [Any])?.count, 2, r.stdout)
        XCTAssertFalse(r.printed.contains("health-import-received"), r.printed)
    }
}
