import Foundation
import XCTest

@testable import ExportParser
@testable import HealthFixtures

/// `fixtures --scale MB`: one large file for benchmarks. It must be the very file a fixture of
/// the same dates writes (so what the plan says of those dates holds for it), come within a few
/// percent of the size asked for, be the same bytes for the same arguments, leave nothing else
/// in the folder, and refuse options that cannot go with it.
final class FixturesScaleTests: XCTestCase {
    private func scale(
        _ megabytes: Int, file: String? = nil, profile: String = "runner", units: String = "metric",
        zone: String = FixtureRequest.defaultTimeZone, name: String = #function
    ) throws -> (dir: URL, outcome: FixtureOutcome) {
        let dir = try TestPaths.temporaryDirectory(name)
        let request = FixtureRequest(
            days: nil, timeZoneName: zone, profile: profile, units: units, outDir: dir.path, scaleMegabytes: megabytes,
            scaleFile: file)
        return (dir, try FixtureJob(request).run())
    }

    private func names(_ dir: URL) throws -> Set<String> { Set(try FileManager.default.contentsOfDirectory(atPath: dir.path)) }

    /// The export of `--scale 10` is byte for byte the export.xml of a fixture of as many dates,
    /// its zip converts to that fixture's expected payloads, and nothing else is written. A
    /// traveller in Sydney too: the flight on the middle date and the change of daylight saving
    /// are where a fixture of the same dates has them.
    func testTheScaledExportIsTheFixtureOfItsDates() throws {
        for (profile, units, zone) in [("runner", "metric", "Europe/Amsterdam"), ("traveller", "imperial", "Australia/Sydney")] {
            let label = "\(profile) \(units) \(zone)"
            let (dir, outcome) = try scale(10, profile: profile, units: units, zone: zone, name: profile)
            XCTAssertEqual(try names(dir), ["export.xml", "export.zip"], label)
            let fixture = try FixtureCheck.make(days: outcome.days, zone: zone, profile: profile, units: units, name: profile + "-days")
            let xml = try Data(contentsOf: dir.appendingPathComponent("export.xml"))
            XCTAssertTrue(xml == (try Data(contentsOf: fixture.appendingPathComponent("export.xml"))), label)
            XCTAssertEqual(outcome.exportBytes, xml.count)
            // Within a date's size (about 0.6 MB) of the 10 MB asked for.
            XCTAssertEqual(Double(xml.count), 10e6, accuracy: 10e6 * 0.1, label)
            for name in ["export.xml", "export.zip"] {
                let mode =
                    try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)[.posixPermissions] as? Int
                XCTAssertEqual(mode, 0o600, name)
            }
            let out = dir.appendingPathComponent("converted")
            _ = try ConvertJob(ConvertRequest(inputs: [dir.appendingPathComponent("export.zip").path], outDir: out.path)).run()
            XCTAssertEqual(
                try FixtureCheck.files(out.appendingPathComponent("payloads")),
                try FixtureCheck.files(fixture.appendingPathComponent("expected/payloads")), label)
            XCTAssertTrue(
                FileManager.default.contents(atPath: out.appendingPathComponent("daily.csv").path)
                    == FileManager.default.contents(atPath: fixture.appendingPathComponent("expected/daily.csv").path), label)
        }
    }

    /// `--scale-file hae` writes hae.json alone: the samples-style hae.json of a fixture of as
    /// many dates. `--scale-file xml` writes export.xml alone.
    func testTheScaledHAEFileIsTheSamplesOfItsDates() throws {
        let (dir, outcome) = try scale(4, file: "hae", units: "imperial")
        XCTAssertEqual(try names(dir), ["hae.json"])
        let fixture = try FixtureCheck.make(days: outcome.days, units: "imperial", haeStyle: "samples", name: "hae-days")
        let hae = try Data(contentsOf: dir.appendingPathComponent("hae.json"))
        XCTAssertTrue(hae == (try Data(contentsOf: fixture.appendingPathComponent("hae.json"))))
        XCTAssertEqual(Double(hae.count), 4e6, accuracy: 4e6 * 0.1)
        XCTAssertTrue(outcome.summary.hasPrefix("Wrote hae.json (") && outcome.summary.hasSuffix(" datums"), outcome.summary)
        let xmlOnly = try scale(2, file: "xml", name: "xml")
        XCTAssertEqual(try names(xmlOnly.dir), ["export.xml"])
    }

    func testTheSameArgumentsGiveTheSameBytes() throws {
        let a = try scale(2, profile: "shift-worker", name: "first").dir, b = try scale(2, profile: "shift-worker", name: "second").dir
        XCTAssertEqual(
            try FixtureCheck.files(a).mapValues { FileDigest.sha256(bytes: $0) },
            try FixtureCheck.files(b).mapValues { FileDigest.sha256(bytes: $0) })
    }

    func testOptionsThatCannotGoWithScaleAreRefusedWithASentence() {
        func refused(_ r: FixtureRequest, _ needle: String) {
            XCTAssertThrowsError(try r.validate()) { XCTAssertTrue("\($0)".contains(needle), "\($0)") }
            XCTAssertThrowsError(try FixtureJob(r))
        }
        refused(FixtureRequest(days: 3, scaleMegabytes: 10), "give --days or --scale, not both")
        refused(FixtureRequest(days: nil), "give --days N (or --scale MB")
        refused(FixtureRequest(days: nil, scaleMegabytes: 0), "from 1 to 10000")
        refused(FixtureRequest(days: nil, scaleMegabytes: -5), "from 1 to 10000")
        refused(FixtureRequest(days: nil, scaleMegabytes: 10_001, scaleFile: "xml"), "from 1 to 10000")
        // export.zip (the default file) stops at 4,000 MB; export.xml alone goes on to 10,000.
        refused(FixtureRequest(days: nil, scaleMegabytes: 4_001), "too large for export.zip")
        refused(FixtureRequest(days: nil, scaleMegabytes: 4_001, scaleFile: "export"), "too large for export.zip")
        XCTAssertNoThrow(try FixtureRequest(days: nil, scaleMegabytes: 4_001, scaleFile: "xml").validate())
        XCTAssertNoThrow(try FixtureRequest(days: nil, scaleMegabytes: 10_000, scaleFile: "hae").validate())
        refused(FixtureRequest(days: 3, scaleFile: "hae"), "give --scale MB with it")
        refused(FixtureRequest(days: nil, scaleMegabytes: 10, scaleFile: "csv"), "export (export.xml and export.zip)")
        refused(FixtureRequest(days: nil, haeStyle: "days", scaleMegabytes: 10, scaleFile: "hae"), "writes the samples style")
        refused(FixtureRequest(days: nil, haeStyle: "samples", scaleMegabytes: 10), "only with --scale-file hae")
        XCTAssertNoThrow(try FixtureRequest(days: nil, haeStyle: "samples", scaleMegabytes: 10, scaleFile: "hae").validate())
    }

}
