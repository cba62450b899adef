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

    func testGroupsHoldWholeSpansUnderTheBudgetEachSorted() {
        // Samples (second, bpm) in file order, not in time order.
        let came: [(Int64, Double)] = [
            (5, 60), (12, 61), (3, 62), (20, 63), (11, 64), (31, 65), (25, 66), (40, 67), (22, 68), (33, 69), (100, 70),
        ]
        // Spans: [10,13] [20,25] [30,34] [38,41] ((60,59) ends before it starts: dropped). Their
        // samples: 12, 11 (2); 20, 25, 22 (3); 31, 33 (2); 40 (1); 5, 3 and 100 lie in none.
        let intervals: [(start: Int64, end: Int64)] = [(20, 25), (10, 13), (60, 59), (38, 41), (30, 34)]
        func groups(budget: Int) -> [(ClosedRange<Int64>, [UInt64])] {
            var samples = HeartRateSamples()
            for (t, v) in came { samples.append(WorkoutBook.pack(t, v)) }
            var out: [(ClosedRange<Int64>, [UInt64])] = []
            samples.forEachGroup(within: intervals, budget: budget) { out.append(($0, $1)) }
            XCTAssertEqual(samples.count, 0)
            return out
        }
        func packed(_ s: [(Int64, Double)]) -> [UInt64] { s.map { WorkoutBook.pack($0.0, $0.1) } }
        // Budget 4: 2 (+3 = 5 > 4: closed), 3 (+2 = 5 > 4: closed), 2 + 1 = 3.
        let four = groups(budget: 4)
        XCTAssertEqual(four.map(\.0), [10...13, 20...25, 30...41])
        XCTAssertEqual(four[0].1, packed([(11, 64), (12, 61)]))
        XCTAssertEqual(four[1].1, packed([(20, 63), (22, 68), (25, 66)]))
        XCTAssertEqual(four[2].1, packed([(31, 65), (33, 69), (40, 67)]))
        // Budget 2: the span of 3 is a group alone, over the budget; 2 + 1 = 3 > 2 splits the last two.
        XCTAssertEqual(groups(budget: 2).map(\.0), [10...13, 20...25, 30...34, 38...41])
        XCTAssertEqual(groups(budget: 2).map(\.1.count), [2, 3, 2, 1])
        // No limit: one group, what `take` returns.
        var samples = HeartRateSamples()
        for (t, v) in came { samples.append(WorkoutBook.pack(t, v)) }
        XCTAssertEqual(samples.take(within: intervals), four.flatMap(\.1))
    }

    func testWorkoutsTakeTheirFiguresFromTheirOwnGroup() {
        // As in the test above: 100 bpm at even i, 110 at odd i,
        // one a second from base, 150,000 of them (two chunks spilled).
        var book = WorkoutBook()
        book.heartRateGroupBudget = 10
        for i in 0..<150_000 { book.addHeartRate(base + Int64(i), i % 2 == 0 ? 100 : 110) }
        // Workout 1: i = 100,000 … 100,009, 10 samples (the budget: a group alone): five at 100,
        // five at 110: mean 105, max 110. Workout 2: i = 100,020 … 100,022, 3 samples (10 + 3 > 10:
        // a second group): 100, 110, 100: mean 310 / 3, max 110. Workout 3: i = 149,995 … 150,010:
        // samples 149,995 … 149,999, 5 (3 + 5 ≤ 10: the second group too): 110 at the three odd
        // ones, 100 at the two even: 530 / 5 = 106, max 110.
        let one = Workout(
            activityType: "HKWorkoutActivityTypeRunning", source: "Watch",
            start: Timestamp(seconds: base + 100_000, offset: 0), end: Timestamp(seconds: base + 100_009, offset: 0))
        let two = Workout(
            activityType: "HKWorkoutActivityTypeWalking", source: "Watch",
            start: Timestamp(seconds: base + 100_020, offset: 0), end: Timestamp(seconds: base + 100_022, offset: 0))
        let three = Workout(
            activityType: "HKWorkoutActivityTypeCycling", source: "Watch",
            start: Timestamp(seconds: base + 149_995, offset: 0), end: Timestamp(seconds: base + 150_010, offset: 0))
        XCTAssertTrue(book.add(three) && book.add(one) && book.add(two))
        let (summaries, _) = book.finish(clock: LocalClock(zone: TimeZone(identifier: "UTC")))
        XCTAssertEqual(summaries.map(\.summary.averageHeartRate), [105, 310.0 / 3, 106])
        XCTAssertEqual(summaries.map(\.summary.maximumHeartRate), [110, 110, 110])
        XCTAssertEqual(book.heartRatesInMemory, 0)
    }
}
