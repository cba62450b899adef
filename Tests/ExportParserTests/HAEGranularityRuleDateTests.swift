import Foundation
import XCTest

@testable import ExportParser

/// One granularity per metric and date (docs/rules.md, "HAE bodies") asks which dates a sample
/// gives something to: the dates the day book itself gives it to under its metric's rule. A
/// `night-avg` sample is its night's (the date it ends on), an `avg` sample its start's date, a
/// `sum` sample every date it crosses. A bucket is set aside only on those dates, so a sample
/// across midnight does not take the bucket of a date the book gives it nothing on. Bodies are
/// written here with the arithmetic beside them; the zone is the datums' offset (-0600).
final class HAEGranularityRuleDateTests: XCTestCase {
    typealias B = HAEBodiesTests

    static func bucket(_ date: String, _ qty: Double) -> String {
        "{\"date\": \"2026-03-\(date) 00:00:00 -0600\", \"qty\": \(qty), \"source\": \"Anna’s Apple Watch|Anna’s iPhone\"}"
    }

    static func sample(_ start: String, _ end: String, _ qty: Double) -> String {
        "{\"startDate\": \"2026-03-\(start) -0600\", \"endDate\": \"2026-03-\(end) -0600\", \"qty\": \(qty), \"source\": \"Anna’s Apple Watch\"}"
    }

    /// Converts the bodies together, in both orders (the rule may not depend on it): per order,
    /// the buckets set aside and the payloads' `metrics` by date.
    private func convertBothOrders(_ a: String, _ b: String, _ name: String = #function) throws -> [(Int?, [String: [String: Any]])] {
        let dir = try TestPaths.temporaryDirectory(name)
        var results: [(Int?, [String: [String: Any]])] = []
        for (n, order) in [[a, b], [b, a]].enumerated() {
            let inputs = try order.enumerated().map { i, text in
                let f = dir.appendingPathComponent("order-\(n)-body-\(i).json")
                try Data(text.utf8).write(to: f)
                return f.path
            }
            let out = dir.appendingPathComponent("out-\(n)")
            let outcome = try ConvertJob(ConvertRequest(inputs: inputs, outDir: out.path)).run()
            var days: [String: [String: Any]] = [:]
            for file in try FileManager.default.contentsOfDirectory(atPath: out.path + "/payloads") {
                let data = try Data(contentsOf: out.appendingPathComponent("payloads/" + file))
                let payload = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
                days[String(file.dropLast(5))] = payload["metrics"] as? [String: Any] ?? [:]
            }
            results.append((outcome.inputs.first?.haeSet?.bucketsSetAside, days))
        }
        return results
    }

    /// The reviewer's case (finding 2). Body A: wrist-temperature day buckets dated 03-01 (35.5)
    /// and 03-02 (35.9); HAE dates a night by the evening it began, so they are the nights ending
    /// 03-02 and 03-03. Body B: one sample 03-02 23:10 → 03-03 06:40 (36.1), the night ending
    /// 03-03. It gives 03-02 nothing: 03-02 keeps A's 35.5; 03-03 is the sample's 36.1 and its
    /// bucket (35.9) the one set aside. Before, the sample marked 03-02 too: 03-02 was lost and
    /// 2 buckets were set aside.
    func testANightAvgSampleSetsAsideOnlyTheBucketOfTheNightItEnds() throws {
        let a = B.body(metrics: [B.metric("apple_sleeping_wrist_temperature", "degC", [Self.bucket("01", 35.5), Self.bucket("02", 35.9)])])
        let b = B.body(metrics: [B.metric("apple_sleeping_wrist_temperature", "degC", [Self.sample("02 23:10:00", "03 06:40:00", 36.1)])])
        for (setAside, days) in try convertBothOrders(a, b) {
            XCTAssertEqual(days["2026-03-02"]?["apple_sleeping_wrist_temperature"] as? Double, 35.5)  // A's night ending 03-02
            // 03-03: the sample alone, not (35.9 + 36.1) / 2 = 36.
            XCTAssertEqual(days["2026-03-03"]?["apple_sleeping_wrist_temperature"] as? Double, 36.1)
            XCTAssertEqual(setAside, 1)  // 03-03's bucket (35.9)
        }
    }

    /// Sum, across midnight: 600 steps 03-02 23:00 → 03-03 01:00 give 600 × 60/120 = 300 to each
    /// date, so the buckets of both dates (1,000 and 2,000) are set aside; 03-04's (3,000) has no
    /// samples and stays. 03-02 = 300, 03-03 = 300 (not 1,300 and 2,300), 03-04 = 3,000.
    func testASumSampleAcrossMidnightSetsAsideTheBucketsOfBothDates() throws {
        let a = B.body(metrics: [
            B.metric("step_count", "count", [Self.bucket("02", 1_000), Self.bucket("03", 2_000), Self.bucket("04", 3_000)])
        ])
        let b = B.body(metrics: [B.metric("step_count", "count", [Self.sample("02 23:00:00", "03 01:00:00", 600)])])
        for (setAside, days) in try convertBothOrders(a, b) {
            XCTAssertEqual(days["2026-03-02"]?["step_count"] as? Double, 300)
            XCTAssertEqual(days["2026-03-03"]?["step_count"] as? Double, 300)
            XCTAssertEqual(days["2026-03-04"]?["step_count"] as? Double, 3_000)
            XCTAssertEqual(setAside, 2)  // 03-02's and 03-03's buckets
        }
    }

    /// Avg: the day book gives a sample its start's date. Respiratory rate 12 over 03-02 23:50 →
    /// 03-03 00:20 is 03-02's alone: 03-02 = 12 (its bucket, 14, set aside, not (14 + 12) / 2 =
    /// 13); 03-03 keeps its bucket, 16 (before, the sample marked 03-03 too and 03-03 had none).
    func testAnAvgSampleAcrossMidnightSetsAsideOnlyTheBucketOfItsStartDate() throws {
        let a = B.body(metrics: [B.metric("respiratory_rate", "count/min", [Self.bucket("02", 14), Self.bucket("03", 16)])])
        let b = B.body(metrics: [B.metric("respiratory_rate", "count/min", [Self.sample("02 23:50:00", "03 00:20:00", 12)])])
        for (setAside, days) in try convertBothOrders(a, b) {
            XCTAssertEqual(days["2026-03-02"]?["respiratory_rate"] as? Double, 12)
            XCTAssertEqual(days["2026-03-03"]?["respiratory_rate"] as? Double, 16)
            XCTAssertEqual(setAside, 1)  // 03-02's bucket (14)
        }
    }
}
