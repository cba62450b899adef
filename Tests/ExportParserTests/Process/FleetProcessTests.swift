import Foundation
import XCTest

@testable import ExportParser

/// `compare --everyone` on a cohort as a platform runs one: six people's fixtures (seeds 1–6,
/// 2026-03-02 … 03-09), both streams of everyone received at once by one `receive --keys`, and
/// failures planted in three people. The fleet report must name exactly those three, and each
/// person's readiness must be the single-person compare's exit status. The page is rendered in
/// Chromium.
final class FleetProcessTests: XCTestCase {
    typealias B = ReceiveBodies
    let dates = (2...9).map { String(format: "2026-03-%02d", $0) }
    let people = ["p1", "p2-field-off", "p3", "p4-no-hae", "p5-app-stopped", "p6"]

    func testTheFleetNamesExactlyThePlantedPeople() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("cohort.sqlite").path
        let keys = dir.appendingPathComponent("keys").path
        try people.map { "\($0) key-\($0)-\(ReceiveProcess.key)" }.joined(separator: "\n").write(
            toFile: keys, atomically: true, encoding: .utf8)
        chmod(keys, 0o600)

        // Each person's two streams, cut from a fixture of their own seed.
        var streams: [(person: String, endpoint: ReceiveEndpoint, body: [UInt8])] = []
        for (i, person) in people.enumerated() {
            let fixture = try FixtureCheck.make(days: dates.count, start: dates[0], seed: UInt64(i + 1), name: "fleet-\(person)")
            defer { try? FileManager.default.removeItem(at: fixture) }
            var app = try B.appSyncs(fixture)  // 3 a date, the complete payload last
            if person == "p2-field-off" {
                // The complete sync of 03-05 (date 4 of 8: bodies 9, 10, 11) says 10 % more steps:
                // out of the ±2 % tolerance on that date alone.
                app[11] = try Self.scaleSteps(app[11], by: 1.1)
            }
            if person == "p5-app-stopped" { app = Array(app.prefix(5 * 3)) }  // nothing after 03-06
            for body in app { streams.append((person, .app, body)) }
            if person != "p4-no-hae" {
                for body in try B.haeSyncs(fixture, dates: dates) { streams.append((person, .hae, body)) }
            }
        }

        // Everyone at once: a sender thread per person and stream, one receiver for all.
        let server = try ReceiveProcess(["--store", store, "--keys", keys], log: dir.appendingPathComponent("receive.log"))
        let refused = LockedList()
        var senders: [Thread] = []
        for person in people {
            for endpoint in ReceiveEndpoint.allCases {
                let bodies = streams.filter { $0.person == person && $0.endpoint == endpoint }.map(\.body)
                let key = "key-\(person)-\(ReceiveProcess.key)"
                let t = Thread {
                    for body in bodies where server.send("POST", endpoint.path, key: key, body: body)?.status != 200 {
                        refused.add(person)
                    }
                }
                senders.append(t)
                t.start()
            }
        }
        let deadline = Date().addingTimeInterval(300)
        while senders.contains(where: { !$0.isFinished }), Date() < deadline { usleep(20_000) }
        XCTAssertEqual(refused.items, [], "every body acknowledged")
        XCTAssertEqual(server.terminate(), 0)

        // Validation: the field off on one date is not ready with that field and date; HAE never
        // set up is not enough data; the stopped app has 5 native dates of the 7 (not ready, or
        // not enough data); the other three are ready.
        let out = dir.appendingPathComponent("fleet")
        let validate = try ToolRun.run(["compare", "--store", store, "--everyone", "--days", "7", "--out", out.path])
        XCTAssertEqual(validate.status, 1, validate.printed)
        let fleet = try Self.json(out.appendingPathComponent("fleet.json"))
        let byPerson = try Self.people(fleet)
        XCTAssertEqual(Set(byPerson.filter { !($0.value["ready"] as! Bool) }.keys), ["p2-field-off", "p4-no-hae", "p5-app-stopped"])
        XCTAssertEqual(byPerson["p2-field-off"]?["status"] as? String, "not-ready")
        let p2Fields = try XCTUnwrap(byPerson["p2-field-off"]?["fields"] as? [[String: Any]])
        XCTAssertEqual(p2Fields.map { $0["field"] as? String }, ["metrics.step_count"])
        XCTAssertEqual(p2Fields.first?["dates"] as? [String], ["2026-03-05"])
        XCTAssertEqual(byPerson["p4-no-hae"]?["status"] as? String, "not-enough-data")
        // Worst first on the terminal and in the file.
        let order = (fleet["people"] as? [[String: Any]])?.compactMap { $0["status"] as? String } ?? []
        XCTAssertEqual(order, order.sorted { FleetStatus(rawValue: $0)!.rank < FleetStatus(rawValue: $1)!.rank })
        XCTAssertTrue(validate.printed.contains("step_count"), validate.printed)
        let stepTally = (fleet["fields"] as? [[String: Any]])?.first { $0["field"] as? String == "metrics.step_count" }
        XCTAssertEqual(stepTally?["fails"] as? Int, 1)
        XCTAssertEqual(stepTally?["failing_people"] as? [String], ["p2-field-off"])
        // Each person's readiness is their own compare's exit status (0 ready, otherwise not).
        for person in people {
            let single = try ToolRun.run(["compare", "--store", store, "--person", person, "--days", "7", "--out", dir.path + "/one"])
            XCTAssertEqual(single.status == 0, byPerson[person]?["ready"] as? Bool, person + ": " + single.printed)
        }

        // Monitoring up to 03-09: only the stopped app fails (its last date 03-06, 03-09 − 03-06
        // = 3 > 1); the person without HAE is monitored on the app's data alone and is ready.
        let monitorOut = dir.appendingPathComponent("monitor")
        let monitor = try ToolRun.run([
            "compare", "--store", store, "--everyone", "--monitor", "3", "--until", "2026-03-09", "--out", monitorOut.path,
        ])
        XCTAssertEqual(monitor.status, 1, monitor.printed)
        let monitored = try Self.people(try Self.json(monitorOut.appendingPathComponent("fleet.json")))
        XCTAssertEqual(Set(monitored.filter { !($0.value["ready"] as! Bool) }.keys), ["p5-app-stopped"])
        XCTAssertEqual(monitored["p5-app-stopped"]?["status"] as? String, "app-stopped")
        XCTAssertEqual(
            monitored["p5-app-stopped"]?["reason"] as? String, "no native data since 2026-03-06 (2026-03-07 … 2026-03-09 missing)")
        for person in people {
            let single = try ToolRun.run([
                "compare", "--store", store, "--person", person, "--monitor", "3", "--until", "2026-03-09", "--out", dir.path + "/one",
            ])
            XCTAssertEqual(single.status == 0, monitored[person]?["ready"] as? Bool, person + ": " + single.printed)
        }

        try checkPage(out, people: byPerson)
    }

    /// fleet.html in Chromium: no console message, a row a person with a link to a report that
    /// exists, a bar a field, and the sort named in the address applied.
    private func checkPage(_ out: URL, people: [String: [String: Any]]) throws {
        try XCTSkipUnless(CompareHTMLTests.chromium != nil, "chromium is not installed (apt-get install chromium; .ci/run installs it)")
        let page = out.appendingPathComponent("fleet.html").path
        let html = try String(contentsOfFile: page, encoding: .utf8)
        XCTAssertFalse(html.contains("http://") || html.contains("https://"), "nothing from the network")
        let dom = try CompareHTMLTests.browser(["--enable-logging=stderr", "--v=0", "--dump-dom", "file://" + page + "#sort=person-desc"])
        XCTAssertEqual(dom.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }, [], "console messages")
        XCTAssertEqual(dom.stdout.components(separatedBy: "<tr class=\"").count - 1, people.count)
        // Sorted by person, descending: p6 first, p1 last.
        let first = try XCTUnwrap(dom.stdout.range(of: "data-v=\"p6\""))
        let last = try XCTUnwrap(dom.stdout.range(of: "data-v=\"p1\""))
        XCTAssertLessThan(first.lowerBound, last.lowerBound)
        XCTAssertTrue(dom.stdout.contains("<th data-col=\"0\" data-key=\"person\" class=\"desc\">"))
        for (person, p) in people {
            guard let report = p["report"] as? String else {
                XCTAssertEqual(person, "p4-no-hae", "only the person without HAE has no report")
                continue
            }
            XCTAssertTrue(html.contains("href=\"\(report)\""), person)
            XCTAssertTrue(FileManager.default.fileExists(atPath: out.path + "/" + report), report)
        }
        let fields = try XCTUnwrap(try Self.json(out.appendingPathComponent("fleet.json"))["fields"] as? [[String: Any]])
        XCTAssertEqual(dom.stdout.components(separatedBy: "<div class=\"bar\"").count - 1, fields.count)
    }

    static func json(_ url: URL) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    static func people(_ fleet: [String: Any]) throws -> [String: [String: Any]] {
        let list = try XCTUnwrap(fleet["people"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: list.map { ($0["person"] as! String, $0) })
    }

    /// An app body `{"data": [payload]}` with its step count multiplied by `factor`.
    static func scaleSteps(_ body: [UInt8], by factor: Double) throws -> [UInt8] {
        var root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        var list = try XCTUnwrap(root["data"] as? [[String: Any]])
        var metrics = try XCTUnwrap(list[0]["metrics"] as? [String: Any])
        let steps = try XCTUnwrap(metrics["step_count"] as? Double)
        metrics["step_count"] = (steps * factor).rounded()
        list[0]["metrics"] = metrics
        root["data"] = list
        return Array(try JSONSerialization.data(withJSONObject: root))
    }
}
