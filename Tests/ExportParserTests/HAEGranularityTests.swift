import Foundation
import XCTest

@testable import ExportParser
@testable import HealthFixtures

/// One granularity per metric and date among the HAE inputs of a run (docs/rules.md, "HAE
/// bodies"): a manual export with Summarize on (day buckets) beside REST bodies with Summarize off
/// (samples) holds the same dates twice; the samples win and each date counts once. And a count
/// is only what the input states or what was counted (docs/rules.md, "minmaxavg"): a summarized
/// heart-rate bucket whose Min = Avg = Max gives no count. Bodies are written here with the
/// arithmetic beside them; the zone is the offset the datums carry (-0600, no `--timezone`).
final class HAEGranularityTests: XCTestCase {
    typealias B = HAEBodiesTests

    static func bucket(_ date: String, _ qty: Double) -> String {
        "{\"date\": \"2026-03-\(date) 00:00:00 -0600\", \"qty\": \(qty), \"source\": \"Anna’s Apple Watch|Anna’s iPhone\"}"
    }

    static func sample(_ start: String, _ end: String, _ qty: Double) -> String {
        "{\"startDate\": \"2026-03-\(start) -0600\", \"endDate\": \"2026-03-\(end) -0600\", \"qty\": \(qty), \"source\": \"Anna’s Apple Watch\"}"
    }

    static func heartRate(_ date: String, _ min: Int, _ avg: Int, _ max: Int) -> String {
        "{\"date\": \"\(date) -0600\", \"Min\": \(min), \"Avg\": \(avg), \"Max\": \(max), \"source\": \"Anna’s Apple Watch\"}"
    }

    /// The manual export, Summarize on: one day bucket a metric and date, 03-02 and 03-03. Each
    /// bucket that the samples replace differs from what they give (12.5 km, 520 kcal, 10,400
    /// steps, 10 and 9 flights, 45 min, avg 72), so an assertion tells which one was kept.
    static let manual = B.body(metrics: [
        B.metric("walking_running_distance", "km", [bucket("02", 12.5), bucket("03", 5)]),
        B.metric("active_energy", "kcal", [bucket("02", 520), bucket("03", 300)]),
        B.metric("step_count", "count", [bucket("02", 10_400), bucket("03", 4_000)]),
        B.metric("flights_climbed", "count", [bucket("02", 10), bucket("03", 9)]),
        B.metric("apple_exercise_time", "min", [bucket("02", 45), bucket("03", 20)]),
        B.metric(
            "heart_rate", "count/min",
            [heartRate("2026-03-02 00:00:00", 50, 72, 120), heartRate("2026-03-03 00:00:00", 55, 65, 100)]),
    ])

    /// A REST body, Summarize off: samples of 03-02, and of 03-03 only for flights.
    static let rest = B.body(metrics: [
        B.metric(
            "walking_running_distance", "km", [sample("02 08:00:00", "02 08:30:00", 6), sample("02 17:00:00", "02 17:40:00", 5.48)]),
        B.metric("active_energy", "kcal", [sample("02 08:00:00", "02 08:30:00", 200), sample("02 17:00:00", "02 17:40:00", 300)]),
        B.metric("step_count", "count", [sample("02 08:00:00", "02 08:30:00", 6_000), sample("02 17:00:00", "02 17:40:00", 4_000)]),
        // 23:50–00:10 across midnight: 2 to each date; then 6 at 09:00 on 03-03.
        B.metric("flights_climbed", "count", [sample("02 23:50:00", "03 00:10:00", 4), sample("03 09:00:00", "03 09:05:00", 6)]),
        // Ends exactly at midnight: gives 03-03 nothing, so 03-03 keeps its bucket.
        B.metric("apple_exercise_time", "min", [sample("02 23:30:00", "03 00:00:00", 30)]),
        // Readings between whole minutes: seconds grouping, one reading each.
        B.metric("heart_rate", "count/min", [heartRate("2026-03-02 08:00:13", 60, 60, 60), heartRate("2026-03-02 12:00:27", 80, 80, 80)]),
    ])

    private func write(_ texts: [String], _ dir: URL) throws -> [String] {
        try texts.enumerated().map { i, t in
            let f = dir.appendingPathComponent("body-\(i).json")
            try Data(t.utf8).write(to: f)
            return f.path
        }
    }

    private func convert(_ inputs: [String], _ out: URL) throws -> (ConvertOutcome, [String: [String: Any]]) {
        let outcome = try ConvertJob(ConvertRequest(inputs: inputs, outDir: out.path)).run()
        var days: [String: [String: Any]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: out.path + "/payloads") {
            let data = try Data(contentsOf: out.appendingPathComponent("payloads/" + name))
            days[String(name.dropLast(5))] = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        return (outcome, days)
    }

    func testSamplesOfADateWinOverItsDayBucketsForEveryMetric() throws {
        let dir = try TestPaths.temporaryDirectory(#function)
        for order in [[Self.manual, Self.rest], [Self.rest, Self.manual]] {
            let (outcome, days) = try convert(try write(order, dir), dir.appendingPathComponent("out-\(UUID().uuidString)"))
            let m2 = try XCTUnwrap(days["2026-03-02"]?["metrics"] as? [String: Any])
            let m3 = try XCTUnwrap(days["2026-03-03"]?["metrics"] as? [String: Any])
            // 03-02 is the samples' alone: 6 + 5.48 = 11.48 km (the bucket's 12.5; both: 23.98).
            XCTAssertEqual(try XCTUnwrap(m2["distance_km"] as? Double), 11.48, accuracy: 1e-9)
            XCTAssertEqual(m2["active_calories"] as? Double, 500)  // 200 + 300, not 520 nor 1,020
            XCTAssertEqual(m2["step_count"] as? Double, 10_000)  // 6,000 + 4,000, not 10,400 nor 20,400
            XCTAssertEqual(m2["flights_climbed"] as? Double, 2)  // 4 × 10/20 min before midnight, not 10
            XCTAssertEqual(m2["exercise_min"] as? Double, 30)  // 23:30–00:00, not 30 + 45
            // 03-03: distance, energy and steps have no samples: the buckets, 5 km, 300 kcal, 4,000.
            XCTAssertEqual(m3["distance_km"] as? Double, 5)
            XCTAssertEqual(m3["active_calories"] as? Double, 300)
            XCTAssertEqual(m3["step_count"] as? Double, 4_000)
            // Flights have samples on 03-03 too: 4 × 10/20 + 6 = 8, the bucket's 9 set aside (kept
            // alone it gives 9; kept beside them nothing: the 23:50–00:10 sample covers its midnight
            // instant, docs/rules.md, "Overlapping sources", so `bucketsSetAside` guards that case).
            XCTAssertEqual(m3["flights_climbed"] as? Double, 8)
            // The exercise sample ends at 03-03 00:00 and gives 03-03 nothing: its bucket, 20.
            XCTAssertEqual(m3["exercise_min"] as? Double, 20)
            // Heart rate of 03-02: the two readings, (60 + 80) / 2 = 70, 60 to 80, counted 2;
            // the day bucket (50–120, avg 72) set aside. 03-03 only the bucket: no count.
            let hr2 = try XCTUnwrap(m2["heart_rate_samples"] as? [String: Any])
            XCTAssertEqual(hr2["avg"] as? Double, 70)
            XCTAssertEqual(hr2["min"] as? Double, 60)
            XCTAssertEqual(hr2["max"] as? Double, 80)
            XCTAssertEqual(hr2["count"] as? Int, 2)
            let hr3 = try XCTUnwrap(m3["heart_rate_samples"] as? [String: Any])
            XCTAssertEqual(hr3["max"] as? Double, 100)
            XCTAssertNil(hr3["count"])
            // Set aside: the six buckets of 03-02 and the flights bucket of 03-03.
            XCTAssertEqual(outcome.inputs.first?.haeSet?.bucketsSetAside, 7)
            let line = outcome.summaryLines().first { $0.contains("set aside") }
            XCTAssertTrue(
                line?.hasSuffix(
                    "7 summarized buckets (Summarize on) set aside: samples (Summarize off) of the same metric and date were given, and a date's data is counted once"
                ) == true, "\(line ?? "no line")")
        }
    }

    /// The issue's real case from the generator: a manual export summarised by day (hae.json)
    /// beside REST bodies of samples. Together they give what the bodies give alone, and compare
    /// of the export against them agrees (before: the sums doubled and compare failed).
    func testAManualDayExportBesideSampleBodiesCountsEachDateOnce() throws {
        let dir = try TestPaths.temporaryDirectory(#function)
        var request = FixtureRequest(days: 3, seed: 5, outDir: dir.path, haeBodies: "default")
        request.haeBodiesStyle = "samples"
        _ = try FixtureJob(request).run()
        let bodies = dir.appendingPathComponent("hae-bodies").path, manual = dir.appendingPathComponent("hae.json").path
        let (_, alone) = try convert([bodies], dir.appendingPathComponent("alone"))
        let (outcome, both) = try convert([manual, bodies], dir.appendingPathComponent("both"))
        XCTAssertEqual(Set(both.keys), Set(alone.keys))
        for (date, day) in alone { assertSameJSON(both[date] ?? [:], day, date) }
        // Every day bucket of hae.json lies on a date the samples cover.
        XCTAssertGreaterThan(outcome.inputs.first?.haeSet?.bucketsSetAside ?? 0, 0)
        let compare = try CompareJob(
            CompareRequest(
                native: [dir.appendingPathComponent("export.zip").path], hae: [manual, bodies], days: 3, from: FixtureRequest.defaultStart,
                outDir: dir.appendingPathComponent("compare").path)
        ).run()
        XCTAssertEqual(compare.exitStatus, 0, compare.terminalText(color: false))
    }

    // MARK: - Point 3: a summarized bucket leaves the count null

    private func heartRateDays(_ datums: [String]) throws -> [String: [String: Any]] {
        let dir = try TestPaths.temporaryDirectory("hr-\(UUID().uuidString)")
        let file = dir.appendingPathComponent("hae.json")
        try Data(B.body(metrics: [B.metric("heart_rate", "count/min", datums)]).utf8).write(to: file)
        let (_, days) = try convert([file.path], dir.appendingPathComponent("out"))
        return days.compactMapValues { ($0["metrics"] as? [String: Any])?["heart_rate_samples"] as? [String: Any] }
    }

    func testADayBucketWhoseReadingsAgreeHasNoCount() throws {
        // Three day buckets; 03-03's Min = Avg = Max = 64 (a real file: 1 date of 91 so).
        let days = try heartRateDays([
            Self.heartRate("2026-03-02 00:00:00", 48, 66, 140), Self.heartRate("2026-03-03 00:00:00", 64, 64, 64),
            Self.heartRate("2026-03-04 00:00:00", 50, 70, 150),
        ])
        XCTAssertEqual(days["2026-03-03"]?["avg"] as? Double, 64)
        XCTAssertNil(days["2026-03-03"]?["count"], "a bucket does not say how many readings it holds (was 1)")
        XCTAssertNil(days["2026-03-02"]?["count"])
        // The equal bucket comes first: held until 03-04's Min ≠ Max shows buckets.
        let first = try heartRateDays([
            Self.heartRate("2026-03-03 00:00:00", 64, 64, 64), Self.heartRate("2026-03-04 00:00:00", 50, 70, 150),
        ])
        XCTAssertNil(first["2026-03-03"]?["count"])
        XCTAssertEqual(first["2026-03-03"]?["max"] as? Double, 64)
        // Alone, and at local midnight: a day bucket (nothing shows readings).
        XCTAssertNil(try heartRateDays([Self.heartRate("2026-03-03 00:00:00", 64, 64, 64)])["2026-03-03"]?["count"])
    }

    func testReadingsKeepTheirCount() throws {
        // Seconds grouping: readings at 08:00:13 and 08:05:00 (equal, at a whole minute, counted
        // as readings since 08:00:13 shows the grouping): 2 readings, (60 + 70) / 2 = 65.
        let seconds = try heartRateDays([
            Self.heartRate("2026-03-03 08:05:00", 70, 70, 70), Self.heartRate("2026-03-03 08:00:13", 60, 60, 60),
        ])
        XCTAssertEqual(seconds["2026-03-03"]?["count"] as? Int, 2)
        XCTAssertEqual(seconds["2026-03-03"]?["avg"] as? Double, 65)
        // Readings at whole minutes only, as the generator writes them, not all at midnight:
        // readings, 3 of them, (60 + 70 + 80) / 3 = 70.
        let minutes = try heartRateDays([
            Self.heartRate("2026-03-03 00:00:00", 60, 60, 60), Self.heartRate("2026-03-03 08:05:00", 70, 70, 70),
            Self.heartRate("2026-03-03 09:10:00", 80, 80, 80),
        ])
        XCTAssertEqual(minutes["2026-03-03"]?["count"] as? Int, 3)
        XCTAssertEqual(minutes["2026-03-03"]?["avg"] as? Double, 70)
    }

    /// The generator dates its HAE files at the export moment (docs/fixtures.md), so a fixture of
    /// future dates is not cut by the file's-time bound: 2 dates from 2030-06-01, both read.
    func testAFixtureOfFutureDatesIsReadWhole() throws {
        let dir = try TestPaths.temporaryDirectory(#function)
        _ = try FixtureJob(FixtureRequest(days: 2, start: "2030-06-01", outDir: dir.path, haeStyle: "samples")).run()
        let (outcome, days) = try convert([dir.appendingPathComponent("hae.json").path], dir.appendingPathComponent("out"))
        XCTAssertEqual(days.keys.sorted(), ["2030-06-01", "2030-06-02"])
        XCTAssertNil(outcome.inputs.first?.report?.skips[HAEDatumMapper.afterMoment])
    }
}
