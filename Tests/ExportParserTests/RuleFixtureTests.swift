import ExportParser
import Foundation
import XCTest

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
            let expected = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: expectedURL)) as? [String: Any], expectedURL.path)
            try check(xml, expected)
        }
    }

    private func check(_ xmlURL: URL, _ expected: [String: Any]) throws {
        let name = xmlURL.lastPathComponent
        let options = expected["options"] as? [String: Any] ?? [:]
        let tz = options["timezone"] as? String
        let priority = (options["source_priority"] as? String).map { $0.split(separator: ",").map(String.init) }
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
                for (k, v) in m { assertJSON(have[k], v, "\(name) \(date) metrics.\(k)") }
            }
            for section in ["sleep", "workouts", "running_mechanics", "timezone", "device_sync_timestamp"] where want.keys.contains(section) {
                assertJSON(got[section], want[section], "\(name) \(date) \(section)")
            }
        }
    }

    private func assertJSON(_ got: Any?, _ want: Any?, _ what: String) {
        switch (got, want) {
        case (nil, nil), (nil, is NSNull), (is NSNull, nil), (is NSNull, is NSNull):
            return
        case let (g as NSNumber, w as NSNumber):
            XCTAssertEqual(g.doubleValue, w.doubleValue, accuracy: 1e-6, what)
        case let (g as String, w as String):
            XCTAssertEqual(g, w, what)
        case let (g as [Any], w as [Any]):
            XCTAssertEqual(g.count, w.count, "\(what): count")
            for (i, (a, b)) in zip(g, w).enumerated() { assertJSON(a, b, "\(what)[\(i)]") }
        case let (g as [String: Any], w as [String: Any]):
            XCTAssertEqual(Set(g.keys), Set(w.keys.filter { !(w[$0] is NSNull) || g[$0] != nil }), "\(what): keys")
            for (k, v) in w { assertJSON(g[k], v, "\(what).\(k)") }
        default:
            XCTFail("\(what): got \(String(describing: got)), want \(String(describing: want))")
        }
    }
}
