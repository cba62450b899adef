import XCTest

@testable import ExportParser

/// `ResolvedSums`: the sum book's early-resolved sums in sorted fixed blocks, merged a batch at a
/// time with the dictionary's old arithmetic (`old + new`, or `0 + new` for a new key).
final class ResolvedSumsTests: XCTestCase {
    private func key(_ day: Int, _ metric: Int32) -> SumPieceLog.Key { SumPieceLog.Key(key: day, metric: metric) }

    func testBatchesMergeInKeyOrderAndAddToKeysAlreadyResolved() {
        var sums = ResolvedSums()
        XCTAssertTrue(sums.isEmpty)
        XCTAssertFalse(sums.contains(key(1, 2)))
        sums.add(sorted: [.init(key: key(1, 2), value: 5), .init(key: key(3, 1), value: 7)])
        // Day 1 metric 1 is new (0 + 2 = 2), day 1 metric 2 was 5 (5 + 0.5 = 5.5), day 3 is
        // untouched (7), day 4 is new with −0 (0 + −0 = +0, the dictionary's default 0 first).
        sums.add(sorted: [.init(key: key(1, 1), value: 2), .init(key: key(1, 2), value: 0.5), .init(key: key(4, 1), value: -0.0)])
        XCTAssertEqual(sums.entries.map(\.key), [key(1, 1), key(1, 2), key(3, 1), key(4, 1)])
        XCTAssertEqual(sums.entries.map(\.value), [2, 5.5, 7, 0])
        XCTAssertEqual(Array(sums.entries)[3].value.sign, .plus)
        XCTAssertTrue(sums.contains(key(3, 1)))
        XCTAssertTrue(sums.contains(key(4, 1)))
        XCTAssertFalse(sums.contains(key(3, 2)))
        XCTAssertFalse(sums.contains(key(2, 1)))
        XCTAssertFalse(sums.contains(key(5, 1)))
        sums.add(sorted: [])
        XCTAssertEqual(sums.count, 4)
    }

    func testMergeAcrossBlocksRefillsThemInOrderAndLooksUpEachBlock() {
        // Blocks of two sums. The first batch: days 1, 3, 5 (metric 0) → blocks [1, 3] [5].
        var sums = ResolvedSums(blockSize: 2)
        sums.add(sorted: [.init(key: key(1, 0), value: 1), .init(key: key(3, 0), value: 3), .init(key: key(5, 0), value: 5)])
        XCTAssertEqual(sums.blockCounts, [2, 1])
        XCTAssertEqual(sums.count, 3)
        // The second batch: day 0 new (0 + 10 = 10), day 3 again (3 + 0.25 = 3.25), day 4 new
        // (0 + 4 = 4), day 6 new with −0 (0 + −0 = +0); days 1 and 5 stay 1 and 5. Six sums in
        // key order, two a block: [0, 1] [3, 4] [5, 6].
        sums.add(sorted: [
            .init(key: key(0, 0), value: 10), .init(key: key(3, 0), value: 0.25), .init(key: key(4, 0), value: 4),
            .init(key: key(6, 0), value: -0.0),
        ])
        XCTAssertEqual(sums.blockCounts, [2, 2, 2])
        XCTAssertEqual(sums.count, 6)
        XCTAssertEqual(sums.entries.map(\.key.key), [0, 1, 3, 4, 5, 6])
        XCTAssertEqual(sums.entries.map(\.value), [10, 1, 3.25, 4, 5, 0])
        XCTAssertEqual(Array(sums.entries)[5].value.sign, .plus)
        // Each block's first and last sum is found; the gaps between and around them are not:
        // day 2 lies between block 0's last (1) and block 1's first (3), day 7 after every block.
        for day in [0, 1, 3, 4, 5, 6] { XCTAssertTrue(sums.contains(key(day, 0)), "day \(day)") }
        for day in [-1, 2, 7] { XCTAssertFalse(sums.contains(key(day, 0)), "day \(day)") }
        XCTAssertFalse(sums.contains(key(4, 1)))
        // A third batch of one sum at the very end: day 6 was +0, 0 + 1.5 = 1.5; day 7 new (0 + 2 = 2)
        // opens a fourth block.
        sums.add(sorted: [.init(key: key(6, 0), value: 1.5), .init(key: key(7, 0), value: 2)])
        XCTAssertEqual(sums.blockCounts, [2, 2, 2, 1])
        XCTAssertEqual(sums.entries.map(\.value), [10, 1, 3.25, 4, 5, 1.5, 2])
        XCTAssertTrue(sums.contains(key(7, 0)))
    }

    func testSumsPutOneAtATimeMergeAsABatchDoes() {
        // Blocks of two. Old sums: day 2 = 2, day 4 = 4, day 6 = 6 → blocks [2, 4] [6].
        var sums = ResolvedSums(blockSize: 2)
        sums.add(sorted: [.init(key: key(2, 0), value: 2), .init(key: key(4, 0), value: 4), .init(key: key(6, 0), value: 6)])
        // Put one at a time, as the sum book resolves them: day 1 new (0 + 1 = 1), day 4 again
        // (4 + 0.5 = 4.5), day 5 new (0 + 5 = 5); days 2 and 6 stay. Five sums, two a block:
        // [1, 2] [4, 5] [6].
        var merge = sums.beginMerge()
        XCTAssertTrue(sums.isEmpty)  // moved into the merge until it ends
        merge.put(.init(key: key(1, 0), value: 1))
        merge.put(.init(key: key(4, 0), value: 0.5))
        merge.put(.init(key: key(5, 0), value: 5))
        sums.endMerge(merge)
        XCTAssertEqual(sums.entries.map(\.key), [key(1, 0), key(2, 0), key(4, 0), key(5, 0), key(6, 0)])
        XCTAssertEqual(sums.entries.map(\.value), [1, 2, 4.5, 5, 6])
        XCTAssertEqual(sums.blockCounts, [2, 2, 1])
        XCTAssertEqual(sums.count, 5)
        XCTAssertTrue(sums.contains(key(5, 0)))
        XCTAssertFalse(sums.contains(key(3, 0)))
        // A merge with nothing put gives the sums back as they were.
        let nothing = sums.beginMerge()
        sums.endMerge(nothing)
        XCTAssertEqual(sums.entries.map(\.value), [1, 2, 4.5, 5, 6])
        XCTAssertEqual(sums.blockCounts, [2, 2, 1])
        // A merge into none: day 9 (0 + −0 = +0) alone.
        var empty = ResolvedSums(blockSize: 2)
        var first = empty.beginMerge()
        first.put(.init(key: key(9, 1), value: -0.0))
        empty.endMerge(first)
        XCTAssertEqual(empty.count, 1)
        XCTAssertEqual(Array(empty.entries)[0].value.sign, .plus)
    }

    func testPackedKeysKeepTheirOrderBeforeNineteenSeventyAndForFringeSlots() {
        // Days before 1970 are negative; a fringe key is quarter-hours × 256 (2024-03-01 00:00 UTC
        // is 1,709,251,200 s: 1,899,168 quarter-hours, × 256 = 486,187,008, + 128 for offset 0).
        // Metrics 0 and 255 are the packed field's ends. In (key, metric) order: -2/255, -1/0,
        // 0/7, 486,187,136/0, 486,187,136/255.
        var sums = ResolvedSums()
        let keys = [key(-2, 255), key(-1, 0), key(0, 7), key(486_187_136, 0), key(486_187_136, 255)]
        sums.add(sorted: [.init(key: keys[1], value: 1), .init(key: keys[3], value: 3)])
        sums.add(sorted: [.init(key: keys[0], value: 0.5), .init(key: keys[2], value: 2), .init(key: keys[4], value: 4)])
        XCTAssertEqual(sums.entries.map(\.key), keys)
        XCTAssertEqual(sums.entries.map(\.value), [0.5, 1, 2, 3, 4])
        for k in keys { XCTAssertTrue(sums.contains(k), "\(k)") }
        XCTAssertFalse(sums.contains(key(-1, 255)))
        XCTAssertFalse(sums.contains(key(486_187_136, 1)))
        XCTAssertEqual(MemoryLayout<ResolvedSums.Entry>.stride, 16)
    }
}
