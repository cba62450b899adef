import Foundation
import XCTest

@testable import ExportParser

/// A store whose received bodies include two no reader can read (written into the table by
/// hand, as an earlier receive could have taken them): compare --store and convert --received
/// skip them, name them and go on; receive names them at start; people counts what the
/// receive-only person has; explain --store reads the received bodies; gdpr-export writes them
/// as JSON Lines.
final class ReceivedStoreReadTests: XCTestCase {
    typealias B = ReceiveBodies
    let start = "2026-03-02"
    let dates = ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06"]

    func testUnreadableBodiesAreSkippedNamedAndTheRestIsRead() throws {
        let fixture = try FixtureCheck.make(days: dates.count, start: start)
        defer { try? FileManager.default.removeItem(at: fixture) }
        let store = fixture.appendingPathComponent("received.sqlite").path
        let log = fixture.appendingPathComponent("receive.log")
        let key = fixture.appendingPathComponent("key").path
        try (ReceiveProcess.key + "\n").write(toFile: key, atomically: true, encoding: .utf8)
        chmod(key, 0o600)
        // 15 app bodies (3 syncs of 5 dates) and 4 HAE bodies, as ReceiveProcessTests sends them.
        let app = try B.appSyncs(fixture), hae = try B.haeSyncs(fixture, dates: dates)
        let server = try ReceiveProcess(["--store", store, "--api-key-file", key], log: log)
        for body in app { XCTAssertEqual(server.send("POST", "/sync/healthkit", body: body)?.status, 200) }
        for body in hae { XCTAssertEqual(server.send("POST", "/hae", body: body)?.status, 200) }
        XCTAssertEqual(server.terminate(), 0)

        // Two bodies no reader takes, written directly: body 100 (app, a text step count) and
        // body 101 (HAE, "data": null).
        let db = try SQLiteConnection(path: store)
        for (id, endpoint, text, at) in [
            (100, "sync/healthkit", #"{"data":[{"date":"2026-03-04","metrics":{"step_count":"lots"}}]}"#, "2026-03-04T09:00:00.000Z"),
            (101, "hae", #"{"data":null}"#, "2026-03-04T10:00:00.000Z"),
        ] {
            let hex = Array(text.utf8).map { String(format: "%02x", $0) }.joined()
            try db.execute(
                """
                INSERT INTO received_bodies (id, person, endpoint, body_sha256, bytes, body, received_at, first_date, last_date)
                VALUES (\(id), 'me', '\(endpoint)', '\(FileDigest.sha256(bytes: Array(text.utf8)))', \(text.utf8.count), X'\(hex)', '\(at)', NULL, NULL)
                """)
        }
        let appSkip =
            "received body 100 (POST /sync/healthkit, received 2026-03-04T09:00:00.000Z) cannot be read and is skipped: the payload reader cannot read it"
        let haeSkip =
            "received body 101 (POST /hae, received 2026-03-04T10:00:00.000Z) cannot be read and is skipped: the Health Auto Export reader cannot read it"

        // compare --store: the same verdict as without the two (exit 0, every field agrees), and both named.
        let cmp = try ToolRun.run(
            ["compare", "--store", store, "--from", start, "--days", "5", "--out", fixture.appendingPathComponent("cmp").path], in: fixture)
        XCTAssertEqual(cmp.status, 0, cmp.printed)
        XCTAssertTrue(cmp.printed.contains("Skipped: " + appSkip), cmp.printed)
        XCTAssertTrue(cmp.printed.contains("metrics.step_count is a text where the payload has a number"), cmp.printed)
        XCTAssertTrue(cmp.printed.contains("Skipped: " + haeSkip), cmp.printed)
        XCTAssertFalse(cmp.printed.contains("health-import-received"), "no temporary file named: \(cmp.printed)")
        let report = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.appendingPathComponent("cmp/compare.json"))) as? [String: Any])
        XCTAssertEqual((report["skipped_bodies"] as? [String])?.count, 2)

        // convert --received: HAE's 4 readable bodies give a payload for each of the 5 dates; body 101 is named.
        let out = fixture.appendingPathComponent("conv")
        let conv = try ToolRun.run(["convert", "--store", store, "--received", "--out", out.path, "--quiet"], in: fixture)
        XCTAssertEqual(conv.status, 0, conv.printed)
        XCTAssertTrue(conv.stderr.contains("warning: " + haeSkip), conv.stderr)
        XCTAssertFalse(conv.printed.contains("health-import-received"), conv.printed)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("payloads").path).sorted(),
            dates.map { $0 + ".json" })

        // people: no import, but 16 app bodies (15 + body 100) over 2026-03-02..06 and 5 HAE
        // bodies (4 + body 101) from 2026-03-01 (the wrist temperature of the evening before) to
        // 2026-03-06; bodies 100 and 101 cover no date (NULL), which min and max pass over.
        let people = try ToolRun.run(["people", "--store", store], in: fixture)
        XCTAssertEqual(people.status, 0, people.printed)
        XCTAssertTrue(
            people.stdout.contains(
                "me: 0 imports, no daily values; native bodies received 16, 2026-03-02 to 2026-03-06; HAE bodies received 5, 2026-03-01 to 2026-03-06"
            ), people.stdout)
        XCTAssertTrue(people.stdout.contains("day_payloads 0, pushes 0"), people.stdout)

        // explain --store, as compare prints it, on the receive-only person: the app's latest sync
        // of 2026-03-04 is the complete payload of expected/ (the noon and 18:00 syncs hold half
        // and three quarters of its steps), so the value is expected/'s step_count.
        let expected = try XCTUnwrap(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: fixture.appendingPathComponent("expected/payloads/2026-03-04.json"))) as? [String: Any])
        let steps = try XCTUnwrap((expected["metrics"] as? [String: Any])?["step_count"] as? Double)
        let explain = try ToolRun.run(
            ["explain", "--store", store, "--person", "me", "--date", "2026-03-04", "--field", "metrics.step_count", "--format", "json"],
            in: fixture)
        XCTAssertEqual(explain.status, 0, explain.printed)
        let explained = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(explain.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(explained["value"] as? Double, steps, explain.stdout)
        XCTAssertFalse(explain.printed.contains("health-import-received"), explain.printed)

        // gdpr-export: received_bodies.jsonl is JSON Lines, one body a line (15 + 4 + 2 = 21), in
        // the folder and in the zip; each line's body is the JSON that was sent.
        let folder = fixture.appendingPathComponent("gdpr").path, zip = fixture.appendingPathComponent("gdpr.zip").path
        for target in [folder, zip] {
            let g = try ToolRun.run(["gdpr-export", "--store", store, "--person", "me", "--out", target], in: fixture)
            XCTAssertEqual(g.status, 0, g.printed)
        }
        let unzipped = try GDPRTestSupport.unzip(zip)
        let fromZip = try XCTUnwrap(unzipped.first { $0.key.hasSuffix("received_bodies.jsonl") }?.value)
        let fromFolder = try Data(contentsOf: URL(fileURLWithPath: folder + "/received_bodies.jsonl"))
        XCTAssertEqual(fromZip, fromFolder)
        let lines = String(decoding: fromFolder, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.count, 21)
        let sent = app + hae
        for (i, line) in lines.enumerated() {
            let row = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "line \(i + 1)")
            guard i < sent.count else { continue }
            let original = try JSONSerialization.jsonObject(with: Data(sent[i])) as? NSDictionary
            XCTAssertEqual(row["body"] as? NSDictionary, original, "line \(i + 1)")
        }

        // receive, started again on the store, names both at start.
        let again = try ReceiveProcess(["--store", store, "--api-key-file", key], log: log)
        let deadline = Date().addingTimeInterval(30)
        while !again.logText.contains("receive: me: " + haeSkip), Date() < deadline { usleep(50_000) }
        XCTAssertTrue(again.logText.contains("receive: me: " + appSkip), again.logText)
        XCTAssertTrue(again.logText.contains("receive: me: " + haeSkip), again.logText)
        XCTAssertEqual(again.terminate(), 0)
    }
}
