import Foundation
import XCTest

@testable import ExportParser

/// What keeps `compare` from being fooled (issue 38): `--monitor` judging the dates up to
/// `--until` (or today), so an app that stopped syncing fails; the export beside its own
/// converted payloads recognised as the same data after rounding; two people's data named as such.
/// The fixture is `CompareFixtures`: 2024-03-01 … 03-07 in Australia/Sydney (+11:00), every field
/// on every native date.
final class CompareTrustTests: XCTestCase {
    typealias F = CompareFixtures

    private func monitor(_ native: [String], hae: [String] = [], until: String?, out: String) throws -> CompareOutcome {
        try CompareJob(
            CompareRequest(native: native, hae: hae, timeZoneName: "Australia/Sydney", outDir: out, monitor: 3, until: until)
        ).run()
    }

    /// The native payloads of the fixture, converted once into `dir/native/payloads`.
    private func nativePayloads(_ dir: URL) throws -> (payloads: String, hae: String) {
        let (native, hae) = try F.write(into: dir)
        let out = dir.appendingPathComponent("native").path
        _ = try ConvertJob(ConvertRequest(inputs: [native], outDir: out, timeZoneName: "Australia/Sydney")).run()
        return (out + "/payloads", hae)
    }

    /// The app stops after 03-04 (its payloads of 03-05 … 03-07 never come) while HAE runs on to
    /// 03-07. Judged up to its own last date, as before, this passed. Up to --until 2024-03-07 the
    /// monitored dates are 03-05 … 03-07 (07 − 3 + 1 = 05), the last native date is 03-04 and
    /// 03-07 − 03-04 = 3 > 1: one gap naming the three dates, exit 1. No HAE side is needed.
    func testAnAppThatStoppedFailsUpToUntil() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let (payloads, hae) = try nativePayloads(dir)
        for d in ["2024-03-05", "2024-03-06", "2024-03-07"] { try FileManager.default.removeItem(atPath: payloads + "/\(d).json") }
        let out = dir.appendingPathComponent("c").path
        for haeSide in [[hae], []] {
            let outcome = try monitor([payloads], hae: haeSide, until: "2024-03-07", out: out)
            XCTAssertEqual(outcome.exitStatus, 1, outcome.terminalText(color: false))
            XCTAssertEqual(outcome.report.gaps.map(\.sentence), ["no native data since 2024-03-04 (2024-03-05 … 2024-03-07 missing)"])
            XCTAssertEqual(outcome.report.gaps.map(\.kind), [.stopped])
            XCTAssertTrue(outcome.terminalText(color: false).contains("no native data since 2024-03-04"))
        }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/compare.json"))) as? [String: Any]
        XCTAssertEqual((json?["gaps"] as? [[String: Any]])?.first?["kind"] as? String, "stopped")

        // Up to 03-05 instead: 03-05 − 03-04 = 1, the last date alone is not judged (the app may
        // not have sent it yet); monitored 03-03 … 03-05, every field seen on 03-03 and 03-04.
        // The reference is 02-25 … 03-02, of which the side has 03-01 and 03-02 only: each field
        // seen on 2 reference dates, fewer than 3, so none is judged. Passes.
        let early = try monitor([payloads], until: "2024-03-05", out: out)
        XCTAssertEqual(early.exitStatus, 0, early.terminalText(color: false))
        // Up to 03-06: 03-06 − 03-04 = 2 > 1, a stop of two dates.
        let two = try monitor([payloads], until: "2024-03-06", out: out)
        XCTAssertEqual(two.report.gaps.map(\.sentence), ["no native data since 2024-03-04 (2024-03-05 … 2024-03-06 missing)"])
    }

    /// Without --until the last date judged is today in the person's zone (here --timezone
    /// Australia/Sydney). The fixture's data end on 2024-03-07, years before any today this test
    /// runs on: the side stopped, whatever today is, and the gap runs from 03-08 to today.
    func testWithoutUntilTodayIsJudged() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let (payloads, hae) = try nativePayloads(dir)
        let outcome = try monitor([payloads], hae: [hae], until: nil, out: dir.appendingPathComponent("c").path)
        XCTAssertEqual(outcome.exitStatus, 1)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Australia/Sydney")!
        let c = calendar.dateComponents([.year, .month, .day], from: Date())
        let today = String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
        XCTAssertEqual(outcome.report.gaps.map(\.sentence), ["no native data since 2024-03-07 (2024-03-08 … \(today) missing)"])
        XCTAssertTrue(
            outcome.terminalText(color: false).contains("(up to today in Australia/Sydney)"), outcome.terminalText(color: false))
    }

    /// Today in a zone, from a fixed instant: 2026-03-22 13:30 UTC is 2026-03-23 00:30 in Sydney
    /// (+11:00 in March, daylight time) and at +05:30 19:00 UTC is 00:30 the next day; in UTC it
    /// is still 03-22. A payload's stated zone is used when --timezone is not given.
    func testTodayIsTheDateInThePersonsZone() throws {
        let instant = Date(timeIntervalSince1970: 1_774_186_200)  // 2026-03-22T13:30:00Z
        let sydney = MonitorEnd.today(in: TimeZone(identifier: "Australia/Sydney")!, now: instant)
        XCTAssertEqual(CivilDate.isoDate(sydney), "2026-03-23")
        XCTAssertEqual(CivilDate.isoDate(MonitorEnd.today(in: TimeZone(identifier: "UTC")!, now: instant)), "2026-03-22")
        let evening = Date(timeIntervalSince1970: 1_774_206_000)  // 2026-03-22T19:00:00Z
        var day = ComparableDay(date: "2026-03-20")
        day.timezone = "+05:30"
        let end = MonitorEnd.resolve(until: nil, timeZone: nil, native: ["2026-03-20": day], now: evening)
        XCTAssertEqual(CivilDate.isoDate(end.day), "2026-03-23")  // 19:00 + 5:30 = 00:30 next day
        XCTAssertEqual(end.reason, "today in +05:30")
        XCTAssertEqual(MonitorEnd.resolve(until: 42, timeZone: nil, native: [:]).day, 42)
    }

    /// `--until` goes with `--monitor` only, and is a date.
    func testUntilIsCheckedAsAnOption() {
        XCTAssertThrowsError(try CompareRequest(native: ["a.zip"], hae: ["b.json"], until: "2024-03-07").validate()) { e in
            XCTAssertEqual((e as? UsageError)?.option, "--until")
        }
        XCTAssertThrowsError(try CompareRequest(native: ["a.zip"], hae: [], monitor: 3, until: "2024-02-30").validate()) { e in
            XCTAssertEqual((e as? UsageError)?.option, "--until")
        }
        XCTAssertNoThrow(try CompareRequest(native: ["a.zip"], hae: [], monitor: 3, until: "2024-02-29").validate())
    }

    /// The checked-in sample beside its own converted payloads: the same data, one side rounded
    /// (sleep hours to 2 decimals, distances to 2 …). Before, the unrounded side differed below
    /// the last decimal and the pair passed as "native matches HAE"; now it is refused (exit 2).
    func testTheExportBesideItsOwnPayloadsIsRefused() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let sample = TestPaths.repoRoot.appendingPathComponent("samples/export.zip").path
        let out = dir.appendingPathComponent("out").path
        _ = try ConvertJob(ConvertRequest(inputs: [sample], outDir: out)).run()
        XCTAssertThrowsError(
            try CompareJob(CompareRequest(native: [sample], hae: [out + "/payloads"], outDir: dir.appendingPathComponent("c").path)).run()
        ) { e in
            XCTAssertTrue("\(e)".contains("identical values on every compared field of all 3 dates"), "\(e)")
        }
    }

    /// Same on the wire: |a − b| ≤ half a unit of the last decimal. 7.123456 h against 7.12
    /// (2 decimals): 0.003456 ≤ 0.005, the same; 7.126 against 7.12: 0.006 > 0.005, not.
    func testSameOnTheWireIsHalfAUnitOfTheLastDecimal() {
        XCTAssertTrue(CompareInputCheck.sameOnTheWire(.number(7.123456), .number(7.12), decimals: 2))
        XCTAssertFalse(CompareInputCheck.sameOnTheWire(.number(7.126), .number(7.12), decimals: 2))
        // 2.345 is 2.34499999… in binary: the encoder writes 2.35 or 2.34, both are the same data.
        XCTAssertTrue(CompareInputCheck.sameOnTheWire(.number(2.345), .number(2.35), decimals: 2))
        XCTAssertTrue(CompareInputCheck.sameOnTheWire(.number(10_000.4), .number(10_000), decimals: 0))
        XCTAssertFalse(CompareInputCheck.sameOnTheWire(.number(10_000.6), .number(10_000), decimals: 0))
        XCTAssertFalse(CompareInputCheck.sameOnTheWire(.text("a"), .text("b"), decimals: 0))
    }

    /// Anna's export beside an HAE file whose every source is Bob's: one warning line above the
    /// verdict, in the terminal, compare.json and compare.html; the fixture's own pair (both
    /// "Anna’s Apple Watch") has none, nor does the same pair when HAE writes the name with a
    /// straight apostrophe.
    func testTwoSidesWithNoSourceInCommonAreNamed() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let (native, hae) = try F.write(into: dir)
        let text = try String(contentsOfFile: hae, encoding: .utf8)
        let bob = dir.appendingPathComponent("bob.json").path
        try Data(text.replacingOccurrences(of: F.watch, with: "Bob’s Apple Watch").utf8).write(to: URL(fileURLWithPath: bob))
        let straight = dir.appendingPathComponent("straight.json").path
        try Data(text.replacingOccurrences(of: F.watch, with: "Anna's Apple Watch").utf8).write(to: URL(fileURLWithPath: straight))
        let out = dir.appendingPathComponent("c").path
        func run(_ haeFile: String) throws -> CompareOutcome {
            try CompareJob(CompareRequest(native: [native], hae: [haeFile], timeZoneName: "Australia/Sydney", outDir: out)).run()
        }
        let warning =
            "the two sides share no source or device (native: Anna’s Apple Watch; HAE: Bob’s Apple Watch): are they the same person's data?"
        let two = try run(bob)
        XCTAssertEqual(two.report.warnings, [warning])
        let terminal = two.terminalText(color: false)
        XCTAssertTrue(terminal.contains("Warning: " + warning + "\nFAILED"), terminal)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/compare.json"))) as? [String: Any]
        XCTAssertEqual(json?["warnings"] as? [String], [warning])
        let html = try String(contentsOfFile: out + "/compare.html", encoding: .utf8)
        XCTAssertTrue(html.contains("share no source or device"))
        XCTAssertEqual(try run(hae).report.warnings, [])
        XCTAssertEqual(try run(straight).report.warnings, [])
    }
}

extension CompareTrustTests {
    /// A window chosen from the data reaches back --days dates from the last date both sides
    /// cover; a person who has fewer has not given the check its dates. The twins hold 3 dates
    /// (03-02 … 03-04 in Sydney), all agreeing: asked for 7, "not enough data: 3 of the 7 dates
    /// have data", exit 1; asked for 3, they pass. With --from the dates are the person's choice
    /// and are judged as they are (a window of 7 from 03-01 with data on 3 passes).
    func testFewerDatesThanAskedIsNotEnoughData() throws {
        let twins = TestPaths.fixtures.appendingPathComponent("twins")
        let dir = try StoreTestSupport.temporaryDirectory()
        func run(days: Int, from: String? = nil) throws -> CompareOutcome {
            try CompareJob(
                CompareRequest(
                    native: [twins.appendingPathComponent("same-days.xml").path],
                    hae: [twins.appendingPathComponent("same-days.hae.json").path],
                    days: days, from: from, timeZoneName: "Australia/Sydney", outDir: dir.appendingPathComponent("c").path)
            ).run()
        }
        let seven = try run(days: 7)
        XCTAssertEqual(seven.exitStatus, 1)
        XCTAssertTrue(
            seven.terminalText(color: false).contains(
                "FAILED: not enough data: 3 of the 7 dates have data (compare again once there are 7, or give --days 3)"),
            seven.terminalText(color: false))
        XCTAssertEqual(try run(days: 3).exitStatus, 0)
        XCTAssertEqual(try run(days: 7, from: "2024-03-01").exitStatus, 0)
    }
}
