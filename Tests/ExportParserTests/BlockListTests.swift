import XCTest

@testable import ExportParser

/// `BlockList` (issue 24): what the day book keeps until the end of the input, in blocks that
/// never move.
final class BlockListTests: XCTestCase {
    func testElementsComeBackInOrderAcrossBlocksAndDrainEmptiesIt() {
        // Blocks of 3: 10 elements fill blocks [0 1 2] [3 4 5] [6 7 8] [9].
        var list = BlockList<Int>(blockSize: 3)
        for i in 0..<10 { list.append(i) }
        XCTAssertEqual(list.count, 10)
        var seen: [Int] = []
        list.forEach { seen.append($0) }
        XCTAssertEqual(seen, Array(0..<10))
        var drained: [Int] = []
        list.drain { drained.append($0) }
        XCTAssertEqual(drained, Array(0..<10))
        XCTAssertTrue(list.isEmpty)
        // Usable again after a drain: 2 elements, one block.
        list.append(42)
        list.append(43)
        seen = []
        list.forEach { seen.append($0) }
        XCTAssertEqual(seen, [42, 43])
        list.removeAll()
        XCTAssertEqual(list.count, 0)
    }

    /// A waiting sleep sample keeps its times, offsets, stage and source through the list.
    func testAWaitingSleepSampleComesBackAsItsSegment() {
        let names = ["Ann’s iPhone", "Ann’s Apple Watch"]
        // 23:30 +0100 to 07:00 +0200 (offsets as across a daylight-saving change): 1,711,233,000 and
        // 1,711,256,400 (7 h 30 min − the hour gained = 6 h 30 min later, 23,400 s).
        let s = SleepSegment(
            start: Timestamp(seconds: 1_711_233_000, offset: 3_600), end: Timestamp(seconds: 1_711_256_400, offset: 7_200),
            stage: .core, source: names[1])
        var list = BlockList<WaitingSleepSample>()
        list.append(WaitingSleepSample(s, source: 1))
        var back: [SleepSegment] = []
        list.drain { back.append($0.segment(names: names)) }
        XCTAssertEqual(back.count, 1)
        XCTAssertEqual(back[0].start, s.start)
        XCTAssertEqual(back[0].end, s.end)
        XCTAssertEqual(back[0].stage, .core)
        XCTAssertEqual(back[0].source, "Ann’s Apple Watch")
        XCTAssertEqual(MemoryLayout<WaitingSleepSample>.stride, 32)
    }
}
