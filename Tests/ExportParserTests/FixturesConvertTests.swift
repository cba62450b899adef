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

    /// A shift worker sleeps from the morning across noon: each sleep is split between two nights
    /// at noon, so a night's in-bed window ends at 12:00 and starts the morning before.
    func testAShiftWorkersSleepIsSplitAtNoon() throws {
        let dir = try FixtureCheck.make(days: 4, seed: 4, profile: "shift-worker")
        let payload = try String(contentsOf: dir.appendingPathComponent("expected/payloads/2026-03-03.json"), encoding: .utf8)
        XCTAssertTrue(payload.contains("\"in_bed_start\": \"2026-03-02T07:"), payload)
        XCTAssertTrue(payload.contains("\"in_bed_end\": \"2026-03-03T12:00:00+01:00\""), payload)
        try FixtureCheck.assertConvertReproducesExpected(dir, "shift-worker")
    }

    /// A traveller flies west on the middle date: the dates before it are in the home zone, the
    /// travel date keeps it (its first `HKTimeZone` is from the morning), the dates after are in
    /// the new zone, and the samples carry both offsets.
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
        XCTAssertTrue(xml.contains(" +0100\"") && xml.contains(" -0400\""))
        try FixtureCheck.assertConvertReproducesExpected(dir, "traveller")
    }

    /// Europe/Amsterdam springs forward on 2026-03-29 (a 23-hour date), Australia/Sydney falls
    /// back on 2026-04-05 (25 hours): samples carry both offsets, and every date still matches.
    func testDaylightSavingChangesInsideTheRange() throws {
        for (zone, from, standard, summer) in [
            ("Europe/Amsterdam", "2026-03-25", "+0100", "+0200"),
            ("Australia/Sydney", "2026-04-01", "+1100", "+1000"),
        ] {
            let dir = try FixtureCheck.make(days: 8, start: from, seed: 5, zone: zone)
            let xml = try String(contentsOf: dir.appendingPathComponent("export.xml"), encoding: .utf8)
            XCTAssertTrue(xml.contains(standard) && xml.contains(summer), "\(zone): both offsets in the export")
            try FixtureCheck.assertConvertReproducesExpected(dir, zone)
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
