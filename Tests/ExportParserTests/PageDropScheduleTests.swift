import XCTest

@testable import ExportParser

/// `PageDropSchedule`: which pages of the mapped export.xml are dropped, and when, as the
/// workers finish chunks in any order. Blocks of 4 bytes and batches of 16 keep the arithmetic
/// small; the real ones are 64 KiB and 4 MiB.
final class PageDropScheduleTests: XCTestCase {
    func testTheDonePrefixIsDroppedABatchAtATimeUpToItsLastWholeBlock() {
        var s = PageDropSchedule(block: 4, batch: 16)
        // 0..<5 done: 5 − 0 = 5 bytes past what was dropped, under a batch.
        XCTAssertEqual(s.release(0..<5), [])
        XCTAssertEqual(s.release(5..<10), [])  // 10 bytes
        // 17 bytes ≥ 16: dropped up to 17's block start, 16; the block 16..<20 holds byte 17 on,
        // which the next part reads.
        XCTAssertEqual(s.release(10..<17), [0..<16])
        XCTAssertEqual(s.dropped, 16)
        // 20 − 16 = 4 bytes: waits for the next batch (or the unmap at the end).
        XCTAssertEqual(s.release(17..<20), [])
        XCTAssertEqual(s.done, 20)
    }

    func testAPartDoneAheadWaitsForTheGapAndTheFirstPartDoneLateGoesAlone() {
        var s = PageDropSchedule(block: 4, batch: 16)
        // The second chunk done first starts the prefix at its block, 8.
        XCTAssertEqual(s.release(8..<12), [])
        XCTAssertEqual(s.dropped, 8)
        // The first chunk is before the prefix: dropped alone, its blocks whole (0 and 4).
        XCTAssertEqual(s.release(0..<8), [0..<8])
        // 16..<30 after a gap at 12..<16: waits.
        XCTAssertEqual(s.release(16..<30), [])
        XCTAssertEqual(s.done, 12)
        // The gap done: the prefix runs to 30; 30 − 8 = 22 ≥ 16, dropped to 30's block start, 28.
        XCTAssertEqual(s.release(12..<16), [8..<28])
        XCTAssertEqual(s.done, 30)
        XCTAssertEqual(s.dropped, 28)
    }

    func testAPartLateOrNeverLeavesNoMoreThanTheWaitingLimitMappedAndBatchesGoOn() {
        var s = PageDropSchedule(block: 4, batch: 16)
        XCTAssertEqual(s.release(0..<4), [])
        // 4..<8 is late (a slow worker, or a stopped one). Parts 8..<12, 12..<16, … wait, 32 of
        // them at most; the 33rd (k = 32: 136..<140) drops all 33 alone, in file order, each its
        // own block, and the prefix goes on from the last: 140.
        for k in 0..<32 {
            XCTAssertEqual(s.release(8 + 4 * k..<12 + 4 * k), [], "part \(k)")
        }
        let dropped = s.release(136..<140)
        XCTAssertEqual(dropped.count, 33)
        XCTAssertEqual(dropped.first, 8..<12)
        XCTAssertEqual(dropped.last, 136..<140)
        XCTAssertEqual(s.done, 140)
        XCTAssertEqual(s.dropped, 140)
        // The late part is before the prefix now: dropped alone.
        XCTAssertEqual(s.release(4..<8), [4..<8])
        // The parts after the gap are batched again: 150 − 140 = 10, under a batch; then
        // 157 − 140 = 17 ≥ 16, dropped to 157's block start, 156.
        XCTAssertEqual(s.release(140..<150), [])
        XCTAssertEqual(s.release(150..<157), [140..<156])
    }

    func testAPartDroppedAloneTakesTheBlocksItTouchesWhole() {
        var s = PageDropSchedule(block: 4, batch: 16)
        XCTAssertEqual(s.release(6..<9), [])  // the prefix starts at 6's block, 4
        // 1..<6 is before it: blocks 0..<4 and 4..<8, both touched (1 and 5).
        XCTAssertEqual(s.release(1..<6), [0..<8])
        XCTAssertEqual(s.release(9..<9), [])  // an empty part changes nothing
        XCTAssertEqual(s.done, 9)
    }
}
