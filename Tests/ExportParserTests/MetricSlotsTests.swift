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
}
