import XCTest

@testable import ExportParser

/// When more datums wait for a late `name`/`units` than `pendingLimit`, the reader drops them
/// and re-reads the metric's bytes in a second pass, once the first has found the name and
/// units. The output must be the same as with buffering: the same samples, each metric's in the
/// same order (a re-read metric's samples come after the first pass's).
final class HAEReaderReplayTests: XCTestCase {
    private func fingerprint(_ path: String, pendingLimit: Int) throws -> ([String], [String: Int], [String: Int]) {
        let sink = CollectingSink(details: false)
        let report = try HAEReader(path: path, pendingLimit: pendingLimit).read(into: sink)
        let lines =
            sink.samples.map {
                "\($0.type) \($0.source) \(String(describing: $0.value)) \(String(describing: $0.canonicalValue)) \($0.start.seconds) \($0.end.seconds) \($0.isBucket)"
            } + sink.sleepSummaries.map { "night \($0.sleepEnd.seconds) \($0.totalHours)" }
        return (lines, report.recordsByType, report.skips)
    }

    func testReplayGivesTheSameSamplesAsBuffering() throws {
        let paths = [
            HAEFixtures.path("metrics-units.json"),  // walking_running_distance: data before units/name
            HAEFixtures.path("sleep-aggregated-generations.json"),  // name after data
            HAEFixtures.publicPath("ivailop7_step-count-minute-aggregated_2021-03-14.json"),
            HAEFixtures.publicPath("jimmylittle_metrics-day-aggregated_workouts-v2_medications_2026-02-14_2026-02-16.json"),
            HAEFixtures.publicPath("starbackr_sleep-analysis-unaggregated-segments_2025-04-18_2025-05-17.json"),
        ]
        for path in paths where FileManager.default.fileExists(atPath: path) {
            let buffered = try fingerprint(path, pendingLimit: 1_000_000)
            let replayed = try fingerprint(path, pendingLimit: 1)
            func byType(_ lines: [String]) -> [String: [String]] {
                Dictionary(grouping: lines) { String($0.prefix { $0 != " " }) }
            }
            XCTAssertEqual(byType(buffered.0), byType(replayed.0), path)
            XCTAssertEqual(buffered.0.count, replayed.0.count, path)
            XCTAssertEqual(buffered.1, replayed.1, path)
            XCTAssertEqual(buffered.2, replayed.2, path)
            XCTAssertFalse(buffered.0.isEmpty, path)
        }
    }

    func testReplayKeepsSkipPathsAndOffsets() throws {
        let path = HAEFixtures.path("sleep-aggregated-generations.json")
        let report = try HAEReader(path: path, pendingLimit: 1).read(into: CollectingSink(details: false))
        let reason = "HAE sleep record without a parseable sleepEnd"
        XCTAssertEqual(report.skipExamples[reason]?.first?.path, "metrics[0].data[4].sleepEnd")
        XCTAssertEqual(
            report.skipExamples[reason]?.first?.byteOffset,
            HAEFixtures.offset(of: #"{"date" : "2026-03-31", "asleep" : 7"#, in: path))
    }

    func testMetricWithoutNameIsSkippedEitherWay() throws {
        let path = HAEFixtures.path("metric-without-name.json")
        for limit in [1, 2, 50_000] {
            let sink = CollectingSink(details: false)
            let report = try HAEReader(path: path, pendingLimit: limit).read(into: sink)
            // the three nameless datums are skipped; the next metric is read as usual
            XCTAssertEqual(report.skips["HAE metric without a name"], 3, "limit \(limit)")
            XCTAssertEqual(report.skipExamples["HAE metric without a name"]?.first?.path?.hasPrefix("data.metrics[0]"), true)
            XCTAssertEqual(sink.samples.map(\.canonicalValue), [4], "limit \(limit)")
        }
    }
}
