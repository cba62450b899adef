import XCTest

@testable import ExportParser

/// The generated fixtures against the converter: `convert` of the export must write exactly
/// the payloads and CSV the generator wrote from its plan, and `compare` of the export against
/// the HAE twin must pass, for every profile, both unit systems and three seeds, and across
/// daylight-saving changes.
final class FixturesConvertTests: XCTestCase {
    let start = "2026-03-02"
    let days = 5

    private func check(profile: String) throws {
        for units in ["metric", "imperial"] {
            for seed: UInt64 in [1, 2, 3] {
                let label = "\(profile) \(units) seed \(seed)"
                let dir = try FixtureCheck.make(days: days, start: start, seed: seed, profile: profile, units: units)
                try FixtureCheck.assertConvertReproducesExpected(dir, label)
                try FixtureCheck.assertCompareAgrees(dir, days: days, start: start, label)
                if seed == 1 { try FixtureCheck.assertConvertReproducesExpected(dir, input: "export.xml", label + " (export.xml)") }
            }
        }
    }

    func testRunnerFixturesConvertToTheirPlan() throws { try check(profile: "runner") }

    func testSedentaryFixturesConvertToTheirPlan() throws { try check(profile: "sedentary") }

    func testShiftWorkerFixturesConvertToTheirPlan() throws { try check(profile: "shift-worker") }

    func testTravellerFixturesConvertToTheirPlan() throws { try check(profile: "traveller") }

    /// A shift worker sleeps by day, from about 07:30 to 15:00, and on some dates naps in the
    /// evening: each sleep is a session dated by its end, the day it was slept, and a nap three
    /// hours or more later is a second session on the same date (docs/rules.md, "Nights"). So
    /// every date's in-bed window starts that morning and ends that afternoon, or at the nap's
    /// end (19:25–20:15) on a date with a nap.
    func testAShiftWorkersDaySleepAndNapAreTheirOwnDate() throws {
        let dir = try FixtureCheck.make(days: 4, start: "2026-03-02", seed: 4, profile: "shift-worker")
        var naps = 0, plain = 0
        for date in ["2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"] {
            let data = try Data(contentsOf: dir.appendingPathComponent("expected/payloads/\(date).json"))
            let payload = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let sleep = try XCTUnwrap(payload["sleep"] as? [String: Any], date)
            let start = try XCTUnwrap(sleep["in_bed_start"] as? String), end = try XCTUnwrap(sleep["in_bed_end"] as? String)
            XCTAssertTrue(start.hasPrefix(date + "T07:"), "\(date): \(start)")
            XCTAssertTrue(end.hasPrefix(date + "T"), "\(date): \(end)")
            let hour = Int(end.dropFirst(11).prefix(2)) ?? 0
            if hour >= 19 { naps += 1 } else { plain += 1 }
            XCTAssertTrue((13...15).contains(hour) || (19...20).contains(hour), "\(date): \(end)")
        }
        XCTAssertGreaterThan(naps, 0, "seed 4 plans a nap on some date")
        XCTAssertGreaterThan(plain, 0, "and none on another")
        try FixtureCheck.assertConvertReproducesExpected(dir, "shift-worker")
    }

    /// A traveller flies west on the middle date: the dates before it are in the home zone, the
    /// travel date keeps it (the zone at its start), the dates after are in the new zone. The
    /// export writes every timestamp in the export moment's offset (New York's, -0400); the
    /// `HKTimeZone` entries give the home zone, six hours from it, so convert reads the file a
    /// second time with the timeline. Written with each sample's own offset, the same days.
    func testATravellersDatesFollowTheNewZone() throws {
        let dir = try FixtureCheck.make(days: 6, start: "2026-03-10", seed: 6, profile: "traveller")
        let zones = try (10...15).map { day -> String in
            let text = try String(contentsOf: dir.appendingPathComponent("expected/payloads/2026-03-\(day).json"), encoding: .utf8)
            return String(text.split(separator: "\n")[2])
        }
        XCTAssertEqual(
            zones,
            Array(repeating: "  \"timezone\": \"Europe/Amsterdam\",", count: 4)
                + Array(repeating: "  \"timezone\": \"America/New_York\",", count: 2))
        let xml = try String(contentsOf: dir.appendingPathComponent("export.xml"), encoding: .utf8)
        XCTAssertTrue(!xml.contains(" +0100\"") && xml.contains(" -0400\""), "one offset, the export moment's")
        XCTAssertTrue(xml.contains("\"Europe/Amsterdam\"") && xml.contains("\"America/New_York\""))
        try FixtureCheck.assertConvertReproducesExpected(dir, "traveller")
        let outcome = try ConvertJob(
            ConvertRequest(inputs: [dir.appendingPathComponent("export.zip").path], outDir: dir.appendingPathComponent("again").path)
        ).run()
        XCTAssertEqual(outcome.inputs.map(\.readAgain), [true])
        XCTAssertTrue(outcome.summaryLines().contains { $0.contains("read a second time") })

        let own = try FixtureCheck.make(
            days: 6, start: "2026-03-10", seed: 6, profile: "traveller", exportOffsets: "sample", name: "own-offsets-traveller")
        let ownXML = try String(contentsOf: own.appendingPathComponent("export.xml"), encoding: .utf8)
        XCTAssertTrue(ownXML.contains(" +0100\"") && ownXML.contains(" -0400\""), "each sample's own offset")
        XCTAssertEqual(
            try FixtureCheck.files(own.appendingPathComponent("expected")), try FixtureCheck.files(dir.appendingPathComponent("expected")))
        try FixtureCheck.assertConvertReproducesExpected(own, "traveller, own offsets")
    }

    /// Europe/Amsterdam springs forward on 2026-03-29 (a 23-hour date), Australia/Sydney falls
    /// back on 2026-04-05 (25 hours). As the Health app writes them, every timestamp is in the
    /// export moment's offset (after the change: Amsterdam's +0200, Sydney's +1000), so the
    /// dates before the change are read an hour off unless the `HKTimeZone` timeline dates
    /// them: without --timezone every date still matches. Written with each sample's own offset
    /// (both offsets in the file), the same expected files and the same days.
    func testDaylightSavingChangesInsideTheRange() throws {
        for (zone, from, before, after) in [
            ("Europe/Amsterdam", "2026-03-25", "+0100", "+0200"),
            ("Australia/Sydney", "2026-04-01", "+1100", "+1000"),
        ] {
            let dir = try FixtureCheck.make(days: 8, start: from, seed: 5, zone: zone)
            let xml = try String(contentsOf: dir.appendingPathComponent("export.xml"), encoding: .utf8)
            XCTAssertTrue(!xml.contains(" \(before)\"") && xml.contains(" \(after)\""), "\(zone): the export moment's offset only")
            try FixtureCheck.assertConvertReproducesExpected(dir, zone)
            let own = try FixtureCheck.make(days: 8, start: from, seed: 5, zone: zone, exportOffsets: "sample", name: "own-offsets-\(from)")
            let ownXML = try String(contentsOf: own.appendingPathComponent("export.xml"), encoding: .utf8)
            XCTAssertTrue(ownXML.contains(" \(before)\"") && ownXML.contains(" \(after)\""), "\(zone): both offsets")
            XCTAssertEqual(
                try FixtureCheck.files(own.appendingPathComponent("expected")),
                try FixtureCheck.files(dir.appendingPathComponent("expected")))
            try FixtureCheck.assertConvertReproducesExpected(own, zone + ", own offsets")
            try FixtureCheck.assertCompareAgrees(dir, days: 8, start: from, zone)
            let payload = try String(contentsOf: dir.appendingPathComponent("expected/payloads/\(from).json"), encoding: .utf8)
            XCTAssertTrue(payload.contains("\"timezone\": \"\(zone)\""), zone)
        }
    }

    /// The iOS 16 broken DTD and the Chinese file names change nothing in the payloads: the
    /// expected files are the plain fixture's, and convert reproduces them from each variant.
    func testVariantsConvertToTheSamePayloadsAsThePlainFixture() throws {
        let plain = try FixtureCheck.files(FixtureCheck.make(days: 4, seed: 9, name: "plain").appendingPathComponent("expected"))
        for (variant, locale, file) in [("ios16-dtd", nil, "export.zip"), (nil, "zh_CN", "导出.zip"), ("ios16-dtd", "zh_CN", "导出.xml")] {
            let label = "\(variant ?? "-") \(locale ?? "-")"
            let dir = try FixtureCheck.make(days: 4, seed: 9, variant: variant, locale: locale, name: "variant")
            XCTAssertEqual(try FixtureCheck.files(dir.appendingPathComponent("expected")), plain, label)
            try FixtureCheck.assertConvertReproducesExpected(dir, input: file, label)
            if variant != nil {
                let xml = try String(
                    contentsOf: dir.appendingPathComponent(file.replacingOccurrences(of: ".zip", with: ".xml")), encoding: .utf8)
                XCTAssertTrue(xml.contains("Export Version: 12") && xml.contains("  brand CDATA #IMPLIED\n<!ELEMENT RightEye"), label)
            }
        }
    }
}
