import XCTest

@testable import ExportParser

/// `MetricSlots`, the per-metric map a date, a fringe slot and a sum day hold: it must answer as
/// the dictionary it replaced did.
final class MetricSlotsTests: XCTestCase {
    func testLookupSetAndRemove() {
        var m = MetricSlots<Double>()
        XCTAssertTrue(m.isEmpty)
        XCTAssertNil(m[3])
        m[3] = 1.5
        m[7] = 2.0
        m[3] = 4.0  // replaces, does not add
        XCTAssertEqual(m.count, 2)
        XCTAssertEqual(m[3], 4.0)
        XCTAssertEqual(m[7], 2.0)
        m[3] = nil
        XCTAssertNil(m[3])
        XCTAssertEqual(m.count, 1)
        m[9] = nil  // removing a missing key changes nothing
        XCTAssertEqual(m.count, 1)
    }

    /// The default subscript adds the default once, then modifies in place: 0 + 2 + 3 = 5 for
    /// metric 1, 0 + 10 = 10 for metric 2.
    func testDefaultSubscriptModifiesInPlace() {
        var m = MetricSlots<Double>()
        m[1, default: 0] += 2
        m[2, default: 0] += 10
        m[1, default: 0] += 3
        XCTAssertEqual(m[1], 5)
        XCTAssertEqual(m[2], 10)
        XCTAssertEqual(m.count, 2)
        XCTAssertEqual(m[4, default: 7], 7)  // reading with a default adds nothing
        XCTAssertEqual(m.count, 2)
    }

    /// Iteration in the order of first insertion; removeAll keeps the others in order.
    func testIterationOrderAndRemoveAll() {
        var m = MetricSlots<Int>()
        for k in [5, 2, 8, 1] { m[k] = k * 10 }
        m[2, default: 0] += 1  // 20 + 1 = 21, stays second
        XCTAssertEqual(m.map(\.metric), [5, 2, 8, 1])
        XCTAssertEqual(m.map(\.value), [50, 21, 80, 10])
        m.removeAll { metric, value in metric > 4 || value == 10 }  // removes 5, 8 and 1
        XCTAssertEqual(m.map(\.metric), [2])
        m.removeAll { _, _ in true }
        XCTAssertTrue(m.isEmpty)
        m[6] = 60  // usable again after being emptied
        XCTAssertEqual(m[6], 60)
    }

    func testAMapHoldsRoomForItsEntriesNotTheDoubledRoomOfAnAppend() {
        // Five metrics added one at a time, as a date's averages are: an array's append doubles
        // its room (1, 2, 4, 8), so five entries would sit in room for 8 (24 bytes each: 72
        // bytes unused); here the room grows to the count. The allocator may round a block up
        // (16-byte steps: 32 + 5 × 24 = 152 bytes asked), so at most one entry's more, never 8.
        var slots = MetricSlots<(sum: Double, count: Int)>()
        for metric in [4, 0, 7, 2, 9] { slots[metric, default: (0, 0)].count += 1 }
        XCTAssertEqual(slots.count, 5)
        XCTAssertGreaterThanOrEqual(slots.capacity, 5)
        XCTAssertLessThanOrEqual(slots.capacity, 6)
        // An entry of a metric already held takes no room: still five, the same room.
        let room = slots.capacity
        slots[7, default: (0, 0)].count += 1
        slots[9] = (2.5, 1)
        XCTAssertEqual(slots.count, 5)
        XCTAssertEqual(slots.capacity, room)
        XCTAssertEqual(slots[7]?.count, 2)
        XCTAssertEqual(slots[9]?.sum, 2.5)
    }
}
