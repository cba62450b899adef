import Foundation
import XCTest

@testable import ExportParser

/// The heart-rate samples kept for workouts are spilled a chunk at a time (`HeartRateSamples`):
/// memory holds at most one chunk however many samples come, and the workouts get from the spill
/// exactly what they got from one sorted array of all of them.
final class HeartRateSpillTests: XCTestCase {
    let base: Int64 = 1_700_000_000  // 2023-11-14T22:13:20Z

    func testOverlappingIntervalsMergeAndEmptyOnesDrop() {
        // Sorted: (10,20) (15,30) (31,35) (50,60); (40,39) ends before it starts and goes.
        // (10,20) and (15,30) overlap: (10,30). 31 > 30, so (31,35) stays apart.
        let spans = HeartRateSamples.disjoint([(50, 60), (15, 30), (40, 39), (10, 20), (31, 35)])
        XCTAssertEqual(spans.map(\.start), [10, 31, 50])
        XCTAssertEqual(spans.map(\.end), [30, 35, 60])
        // Both ends are inside; between the spans is outside.
        let inside = [9, 10, 30, 31, 36, 49, 60, 61].map { HeartRateSamples.contains(spans, Int64($0)) }
        XCTAssertEqual(inside, [false, true, true, true, false, false, true, false])
    }

    func testMemoryHoldsOneChunkAndTheSpillGivesBackWhatIntervalsHold() {
        let n = HeartRateSamples.chunkCount
        var samples = HeartRateSamples()
        // 2 chunks + 5: the two full chunks go to the file, 5 samples stay in memory.
        for i in 0..<(2 * n + 5) { samples.append(WorkoutBook.pack(base + Int64(i), Double(60 + i % 7))) }
        XCTAssertEqual(samples.count, 2 * n + 5)
        XCTAssertEqual(samples.inMemory, 5)
        // Sample i is at base + i. First interval: i = n-6 … n+4, 11 samples across the first
        // chunk's end (both chunks read back from the file). Second: i = 2n+3 … 2n+8, of which
        // 2n+3 and 2n+4 exist (the last is 2n+4), in memory.
        let a = base + Int64(n - 6), b = base + Int64(n + 4)
        let c = base + Int64(2 * n + 3), d = base + Int64(2 * n + 8)
        let kept = samples.take(within: [(c, d), (a, b)])
        let want = (Array((n - 6)...(n + 4)) + [2 * n + 3, 2 * n + 4]).map { WorkoutBook.pack(base + Int64($0), Double(60 + $0 % 7)) }
        XCTAssertEqual(kept, want)
        XCTAssertEqual(samples.inMemory, 0)
        XCTAssertEqual(samples.count, 0)
    }

    func testWorkoutsWithoutHeartRateAverageTheSpilledSamples() {
        var book = WorkoutBook()
        // 150,000 samples, one a second from base: 100 bpm at even i, 110 at odd i. Chunks 0 and
        // 1 (i < 131,072) are spilled, 18,928 samples stay in memory.
        for i in 0..<150_000 { book.addHeartRate(base + Int64(i), i % 2 == 0 ? 100 : 110) }
        XCTAssertEqual(book.heartRatesInMemory, 150_000 - 2 * HeartRateSamples.chunkCount)
        // Workout 1, i = 100,000 … 100,009 (spilled): five at 100, five at 110: mean 105, max 110.
        // Workout 2, i = 149,995 … 150,010: samples 149,995 … 149,999 (in memory): 110 at the
        // three odd ones, 100 at the two even: (330 + 200) / 5 = 106, max 110.
        // Workout 3 states its heart rate (150 and 170) and takes none of the samples.
        let one = Workout(
            activityType: "HKWorkoutActivityTypeRunning", source: "Watch",
            start: Timestamp(seconds: base + 100_000, offset: 0), end: Timestamp(seconds: base + 100_009, offset: 0))
        let two = Workout(
            activityType: "HKWorkoutActivityTypeCycling", source: "Watch",
            start: Timestamp(seconds: base + 149_995, offset: 0), end: Timestamp(seconds: base + 150_010, offset: 0))
        var three = Workout(
            activityType: "HKWorkoutActivityTypeWalking", source: "Watch",
            start: Timestamp(seconds: base + 10, offset: 0), end: Timestamp(seconds: base + 20, offset: 0))
        three.statedAverageHeartRate = 150
        three.statedMaximumHeartRate = 170
        XCTAssertTrue(book.add(one) && book.add(two) && book.add(three))
        let (summaries, _) = book.finish(clock: LocalClock(zone: TimeZone(identifier: "UTC")))
        XCTAssertEqual(summaries.map(\.summary.averageHeartRate), [150, 105, 106])
        XCTAssertEqual(summaries.map(\.summary.maximumHeartRate), [170, 110, 110])
        XCTAssertEqual(book.heartRatesInMemory, 0)
    }
}
