import Foundation
import XCTest

@testable import ExportParser

/// What `receive` checks and keeps of a body, in process: the JSON check and the dates a body
/// covers, the keys, the table (a body twice is one row), `GET /status`'s figures, and the
/// bodies written back out as inputs.
final class ReceivedBodyTests: XCTestCase {
    private func check(_ text: String, _ endpoint: ReceiveEndpoint) -> Result<ReceivedBodyCheck, BodyProblem> {
        let bytes = Array(text.utf8)
        return BorrowedBytes.lending(bytes) { ReceivedBodyCheck.check($0, endpoint: endpoint) }
    }

    func testAnAppBodyCoversItsPayloadsDates() {
        // Two payloads: 2026-03-03 and 2026-03-02 (out of order); a workout starting 2026-03-02T18:00.
        // Dates met: "2026-03-03", "2026-03-02", "2026-03-02" -> first 2026-03-02, last 2026-03-03.
        // device_sync_timestamp is no date key and does not count (it is 2026-03-04).
        let body = """
            {"data": [{"date": "2026-03-03", "device_sync_timestamp": "2026-03-04T08:00:00+01:00", "metrics": {"step_count": 100}},
                      {"date": "2026-03-02", "workouts": [{"start": "2026-03-02T18:00:00+01:00", "end": "2026-03-02T19:00:00+01:00",
                                                           "duration_seconds": 3600, "type": "run"}]}]}
            """
        XCTAssertEqual(try check(body, .app).get(), ReceivedBodyCheck(firstDate: "2026-03-02", lastDate: "2026-03-03"))
        // A bare payload is the app's kind too; a key no payload field has is named in the warnings.
        XCTAssertEqual(
            try check(#"{"date": "2026-03-05", "steps": 1}"#, .app).get(),
            ReceivedBodyCheck(firstDate: "2026-03-05", lastDate: "2026-03-05", warnings: ["keys no payload field has, not read: steps"]))
    }

    func testAnHAEBodyCoversItsDatumsAndWorkoutsDates() {
        // Datums 2026-03-01 23:00 and 2026-03-02 00:00 (local dates 03-01 and 03-02), a workout
        // starting 2026-03-04 06:00 -> 2026-03-01 to 2026-03-04. "qty" and "name" are not dates.
        let body = """
            {"data": {"metrics": [{"name": "step_count", "units": "count", "data": [
                {"date": "2026-03-02 00:00:00 +0100", "qty": 10}, {"date": "2026-03-01 23:00:00 +0100", "qty": 5}]}],
              "workouts": [{"name": "Run", "start": "2026-03-04 06:00:00 +0100", "end": "2026-03-04 07:00:00 +0100"}]}}
            """
        XCTAssertEqual(try check(body, .hae).get(), ReceivedBodyCheck(firstDate: "2026-03-01", lastDate: "2026-03-04"))
        // No dates at all: nil, nil (still a body of the kind).
        XCTAssertEqual(try check(#"{"data": {"metrics": []}}"#, .hae).get(), ReceivedBodyCheck(firstDate: nil, lastDate: nil))
    }

    func testBrokenJSONAndTheOtherEndpointsKindAreRefused() {
        let broken = [#"{"data": [{"date": "2026-03-02""#, "steps=1", "", "{\"a\": 1} {\"b\": 2}", "{\"a\": \"\u{FFFD}\"} x"]
        for text in broken {
            guard case .failure(let p) = check(text, .app) else { return XCTFail("accepted: \(text)") }
            XCTAssertTrue(p.message.hasPrefix("the body is not"), p.message)
        }
        // Invalid UTF-8 inside a string.
        let bad: [UInt8] = Array(#"{"date": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        XCTAssertThrowsError(try BorrowedBytes.lending(bad) { ReceivedBodyCheck.check($0, endpoint: .app) }.get())
        // Each endpoint refuses the other's kind.
        let hae = #"{"data": {"metrics": [], "workouts": []}}"#, app = #"{"data": [{"date": "2026-03-02"}]}"#
        XCTAssertEqual(
            try? check(hae, .app).get(), nil, "an HAE body is not the app's")
        XCTAssertEqual(try? check(app, .hae).get(), nil, "a payload is not an HAE body")
        XCTAssertEqual(try? check(#"[1, 2]"#, .hae).get(), nil, "an array of numbers is not an HAE body")
        XCTAssertEqual(try? check(#""text""#, .hae).get(), nil, "a string is not an HAE body")
        // The reader's other shapes are: an array of bodies, the body without its data wrapper.
        // (The workout has no end: the HAE reader skips it, and the answer's warnings say so.)
        XCTAssertEqual(
            try? check(#"[{"data": {"workouts": [{"start": "2026-03-07 06:00:00 +0100"}]}}]"#, .hae).get(),
            ReceivedBodyCheck(
                firstDate: "2026-03-07", lastDate: "2026-03-07", warnings: ["1 item left out: HAE workout without a parseable end"]))
        XCTAssertEqual(try? check(#"{"metrics": []}"#, .hae).get(), ReceivedBodyCheck(firstDate: nil, lastDate: nil))
    }

    /// The payload reader leaves out a negative value only where no real day has one: a count or
    /// sum, sleep hours; a wrist temperature deviation (-20…60 °C in the catalog) may be negative.
    func testOnlyFieldsThatCannotBeNegativeLoseANegativeValue() throws {
        let paths = PayloadReader.nonNegativePaths
        XCTAssertTrue(paths.contains("metrics.step_count"))
        XCTAssertTrue(paths.contains("sleep.total_hours"))
        XCTAssertFalse(paths.contains("metrics.apple_sleeping_wrist_temperature"))
        let text = """
            {"data": [{"date": "2026-03-02", "metrics": {"step_count": -1, "apple_sleeping_wrist_temperature": -0.4},
                       "sleep": {"total_hours": -2}}]}
            """
        var result = PayloadReader.Result()
        try PayloadReader.read(data: Data(text.utf8), file: "t", into: &result)
        // Left: the wrist temperature alone; step_count and total_hours left out, one sentence each.
        XCTAssertEqual(result.days.first?.values, ["metrics.apple_sleeping_wrist_temperature": .number(-0.4)])
        XCTAssertEqual(
            result.leftOut.sorted(),
            ["2026-03-02: metrics.step_count is negative; left out", "2026-03-02: sleep.total_hours is negative; left out"])
    }

    /// The dates a body may hold: 2014-01-01 to tomorrow in the data's zone.
    func testPlausibleDatesEndTomorrowInTheDatasZone() {
        // now = 2026-03-02T12:00:00Z = 20_514 days * 86_400 + 43_200 s = 1_772_452_800.
        let dates = PlausibleDates(now: Date(timeIntervalSince1970: 1_772_452_800))
        let march2 = CivilDate.parseISODate("2026-03-02")!
        XCTAssertEqual(march2, 20_514)
        // At UTC+14 it is 2026-03-03T02:00 (12 + 14 = 26 h): today 03-03, tomorrow 03-04.
        XCTAssertEqual(dates.latest(offset: PlausibleDates.widestOffset), march2 + 2)
        // At UTC-10 it is 2026-03-02T02:00: today 03-02, tomorrow 03-03.
        XCTAssertEqual(dates.latest(offset: -36_000), march2 + 1)
        XCTAssertNil(dates.problem(march2 + 2, offset: PlausibleDates.widestOffset))
        XCTAssertNotNil(dates.problem(march2 + 2, offset: -36_000))
        XCTAssertNil(dates.problem(CivilDate.parseISODate("2014-01-01")!, offset: 0))
        XCTAssertNotNil(dates.problem(CivilDate.parseISODate("2013-12-31")!, offset: 0))
        // Zones: offsets as written (5 * 3600 + 30 * 60 = 19_800), Berlin in winter (+01:00), none.
        XCTAssertEqual(dates.offset(ofZone: "+05:30"), 19_800)
        XCTAssertEqual(dates.offset(ofZone: "-0800"), -28_800)
        XCTAssertEqual(dates.offset(ofZone: "Europe/Berlin"), 3_600)
        XCTAssertEqual(dates.offset(ofZone: "UTC"), 0)
        XCTAssertNil(dates.offset(ofZone: "Mars/Olympus"))
        XCTAssertNil(dates.offset(ofZone: "+25:00"))
        // A local date from an instant and its offset: 2026-03-02T23:30-05:00 is 2026-03-03T04:30Z.
        XCTAssertEqual(PlausibleDates.day(1_772_512_200, offset: -18_000), march2)
        XCTAssertEqual(PlausibleDates.day(1_772_512_200, offset: 0), march2 + 1)
    }

    func testKeysFindTheirPersonAndNothingElse() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("keys").path
        try "# who sends\nann key-of-ann-123\n\nbob\tkey-of-bob-456\n".write(toFile: file, atomically: true, encoding: .utf8)
        chmod(file, 0o644)
        XCTAssertThrowsError(try ReceiveKeys.file(file)) { XCTAssertTrue("\($0)".contains("has mode 644"), "\($0)") }
        chmod(file, 0o600)
        let keys = try ReceiveKeys.file(file)
        XCTAssertEqual(keys.persons, ["ann", "bob"])
        XCTAssertEqual(keys.person(forKey: "key-of-ann-123"), "ann")
        XCTAssertEqual(keys.person(forKey: "key-of-bob-456"), "bob")
        for wrong in [nil, "", "key-of-ann-12", "key-of-ann-1234", "KEY-OF-ANN-123", "ann"] {
            XCTAssertNil(keys.person(forKey: wrong), wrong ?? "nil")
        }
        XCTAssertTrue(ReceiveKeys.equalInConstantTime([1, 2, 3], [1, 2, 3]))
        XCTAssertFalse(ReceiveKeys.equalInConstantTime([1, 2, 3], [1, 2, 4]))
        XCTAssertFalse(ReceiveKeys.equalInConstantTime([1, 2], [1, 2, 3]))
        // One key for two persons, a line of one word: refused, naming the line, not the key.
        for (text, line) in [("ann k1\nbob k1\n", "line 2"), ("ann k1\nbob\n", "line 2")] {
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            chmod(file, 0o600)
            XCTAssertThrowsError(try ReceiveKeys.file(file)) {
                XCTAssertTrue("\($0)".contains(line), "\($0)")
                XCTAssertFalse("\($0)".contains("k1"), "\($0)")
            }
        }
    }

    func testABodyTwiceIsOneRowAndStatusCountsTheRows() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("r.sqlite").path
        let store = try ReceivedBodyStore(path: path)
        func keep(_ text: String, _ e: ReceiveEndpoint, _ person: String, _ at: Double) throws -> ReceivedBodyStore.Kept {
            let c = try check(text, e).get()
            return try Array(text.utf8).withUnsafeBytes {
                try store.keep($0, endpoint: e, person: person, check: c, receivedAt: Date(timeIntervalSince1970: at))
            }
        }
        let a = #"{"data": [{"date": "2026-03-02"}]}"#, b = #"{"data": [{"date": "2026-03-04"}]}"#
        let h = #"{"data": {"metrics": [{"name": "step_count", "data": [{"date": "2026-03-03 00:00:00 +0100", "qty": 1}]}]}}"#
        XCTAssertEqual(try keep(a, .app, "ann", 1_772_440_000), .stored(1))
        XCTAssertEqual(try keep(a, .app, "ann", 1_772_440_001), .alreadyHeld)
        XCTAssertEqual(try keep(b, .app, "ann", 1_772_440_002.5), .stored(2))
        XCTAssertEqual(try keep(h, .hae, "ann", 1_772_440_003), .stored(3))
        // The same bytes for another person or on another endpoint are other rows.
        XCTAssertEqual(try keep(a, .app, "bob", 1_772_440_004), .stored(4))
        // ann, app: bodies a and b (the repeat of a is not a row): 2 bodies, a.count + b.count
        // bytes, dates 2026-03-02..2026-03-04, last received 1_772_440_002.5 s = 2026-03-02T08:26:42.500Z
        // (1_772_440_002 = 20_514 days * 86_400 (= 1_772_409_600) + 30_402 s; day 20_514 after 1970-01-01
        // is 2026-03-02; 30_402 s = 8 * 3600 + 26 * 60 + 42 = 08:26:42).
        let status = try store.status(person: "ann")
        XCTAssertEqual(
            status,
            [
                ReceiveStatus(
                    person: "ann", endpoint: .hae, bodies: 1, bytes: h.utf8.count, firstDate: "2026-03-03", lastDate: "2026-03-03",
                    lastReceivedAt: "2026-03-02T08:26:43.000Z"),
                ReceiveStatus(
                    person: "ann", endpoint: .app, bodies: 2, bytes: a.utf8.count + b.utf8.count, firstDate: "2026-03-02",
                    lastDate: "2026-03-04", lastReceivedAt: "2026-03-02T08:26:42.500Z"),
            ])
        // Written back out: ann's three bodies in the order received, the bytes as sent, 0600 in a 0700 folder.
        let inputs = try ReceivedInputs.materialize(storePath: path, person: "ann")
        XCTAssertEqual(inputs.app.count, 2)
        XCTAssertEqual(inputs.hae.count, 1)
        XCTAssertEqual(try String(contentsOfFile: inputs.app[0], encoding: .utf8), a)
        XCTAssertEqual(try String(contentsOfFile: inputs.app[1], encoding: .utf8), b)
        XCTAssertEqual(try String(contentsOfFile: inputs.hae[0], encoding: .utf8), h)
        var st = stat()
        XCTAssertEqual(stat(inputs.folder, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o700)
        XCTAssertEqual(stat(inputs.app[0], &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        inputs.remove()
        XCTAssertFalse(FileManager.default.fileExists(atPath: inputs.folder))
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600, "the store")
    }
}
