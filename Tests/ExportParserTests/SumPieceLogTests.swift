import XCTest

@testable import ExportParser

/// The sum rule's piece storage (`SumPieceLog`, issue 24): pieces come back per key and metric
/// exactly as they were added, in arrival order, across blocks, run breaks and removals.
final class SumPieceLogTests: XCTestCase {
    private typealias Key = SumPieceLog.Key

    private func piece(_ start: Int64, _ length: Int64, _ value: Double, source: Int32 = 0, print: UInt32 = 0) -> SumPiece {
        SumPiece(start: start, end: start + length, value: value, source: source, fingerprint: print)
    }

    private func groups(_ log: SumPieceLog) -> [(Key, [SumPiece])] {
        var out: [(Key, [SumPiece])] = []
        log.forEachGroup { out.append(($0, $1)) }
        return out
    }

    private func same(_ a: SumPiece, _ b: SumPiece, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.start, b.start, file: file, line: line)
        XCTAssertEqual(a.length, b.length, file: file, line: line)
        XCTAssertEqual(a.value, b.value, file: file, line: line)
        XCTAssertEqual(a.source, b.source, file: file, line: line)
        XCTAssertEqual(a.fingerprint, b.fingerprint, file: file, line: line)
    }

    func testGroupsComeBackInKeyOrderWithTheirPiecesInArrivalOrder() {
        var log = SumPieceLog()
        let d10 = Key(key: 10, metric: 3), d9 = Key(key: 9, metric: 3), d10m1 = Key(key: 10, metric: 1)
        // Interleaved: day 10 metric 3, then day 9, then day 10 again (a second run of the key),
        // then day 10 metric 1. Runs: 4; groups: 3.
        XCTAssertTrue(log.append(piece(1_000, 60, 5, source: 1, print: 7), key: d10))
        XCTAssertFalse(log.append(piece(900, 30, 2.5), key: d10))  // earlier start: a negative delta
        XCTAssertTrue(log.append(piece(500, 10, 1), key: d9))
        XCTAssertTrue(log.append(piece(2_000, 0, 4), key: d10))
        XCTAssertTrue(log.append(piece(3_000, 5, 8), key: d10m1))
        XCTAssertEqual(log.count, 5)
        let g = groups(log)
        XCTAssertEqual(g.map(\.0), [d9, d10m1, d10])
        XCTAssertEqual(g.map { $0.1.count }, [1, 1, 3])
        same(g[2].1[0], piece(1_000, 60, 5, source: 1, print: 7))
        same(g[2].1[1], piece(900, 30, 2.5))
        same(g[2].1[2], piece(2_000, 0, 4))
        same(g[1].1[0], piece(3_000, 5, 8))
    }

    func testAStartTooFarFromItsRunsFirstBeginsARun() {
        var log = SumPieceLog()
        let k = Key(key: 1, metric: 0)
        // Int32 holds deltas up to 2,147,483,647 s: 3,000,000,000 s later needs a run of its own.
        XCTAssertTrue(log.append(piece(0, 10, 1), key: k))
        XCTAssertTrue(log.append(piece(3_000_000_000, 10, 2), key: k))
        XCTAssertFalse(log.append(piece(3_000_000_100, 10, 3), key: k))
        let g = groups(log)
        XCTAssertEqual(g.count, 1)
        XCTAssertEqual(g[0].1.map(\.start), [0, 3_000_000_000, 3_000_000_100])
    }

    func testRemovingGroupsKeepsTheRestAcrossBlocksAndFreesWhatEmptied() {
        var log = SumPieceLog()
        let n = SumPieceLog.blockSize
        // Three blocks and 10 pieces more, in runs of 7 pieces going round five days: piece i has
        // start i and value i, and day (i / 7) % 5. Days 0, 2 and 4 are removed.
        let total = 3 * n + 10
        for i in 0..<total {
            log.append(piece(Int64(i), 1, Double(i)), key: Key(key: (i / 7) % 5, metric: 0))
        }
        XCTAssertEqual(log.count, total)
        var taken: [Int: [SumPiece]] = [:]
        log.removeGroups(where: { $0.key % 2 == 0 }) { taken[$0.key] = $1 }
        XCTAssertEqual(taken.keys.sorted(), [0, 2, 4])
        // What is left: exactly the pieces of days 1 and 3, in arrival order.
        let left = groups(log)
        XCTAssertEqual(left.map(\.0.key), [1, 3])
        for (key, pieces) in left {
            let expected = (0..<total).filter { ($0 / 7) % 5 == key.key }
            XCTAssertEqual(pieces.map(\.start), expected.map(Int64.init))
            XCTAssertEqual(pieces.map(\.value), expected.map(Double.init))
        }
        for (key, pieces) in taken {
            XCTAssertEqual(pieces.map(\.start), (0..<total).filter { ($0 / 7) % 5 == key }.map(Int64.init))
        }
        XCTAssertEqual(log.count, left.reduce(0) { $0 + $1.1.count })
        // New pieces after a removal land after the kept ones.
        log.append(piece(99_999, 1, -1), key: Key(key: 1, metric: 0))
        XCTAssertEqual(groups(log)[0].1.last?.start, 99_999)
        log.removeGroups(where: { _ in true }) { _, _ in }
        XCTAssertTrue(log.isEmpty)
        XCTAssertTrue(groups(log).isEmpty)
    }

    /// `forEachNewGroup` hands out only what came since its last call; a piece after a call does
    /// not join the run before it, even with the same key, and every group still holds all.
    func testNewGroupsAreWhatCameSinceTheLastCall() {
        var log = SumPieceLog()
        let k1 = Key(key: 1, metric: 0), k2 = Key(key: 2, metric: 0)
        XCTAssertTrue(log.append(piece(100, 10, 1), key: k1))
        XCTAssertFalse(log.append(piece(110, 10, 2), key: k1))  // same run
        var handed: [(Key, [Double])] = []
        log.forEachNewGroup { handed.append(($0, $1.map(\.value))) }
        XCTAssertEqual(handed.map(\.0), [k1])
        XCTAssertEqual(handed.map(\.1), [[1, 2]])
        // Same key after the call: a run of its own, handed out alone next time, with k2.
        XCTAssertTrue(log.append(piece(120, 10, 4), key: k1))
        XCTAssertTrue(log.append(piece(200, 10, 8), key: k2))
        handed = []
        log.forEachNewGroup { handed.append(($0, $1.map(\.value))) }
        XCTAssertEqual(handed.map(\.0), [k1, k2])
        XCTAssertEqual(handed.map(\.1), [[4], [8]])
        // Nothing new: nothing handed out. All groups: k1's three pieces together.
        handed = []
        log.forEachNewGroup { handed.append(($0, $1.map(\.value))) }
        XCTAssertTrue(handed.isEmpty)
        XCTAssertEqual(groups(log).map { $0.1.map(\.value) }, [[1, 2, 4], [8]])
        // After k1 is removed, a new piece for k2 comes out new on its own.
        log.removeGroups(where: { $0 == k1 }) { _, _ in }
        XCTAssertTrue(log.append(piece(210, 10, 16), key: k2))
        handed = []
        log.forEachNewGroup { handed.append(($0, $1.map(\.value))) }
        XCTAssertEqual(handed.map(\.1), [[16]])
    }

    /// The book over the log: a day resolved early (budget) and pieces that come for it again
    /// are late once, and its total is the early sum plus the late pieces' resolution.
    func testABookCountsALateDayOnceAndAddsItsLateSum() {
        var book = SumBook()
        let resolve: ([SumPiece]) -> Double = { $0.reduce(0) { $0 + $1.value } }
        // Metric 0: days 1 and 5. Day 5 moves the watermark to 5; days <= 3 are left behind.
        _ = book.add(piece(86_400, 60, 10), metric: 0, key: 1)
        _ = book.add(piece(86_400 + 60, 60, 20), metric: 0, key: 1)
        _ = book.add(piece(5 * 86_400, 60, 7), metric: 0, key: 5)
        XCTAssertEqual(book.waiting, 3)
        XCTAssertEqual(book.resolveLeftBehind(resolve), 1)  // day 1 (10 + 20 = 30) resolved
        // Two more pieces for day 1: late once (one day and metric reopened), not twice.
        _ = book.add(piece(86_400 + 200, 60, 4), metric: 0, key: 1)
        _ = book.add(piece(86_400 + 300, 60, 1), metric: 0, key: 1)
        XCTAssertEqual(book.latePieces, 1)
        let totals = book.totals(resolve)
        // Day 1: 30 resolved early + (4 + 1) waiting = 35; day 5: 7.
        XCTAssertEqual(totals.map(\.day), [1, 5])
        XCTAssertEqual(totals.map(\.value), [35, 7])
        // Resolved again: the reopened day is closed; a further piece is late once more.
        _ = book.resolveLeftBehind(resolve)
        _ = book.add(piece(86_400 + 400, 60, 2), metric: 0, key: 1)
        XCTAssertEqual(book.latePieces, 2)
        XCTAssertEqual(book.totals(resolve).map(\.value), [37, 7])  // 35 + 2
    }

    func testRunsAcrossTheirBlocksComeBackAndRemoveAsOneList() {
        // Runs are kept 1,024 a block. 2,500 pieces whose key changes every piece (days 0, 1, 0,
        // 1, … of metric 0, then metric 1 from piece 2,000 on) make 2,500 runs: three blocks
        // (1,024 + 1,024 + 452). Piece i starts at i and is worth i.
        var log = SumPieceLog()
        for i in 0..<2_500 {
            XCTAssertTrue(log.append(piece(Int64(i), 1, Double(i)), key: Key(key: i % 2, metric: i < 2_000 ? 0 : 1)))
        }
        XCTAssertEqual(log.runCount, 2_500)
        // Groups: day 0 metric 0 holds the even pieces below 2,000 (1,000 of them), day 0 metric 1
        // the even ones from 2,000 (250), day 1 likewise the odd ones (1,000 and 250).
        let g = groups(log)
        XCTAssertEqual(g.map(\.0), [Key(key: 0, metric: 0), Key(key: 0, metric: 1), Key(key: 1, metric: 0), Key(key: 1, metric: 1)])
        XCTAssertEqual(g.map { $0.1.count }, [1_000, 250, 1_000, 250])
        // Arrival order across the run blocks: day 1 metric 0's pieces are 1, 3, 5, …, 1,999,
        // whose values add up to 1,000² = 1,000,000.
        XCTAssertEqual(g[2].1.first?.start, 1)
        XCTAssertEqual(g[2].1.last?.start, 1_999)
        XCTAssertEqual(g[2].1.reduce(0) { $0 + $1.value }, 1_000_000)
        // Removing metric 0 (2,000 runs) leaves metric 1's 500 runs, moved down into the first block.
        var removed = 0
        log.removeGroups(where: { $0.metric == 0 }) { _, pieces in removed += pieces.count }
        XCTAssertEqual(removed, 2_000)
        XCTAssertEqual(log.runCount, 500)
        XCTAssertEqual(log.count, 500)
        let left = groups(log)
        XCTAssertEqual(left.map(\.0), [Key(key: 0, metric: 1), Key(key: 1, metric: 1)])
        // Day 0 metric 1: the even pieces 2,000 … 2,498: 250 of them, worth (2,000 + 2,498) × 250 / 2 = 562,250.
        XCTAssertEqual(left[0].1.reduce(0) { $0 + $1.value }, 562_250)
        XCTAssertEqual(left[1].1.first?.start, 2_001)
        // A piece after the removal continues the last run (day 1 metric 1, piece 2,499).
        XCTAssertFalse(log.append(piece(2_600, 1, 1), key: Key(key: 1, metric: 1)))
        XCTAssertEqual(log.runCount, 500)
        // Removing everything frees every run.
        log.removeGroups(where: { _ in true }) { _, _ in }
        XCTAssertEqual(log.runCount, 0)
        XCTAssertTrue(log.isEmpty)
        XCTAssertTrue(log.append(piece(5, 1, 1), key: Key(key: 3, metric: 0)))
        XCTAssertEqual(log.runCount, 1)
    }
}
