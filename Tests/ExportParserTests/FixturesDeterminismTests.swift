import Foundation
import XCTest

@testable import ExportParser
@testable import HealthFixtures

/// The fixture is a function of its arguments: the same arguments give the same bytes (whatever
/// the output folder), another seed gives other data, files are 0600, bad arguments are refused
/// with a sentence, and every expected payload is valid against the schema.
final class FixturesDeterminismTests: XCTestCase {
    private func digests(_ dir: URL) throws -> [String: String] {
        try FixtureCheck.files(dir).mapValues { FileDigest.sha256(bytes: $0) }
    }

    func testTheSameArgumentsGiveTheSameBytes() throws {
        for profile in ["runner", "sedentary"] {
            let a = try FixtureCheck.make(days: 7, seed: 42, profile: profile, units: "imperial", name: "first")
            let b = try FixtureCheck.make(days: 7, seed: 42, profile: profile, units: "imperial", name: "second")
            let da = try digests(a), db = try digests(b)
            let names = ["README.md", "plan.json", "export.xml", "export.zip", "hae.json", "expected/payloads.json", "expected/daily.csv"]
            XCTAssertEqual(Set(da.keys), Set(names + (2...8).map { "expected/payloads/2026-03-0\($0).json" }), profile)
            XCTAssertEqual(da, db, profile)
        }
    }

    func testDifferentSeedsGiveDifferentData() throws {
        let a = try FixtureCheck.files(FixtureCheck.make(days: 5, seed: 1, name: "one"))
        let b = try FixtureCheck.files(FixtureCheck.make(days: 5, seed: 2, name: "two"))
        for name in ["export.xml", "export.zip", "hae.json", "expected/payloads.json", "expected/daily.csv", "plan.json"] {
            XCTAssertNotEqual(a[name], b[name], name)
        }
    }

    func testFilesAreWrittenOwnerOnly() throws {
        let dir = try FixtureCheck.make(days: 2)
        for name in try FixtureCheck.files(dir).keys {
            let mode = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)[.posixPermissions] as? Int
            XCTAssertEqual(mode, 0o600, name)
        }
    }

    func testBadArgumentsAreRefusedWithASentence() {
        func refused(_ r: FixtureRequest, _ needle: String) {
            XCTAssertThrowsError(try FixtureJob(r)) { XCTAssertTrue("\($0)".contains(needle), "\($0)") }
        }
        refused(FixtureRequest(days: 0), "--days")
        refused(FixtureRequest(days: 3, start: "2026-02-30"), "not a date")
        refused(FixtureRequest(days: 3, timeZoneName: "Mars/Olympus"), "IANA")
        refused(FixtureRequest(days: 3, profile: "astronaut"), "runner, sedentary")
        refused(FixtureRequest(days: 3, units: "furlongs"), "metric, imperial")
        refused(FixtureRequest(days: 3, haeStyle: "hourly"), "days, samples")
    }

    func testEveryExpectedPayloadIsValidAgainstTheSchema() throws {
        var paths: [String] = []
        for profile in ["runner", "sedentary"] {
            let dir = try FixtureCheck.make(days: 7, seed: 3, profile: profile, name: profile)
            let payloads = dir.appendingPathComponent("expected/payloads")
            paths += try FileManager.default.contentsOfDirectory(atPath: payloads.path).map { payloads.appendingPathComponent($0).path }
        }
        let schema = TestPaths.repoRoot.appendingPathComponent("docs/payload.schema.json").path
        let status = try SchemaValidator.validate(paths, schema: schema)
        if status == 3 { throw XCTSkip("python3's jsonschema is not installed (.ci/run installs it)") }
        XCTAssertEqual(status, 0)
    }
}
