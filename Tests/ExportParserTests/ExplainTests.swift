import Foundation
import XCTest

@testable import ExportParser

/// `explain` (docs/explain.md): its counted parts are the payload rule's own terms, its value is
/// the payload's, and its mistakes are usage errors that list what exists.
final class ExplainTests: XCTestCase {
    static let watch = "Ann’s Apple Watch", phone = "Ann’s iPhone"

    /// Steps on 2024-03-05 (+01:00), worked out by hand:
    ///
    ///   watch  08:00–08:10  100   highest priority: counts whole                       100
    ///   watch  08:00–08:10  100   the same record again (a re-sync): counted once        0
    ///   iPhone 08:05–08:25  400   20 min; the watch covers 08:05–08:10 and 08:20–08:25,
    ///                             so 10 of its 20 min are free: 400 × 10 / 20          200
    ///   watch  08:20–08:30   50   counts whole                                          50
    ///   watch  23:50–00:10   60   20 min across midnight, 10 min on 03-05: 60 × 10/20   30
    ///                                                                         total    380
    /// The watch wins 08:00–08:10, 08:20–08:30 and 23:50–00:00 (30 min); the iPhone 08:10–08:20.
    static func handMadeExport() throws -> String {
        let steps = "HKQuantityTypeIdentifierStepCount"
        let body =
            record(steps, "100", unit: "count", source: watch, start: "2024-03-05 08:00:00 +0100", end: "2024-03-05 08:10:00 +0100")
            + record(steps, "100", unit: "count", source: watch, start: "2024-03-05 08:00:00 +0100", end: "2024-03-05 08:10:00 +0100")
            + record(steps, "400", unit: "count", source: phone, start: "2024-03-05 08:05:00 +0100", end: "2024-03-05 08:25:00 +0100")
            + record(steps, "50", unit: "count", source: watch, start: "2024-03-05 08:20:00 +0100", end: "2024-03-05 08:30:00 +0100")
            + record(steps, "60", unit: "count", source: watch, start: "2024-03-05 23:50:00 +0100", end: "2024-03-06 00:10:00 +0100")
        let dir = try TestPaths.temporaryDirectory()
        let path = dir.appendingPathComponent("export.xml").path
        try Data(export(body).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func explain(_ input: String, date: String, field: String) throws -> ExplainOutcome {
        try ExplainJob(ExplainRequest(inputs: [input], date: date, field: field)).run()
    }

    func testHandMadeOverlapSaysWhichSourceCountedWhichMinutes() throws {
        let e = try explain(try Self.handMadeExport(), date: "2024-03-05", field: "metrics.step_count").explanation
        XCTAssertEqual(e.number, 380)
        XCTAssertEqual(e.countedTotal ?? -1, 380, accuracy: 1e-9)
        XCTAssertEqual(e.samples.count, 5)
        let counted = e.samples.map { "\($0.source) \($0.start.dropLast(6).suffix(8)) \($0.counted!)" }
        XCTAssertEqual(
            counted.sorted(),
            [
                "\(Self.watch) 08:00:00 0.0", "\(Self.watch) 08:00:00 100.0", "\(Self.watch) 08:20:00 50.0", "\(Self.watch) 23:50:00 30.0",
                "\(Self.phone) 08:05:00 200.0",
            ].sorted())
        let iPhone = e.samples.first { $0.source == Self.phone }!
        XCTAssertEqual(iPhone.onDate, 400)
        XCTAssertEqual(iPhone.note, "50 % under \(Self.watch)")
        XCTAssertEqual(e.samples.filter { $0.note == "duplicate of another sample: counted once" }.count, 1)
        let split = e.samples.first { $0.start.hasPrefix("2024-03-05T23:50") }!
        XCTAssertEqual(split.value, 60)
        XCTAssertEqual(split.onDate, 30)
        XCTAssertEqual(e.stretches.map(\.source), [Self.watch, Self.phone])
        XCTAssertEqual(e.stretches.map(\.seconds), [30 * 60, 10 * 60])
        XCTAssertEqual(e.stretches[1].spans.map { "\($0.start)–\($0.end)" }, ["2024-03-05T08:10:00+01:00–2024-03-05T08:20:00+01:00"])
        XCTAssertEqual(
            e.stretches[0].spans.map { "\($0.start)–\($0.end)" },
            [
                "2024-03-05T08:00:00+01:00–2024-03-05T08:10:00+01:00", "2024-03-05T08:20:00+01:00–2024-03-05T08:30:00+01:00",
                "2024-03-05T23:50:00+01:00–2024-03-06T00:00:00+01:00",
            ])
        // The next date has the other half of the midnight sample only: 60 × 10 / 20 = 30.
        let next = try explain(try Self.handMadeExport(), date: "2024-03-06", field: "metrics.step_count").explanation
        XCTAssertEqual(next.number, 30)
        XCTAssertEqual(next.samples.map(\.counted), [30])
    }

    /// A sleep field names the date's sessions (docs/rules.md, "Nights"), worked out by hand
    /// (+01:00, no HKTimeZone):
    ///
    ///   iPhone InBed 03-04 22:30–23:40   ends on 03-04, but the core starts 50 min later:
    ///   watch  core  03-05 00:30–06:30   one session, 22:30–06:30, ending on 03-05       6 h
    ///   watch  core  03-05 18:30–19:10   12 h later: a second session on 03-05       40 min
    ///   watch  core  03-05 23:00–03-06 06:00   3 h 50 min after 19:10: 03-06's session, not here
    ///                                                      total 6 + 40/60 = 6.6667 h
    /// The InBed frames session 1 and counts nothing (the watch's stages are the sleep).
    func testASleepFieldNamesItsSessions() throws {
        let sleep = "HKCategoryTypeIdentifierSleepAnalysis", v = "HKCategoryValueSleepAnalysis"
        let body =
            record(sleep, v + "InBed", source: Self.phone, start: "2024-03-04 22:30:00 +0100", end: "2024-03-04 23:40:00 +0100")
            + record(sleep, v + "AsleepCore", start: "2024-03-05 00:30:00 +0100", end: "2024-03-05 06:30:00 +0100")
            + record(sleep, v + "AsleepCore", start: "2024-03-05 18:30:00 +0100", end: "2024-03-05 19:10:00 +0100")
            + record(sleep, v + "AsleepCore", start: "2024-03-05 23:00:00 +0100", end: "2024-03-06 06:00:00 +0100")
        let path = try TestPaths.temporaryDirectory().appendingPathComponent("export.xml")
        try Data(export(body, exportDate: "2024-03-07 08:00:00 +0100").utf8).write(to: path)
        let e = try explain(path.path, date: "2024-03-05", field: "sleep.total_hours").explanation
        XCTAssertEqual(e.number ?? 0, 6 + 40.0 / 60, accuracy: 1e-9)
        XCTAssertEqual(e.countedTotal ?? 0, 6 + 40.0 / 60, accuracy: 1e-9)
        XCTAssertTrue(e.notes.contains("session 1 of 2: 2024-03-04T22:30:00+01:00 to 2024-03-05T06:30:00+01:00, 2 samples"), "\(e.notes)")
        XCTAssertTrue(e.notes.contains("session 2 of 2: 2024-03-05T18:30:00+01:00 to 2024-03-05T19:10:00+01:00, 1 sample"), "\(e.notes)")
        XCTAssertEqual(
            e.samples.map { "\($0.start) \($0.text ?? "") \((($0.counted ?? -1) * 60).rounded())" },
            [
                "2024-03-04T22:30:00+01:00 inBed 0.0", "2024-03-05T00:30:00+01:00 core 360.0",
                "2024-03-05T18:30:00+01:00 core 40.0",
            ])
        XCTAssertEqual(e.samples.first?.note, "frames the in-bed window; not counted")
        XCTAssertTrue(e.rule.contains("sessions ending on the date"), e.rule)
    }

    /// A sleep session that runs over more than two dates is explained whole, however the input
    /// is dated: 24 InBed samples of 2 h with 1 h gaps (each starts 1 h < 3 h after the last
    /// end), +01:00, the first 03-01 08:00-10:00, the k-th starting 3k h later, the last
    /// (k = 23, 69 h later) 03-04 05:00-07:00: one session ending 03-04 07:00, so 03-04's.
    /// InBed only (a legacy session): its InBed union, 24 × 2 h = 48 h. The first five end on
    /// 03-01 (10:00, 13:00, 16:00, 19:00, 22:00), before the dates the explanation used to keep
    /// (two before the date), so it counted 19 × 2 = 38 h, and said that was the payload's.
    func testASleepSessionOverFourDatesIsExplainedWhole() throws {
        let sleep = "HKCategoryTypeIdentifierSleepAnalysis", inBed = "HKCategoryValueSleepAnalysisInBed"
        func at(_ hours: Int) -> String {  // hours after 2024-03-01 00:00 +0100
            let day = 1 + hours / 24, hour = hours % 24
            return "2024-03-0\(day) " + (hour < 10 ? "0" : "") + "\(hour):00:00 +0100"
        }
        let body = (0..<24).map { k in record(sleep, inBed, source: Self.phone, start: at(8 + 3 * k), end: at(10 + 3 * k)) }.joined()
        XCTAssertEqual(at(8 + 3 * 23), "2024-03-04 05:00:00 +0100")
        let path = try TestPaths.temporaryDirectory().appendingPathComponent("export.xml")
        try Data(export(body, exportDate: "2024-03-05 08:00:00 +0100").utf8).write(to: path)
        // No --timezone (the read replays what it kept around the date) and --timezone (the book
        // places samples as they come): both must hold the samples of long before the date.
        for zone in [nil, "Europe/Paris"] {
            let outcome = try ExplainJob(
                ExplainRequest(inputs: [path.path], date: "2024-03-04", field: "sleep.total_hours", timeZoneName: zone)
            ).run()
            let e = outcome.explanation, label = zone ?? "no --timezone"
            XCTAssertEqual(e.number ?? 0, 48, accuracy: 1e-9, label)
            XCTAssertEqual(e.samples.count, 24, label)
            XCTAssertEqual(e.countedTotal ?? 0, 48, accuracy: 1e-9, label)
            XCTAssertEqual(e.samples.first?.start, "2024-03-01T08:00:00+01:00", label)
            XCTAssertEqual(e.samples.first?.counted ?? 0, 2, accuracy: 1e-9, label)
            XCTAssertTrue(
                e.notes.contains("session 1 of 1: 2024-03-01T08:00:00+01:00 to 2024-03-04T07:00:00+01:00, 24 samples"),
                "\(label): \(e.notes)")
            XCTAssertTrue(outcome.text.contains("counted in all: 48 hr = the payload's 48 hr"), outcome.text)
        }
        // From the store (`explain --store` replays the stored records around the date): the
        // same 48 h from all 24 samples, the value convert stored for the date.
        let dir = try TestPaths.temporaryDirectory()
        let store = dir.appendingPathComponent("h.sqlite").path
        _ = try ConvertJob(
            ConvertRequest(inputs: [path.path], outDir: dir.appendingPathComponent("out").path, storePath: store, person: "ann")
        ).run()
        let stored = try ExplainJob(
            ExplainRequest(inputs: [], date: "2024-03-04", field: "sleep.total_hours", storePath: store, person: "ann")
        ).run().explanation
        XCTAssertEqual(stored.number ?? 0, 48, accuracy: 1e-9)
        XCTAssertEqual(stored.samples.count, 24)
        XCTAssertEqual(stored.countedTotal ?? 0, 48, accuracy: 1e-9)
        XCTAssertFalse(stored.notes.contains { $0.hasPrefix("the store's day value differs") }, "\(stored.notes)")
        // No other date has data: every sample is in 03-04's session (03-01 to 03-03 hold only
        // starts of it), so explaining 03-03 is a usage error naming the one date there is.
        XCTAssertThrowsError(try explain(path.path, date: "2024-03-03", field: "sleep.total_hours")) { error in
            XCTAssertTrue("\(error)".contains("their dates run from 2024-03-04 to 2024-03-04"), "\(error)")
        }
    }

    /// Parts that do not add up to the payload's value are said to, never printed as equal: the
    /// value 48, one part of 38.
    func testPartsThatDoNotAddUpAreSaidToBeIncomplete() throws {
        let field = try ExplainedField.named("sleep.total_hours")
        var e = Explanation(date: "2024-03-04", field: field, value: .number(48), rule: "sleep")
        e.samples = [ExplainedSample(start: "a", end: "b", text: "inBed", source: Self.phone, counted: 38, used: true)]
        let text = ExplanationText.render(e)
        XCTAssertTrue(text.contains("counted in all: 38 hr, NOT the payload's 48 hr: the samples listed are incomplete"), text)
        e.samples[0].counted = 48
        XCTAssertTrue(ExplanationText.render(e).contains("counted in all: 48 hr = the payload's 48 hr"))
    }

    func testTextNamesTheRuleAndAlignsTheRows() throws {
        let text = try explain(try Self.handMadeExport(), date: "2024-03-05", field: "step_count").text
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "metrics.step_count on 2024-03-05: 380 count")
        XCTAssertTrue(lines[1].hasPrefix("rule: sum: "), lines[1])
        XCTAssertTrue(lines[1].contains("(here: \(Self.watch) > \(Self.phone))"), lines[1])
        XCTAssertTrue(text.contains("2  \(Self.phone)       10 min  03-05 08:10:00–03-05 08:20:00"), text)
        let rows = lines.filter { $0.hasPrefix("2024-03-05T") }
        XCTAssertEqual(rows.count, 5)
        // Aligned: every row's counted column ends at the same place as the header's.
        let header = lines.first { $0.hasPrefix("start ") }!
        let end = header.range(of: "counted")!.upperBound.utf16Offset(in: header)
        for r in rows { XCTAssertNotEqual(Array(r.utf16)[end - 1], UInt16(UInt8(ascii: " ")), r) }
        let phoneRow = rows.first { $0.contains(Self.phone) }!
        XCTAssertTrue(phoneRow.hasSuffix("400      400      200  50 % under \(Self.watch)"), phoneRow)
        XCTAssertTrue(text.contains("counted in all: 380 count = the payload's 380 count"), text)
    }

    func testJSONHasTheValueTheRuleAndPartsThatAddUp() throws {
        let json = try explain(try Self.handMadeExport(), date: "2024-03-05", field: "metrics.step_count").json
        let o = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        XCTAssertEqual(o["date"] as? String, "2024-03-05")
        XCTAssertEqual(o["field"] as? String, "metrics.step_count")
        XCTAssertEqual(o["value"] as? Double, 380)
        XCTAssertTrue((o["rule"] as? String)?.hasPrefix("sum: ") ?? false)
        let samples = try XCTUnwrap(o["samples"] as? [[String: Any]])
        XCTAssertEqual(samples.count, 5)
        XCTAssertEqual(samples.compactMap { $0["counted"] as? Double }.reduce(0, +), 380, accuracy: 1e-9)
        let iPhone = try XCTUnwrap(samples.first { $0["source"] as? String == Self.phone })
        XCTAssertEqual(iPhone["counted"] as? Double, 200)
        XCTAssertEqual(iPhone["value"] as? Double, 400)
        XCTAssertEqual(iPhone["start"] as? String, "2024-03-05T08:05:00+01:00")
    }

    func testUnknownFieldAndDateAreUsageErrorsThatListWhatExists() throws {
        let input = try Self.handMadeExport()
        XCTAssertThrowsError(try ExplainJob(ExplainRequest(inputs: [input], date: "2024-03-05", field: "metrics.steps"))) { error in
            let e = error as? UsageError
            XCTAssertEqual(e?.option, "--field")
            XCTAssertTrue(e?.message.hasPrefix("unknown field \"metrics.steps\"; the fields are: metrics.hrv, ") ?? false, "\(error)")
            XCTAssertTrue(e?.message.contains("metrics.step_count, ") ?? false)
            XCTAssertTrue(e?.message.hasSuffix("sleep.source, workouts") ?? false, "\(error)")
        }
        XCTAssertThrowsError(try explain(input, date: "2024-04-01", field: "metrics.step_count")) { error in
            XCTAssertEqual((error as? UsageError)?.option, "--date")
            XCTAssertTrue("\(error)".hasSuffix("their dates run from 2024-03-05 to 2024-03-06 (2 dates)"), "\(error)")
        }
        XCTAssertThrowsError(try explain(input, date: "2024-3-5", field: "metrics.step_count")) { error in
            XCTAssertEqual((error as? UsageError)?.option, "--date")
        }
    }

    /// A fixture with the iPhone's and the Watch's steps and distance overlapping (docs/fixtures.md):
    /// on every date, every summed field's counted parts add up to its value, and every field's
    /// value is the one the generator planned for the payload (expected/payloads, made without
    /// the converter). The other rules' parts (means, latest, extremes, counts, sleep unions,
    /// workouts) add up to their values too.
    func testPartsAddUpAndValuesAreThePayloadsOnEveryDateOfAFixture() throws {
        // The runner wears the watch every night and runs; the sedentary person's nights are
        // often InBed only; the shift worker sleeps by day and naps (two sessions a date); the
        // traveller's date is 30 h.
        for profile in ["runner", "sedentary", "shift-worker", "traveller"] {
            try checkEveryField(profile: profile)
        }
    }

    /// Health Auto Export's twin of a fixture, summarised by day and one datum a sample: every
    /// numeric field's parts add up to its value on every date (buckets, HAE's own nights).
    func testPartsAddUpOnHAEInputs() throws {
        for style in ["days", "samples"] {
            let fixture = try FixtureCheck.make(days: 3, haeStyle: style, name: "explain-hae-\(style)")
            let hae = fixture.appendingPathComponent("hae.json").path
            var checked = 0
            for date in ["2026-03-02", "2026-03-03", "2026-03-04"] {
                let job = try ExplainJob(ExplainRequest(inputs: [hae], date: date, field: "metrics.step_count"))
                let reading = try job.readDate()
                for field in ExplainedField.all where !field.kind.isText {
                    let e = job.explain(field, in: reading)
                    guard let n = e.number else { continue }
                    let total = try XCTUnwrap(e.countedTotal, "\(style) \(date) \(field.name)")
                    XCTAssertEqual(total, n, accuracy: 1e-9 * max(1, abs(n)), "\(style) \(date) \(field.name)")
                    checked += 1
                }
            }
            XCTAssertGreaterThan(checked, 30, style)
        }
    }

    /// `--store`: the person's records replayed around each date give every field the value
    /// the store holds for it (`day_values`, made when convert read the files), with parts
    /// that add up, for an export and its HAE twin imported together.
    func testStoreReplayGivesTheStoresDayValues() throws {
        let fixture = try FixtureCheck.make(days: 3, name: "explain-store")
        let store = fixture.appendingPathComponent("h.sqlite").path
        _ = try ConvertJob(
            ConvertRequest(
                inputs: [fixture.appendingPathComponent("export.zip").path, fixture.appendingPathComponent("hae.json").path],
                outDir: fixture.appendingPathComponent("out").path, storePath: store, person: "ann")
        ).run()
        var checked = 0
        for date in ["2026-03-02", "2026-03-03", "2026-03-04"] {
            let job = try ExplainJob(ExplainRequest(inputs: [], date: date, field: "metrics.step_count", storePath: store, person: "ann"))
            let reading = try job.readDate()
            let stored = try XCTUnwrap(reading.storeValues)
            XCTAssertGreaterThan(stored.count, 20)
            for field in ExplainedField.all {
                let e = job.explain(field, in: reading)
                let label = "\(date) \(field.name)"
                XCTAssertFalse(e.notes.contains { $0.hasPrefix("the store's day value differs") }, "\(label): \(e.notes)")
                // Equal as the payload writes them: the import's one-pass dating adds near-midnight
                // sums in another order than the replay, which moves only a double's last bits.
                if let name = field.storeName {
                    XCTAssertTrue(
                        ExplainJob.sameAsWritten(stored[name], e.value?.scalar, field),
                        "\(label): \(String(describing: stored[name])) vs \(String(describing: e.value?.scalar))")
                }
                guard let n = e.number, !field.kind.isText else { continue }
                XCTAssertEqual(try XCTUnwrap(e.countedTotal, label), n, accuracy: 1e-9 * max(1, abs(n)), label)
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 60)
        XCTAssertThrowsError(
            try ExplainJob(ExplainRequest(inputs: [], date: "2026-03-03", field: "step_count", storePath: store, person: "bob")).run()
        ) { error in
            XCTAssertTrue("\(error)".contains("\"bob\""), "\(error)")
        }
    }

    private func checkEveryField(profile: String) throws {
        let fixture = try FixtureCheck.make(days: 4, profile: profile, name: "explain-\(profile)")
        let zip = fixture.appendingPathComponent("export.zip").path
        let expected = fixture.appendingPathComponent("expected/payloads")
        let dates = try FileManager.default.contentsOfDirectory(atPath: expected.path).filter { $0.hasSuffix(".json") }.sorted()
        XCTAssertEqual(dates.count, 4)
        var overlapsSeen = 0, sumsChecked = 0, othersChecked = 0
        for name in dates {
            let date = String(name.dropLast(5))
            let payload = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(contentsOf: expected.appendingPathComponent(name))) as? [String: Any])
            let job = try ExplainJob(ExplainRequest(inputs: [zip], date: date, field: "metrics.step_count"))
            let reading = try job.readDate()
            for field in ExplainedField.all {
                let e = job.explain(field, in: reading)
                let path = field.payloadPath!
                var want: Any? = payload
                for key in path.split(separator: ".") { want = (want as? [String: Any])?[String(key)] }
                let label = "\(profile) \(date) \(path)"
                switch e.value {
                case nil:
                    XCTAssertNil(want, label)
                case .number(let n):
                    let w = try XCTUnwrap(want as? Double, label)
                    XCTAssertEqual(JSONValue.round(n, decimals: field.numberDecimals), w, accuracy: 1e-9, label)
                case .text(let t):
                    XCTAssertEqual(t, want as? String, label)
                case .workouts(let list):
                    XCTAssertEqual(list.count, (want as? [Any])?.count, label)
                }
                guard let n = e.number, !field.kind.isText else { continue }
                let total = try XCTUnwrap(e.countedTotal, "\(label): no counted parts")
                XCTAssertEqual(total, n, accuracy: 1e-9 * max(1, abs(n)), label)
                if field.kind == .sum {
                    sumsChecked += 1
                    if e.samples.contains(where: { ($0.counted ?? 0) < ($0.onDate ?? 0) - 1e-9 }) { overlapsSeen += 1 }
                } else {
                    othersChecked += 1
                }
            }
        }
        // Steps overlap on every date (the iPhone's bouts start before the watch's).
        XCTAssertGreaterThanOrEqual(overlapsSeen, dates.count, profile)
        XCTAssertGreaterThan(sumsChecked, 4 * dates.count)
        XCTAssertGreaterThan(othersChecked, 10 * dates.count)
    }
}
