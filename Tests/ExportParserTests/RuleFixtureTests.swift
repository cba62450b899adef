import Foundation
import XCTest

@testable import ExportParser

/// Runs every hand-written rule fixture in Fixtures/rules: `NN-what.xml` is a small export whose
/// XML comments write down the arithmetic, `NN-what.expected.json` the numbers worked out by hand:
///
///     { "options": { "timezone": null, "source_priority": null },
///       "skips": { "unknown unit": 1 },
///       "days": { "2024-03-02": { "metrics": {…}, "sleep": {…} | null, "workouts": […], "running_mechanics": {…} | null } },
///       "absent_days": ["2024-03-03"] }
///
/// A listed day must exist; its `metrics` must hold exactly the listed keys and values; `sleep`,
/// `workouts` and `running_mechanics` are compared when listed (`null`: must be absent).
final class RuleFixtureTests: XCTestCase {
    static let directory = TestPaths.fixtures.appendingPathComponent("rules")

    static func fixtures() -> [URL] {
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        return files.filter { $0.pathExtension == "xml" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    func testEveryRuleFixture() throws {
        let all = Self.fixtures()
        XCTAssertGreaterThanOrEqual(all.count, 15, "the rule fixtures are missing")
        for xml in all {
            let expectedURL = xml.deletingPathExtension().appendingPathExtension("expected.json")
            let expected = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(contentsOf: expectedURL)) as? [String: Any], expectedURL.path)
            try check(xml, expected)
        }
    }

    private func check(_ xmlURL: URL, _ expected: [String: Any]) throws {
        let name = xmlURL.lastPathComponent
        let options = expected["options"] as? [String: Any] ?? [:]
        let tz = options["timezone"] as? String
        let priority =
            (options["source_priority"] as? String).map { $0.split(separator: ",").map(String.init) }
            ?? (options["source_priority"] as? [String])
        let c = try Converted(xml: try String(contentsOf: xmlURL, encoding: .utf8), timezone: tz, priority: priority)
        for (keyword, count) in expected["skips"] as? [String: Int] ?? [:] {
            let n = c.report.skips.filter { $0.key.localizedCaseInsensitiveContains(keyword) }.values.reduce(0, +)
            XCTAssertEqual(n, count, "\(name): skips matching \"\(keyword)\" in \(c.report.skips)")
        }
        for day in expected["absent_days"] as? [String] ?? [] {
            XCTAssertNil(c.payloads[day], "\(name): \(day) should not be written")
        }
        for (date, value) in expected["days"] as? [String: Any] ?? [:] {
            guard let want = value as? [String: Any] else { continue }
            guard let got = c.payloads[date] else {
                XCTFail("\(name): no payload for \(date); have \(c.payloads.keys.sorted())")
                continue
            }
            if let m = want["metrics"] as? [String: Any] {
                let have = got["metrics"] as? [String: Any] ?? [:]
                XCTAssertEqual(Set(have.keys), Set(m.keys), "\(name) \(date): metric keys")
                for (k, v) in m { assertSameJSON(have[k], v, "\(name) \(date) metrics.\(k)") }
            }
            for section in ["sleep", "workouts", "running_mechanics", "timezone", "device_sync_timestamp"] where want.keys.contains(section)
            {
                assertSameJSON(got[section], want[section], "\(name) \(date) \(section)")
            }
        }
    }
}
