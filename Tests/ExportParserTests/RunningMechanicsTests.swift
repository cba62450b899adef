import XCTest

@testable import ExportParser

/// `RunningMechanics` keeps its samples in fixed blocks until the workouts are known, then sorts
/// them by time: samples that came in any order and past one block (4,096) must all be found.
final class RunningMechanicsTests: XCTestCase {
    private let utc = LocalClock(zone: TimeZone(identifier: "UTC"))
    private let speed = Catalog.metric(named: "running_speed_kmh").index

    private func sample(at seconds: Int64, _ value: Double) -> Sample {
        let t = Timestamp(seconds: seconds, offset: 0)
        return Sample(
            type: "HKQuantityTypeIdentifierRunningSpeed", metric: Catalog.metric(forType: "HKQuantityTypeIdentifierRunningSpeed"),
            source: "Watch", unit: "km/hr", valueText: "\(value)", value: value, canonicalValue: value, start: t, end: t)
    }

    func testSamplesInAnyOrderPastOneBlockAreAveragedOverTheRun() {
        let day = CivilDate.parseISODate("2024-05-04")!
        let t0 = Int64(day) * 86_400 + 8 * 3_600  // 08:00 UTC
        var book = RunningMechanics()
        // 4,100 samples, added latest first: sample i at t0 + 4,099 − i, valued i mod 3. Their
        // sum: i = 0…4,097 is 1,366 whole cycles of 0 + 1 + 2 = 4,098, then i = 4,098 gives 0
        // and i = 4,099 gives 1: 4,099 over 4,100 samples.
        for i in 0..<4_100 { book.add(metric: speed, sample(at: t0 + 4_099 - Int64(i), Double(i % 3)), Double(i % 3), clock: utc) }
        // One more, 10 minutes after the run: outside it.
        book.add(metric: speed, sample(at: t0 + 4_099 + 600, 100), 100, clock: utc)
        // The run: t0 to t0 + 4,099 s (closed), starting on `day`.
        let means = book.finish(runs: [day: [(t0, t0 + 4_099)]])
        XCTAssertEqual(means[day]?[speed] ?? 0, 4_099.0 / 4_100.0, accuracy: 1e-12)
        XCTAssertEqual(book.outsideRuns, 1)
    }
}
