import XCTest

@testable import ExportParser

/// `SpilledList` writes its full blocks to a temporary file and gives every value back, in the
/// order appended, from `restore`: memory holds one block while values arrive.
final class SpilledListTests: XCTestCase {
    private struct Pair: Equatable {
        var a: Int64
        var b: Int32
    }

    func testValuesComeBackInOrderAndMemoryHoldsOneBlock() {
        // 10,000 values in blocks of 4,096: two full blocks go to the file (8,192 values), the
        // last 1,808 stay in memory (10,000 - 8,192 = 1,808).
        var list = SpilledList<Pair>(blockSize: 4_096)
        for i in 0..<10_000 {
            list.append(Pair(a: Int64(i) * 3, b: Int32(-i)))
            XCTAssertLessThan(list.inMemory, 4_096)
        }
        XCTAssertEqual(list.count, 10_000)
        XCTAssertEqual(list.inMemory, 1_808)
        let back = list.restore()
        XCTAssertEqual(back.count, 10_000)
        for i in [0, 1, 4_095, 4_096, 8_191, 8_192, 9_999] {
            XCTAssertEqual(back[i], Pair(a: Int64(i) * 3, b: Int32(-i)), "value \(i)")
        }
        var n = 0, mismatches = 0
        back.forEach { p in
            if p != Pair(a: Int64(n) * 3, b: Int32(-n)) { mismatches += 1 }
            n += 1
        }
        XCTAssertEqual(mismatches, 0)
        XCTAssertEqual(list.count, 0, "restore empties the list")
    }

    func testAWholeNumberOfBlocksLeavesNothingInMemory() {
        // 6 values in blocks of 3: both blocks spilled, none left in memory.
        var list = SpilledList<Int64>(blockSize: 3)
        for v: Int64 in [5, -1, 7, 0, 2, 9] { list.append(v) }
        XCTAssertEqual(list.inMemory, 0)
        let back = list.restore()
        var values: [Int64] = []
        back.forEach { values.append($0) }
        XCTAssertEqual(values, [5, -1, 7, 0, 2, 9])
    }

    func testAnEmptyListRestoresEmpty() {
        var list = SpilledList<Int64>()
        XCTAssertEqual(list.restore().count, 0)
    }
}
