import XCTest

@testable import ExportParser

/// A finished day's values in 8 bytes a metric (`DayValues`): they read, write and clear as the
/// `[Double?]` they replace did, a NaN a rule made included (issue 24).
final class DayValuesTests: XCTestCase {
    func testANewDayHasNoValueForAnyMetric() {
        let v = DayValues(count: 3)
        XCTAssertEqual(v.count, 3)
        XCTAssertEqual(Array(v), [nil, nil, nil])
    }

    func testValuesAreSetReadAndClearedByMetric() {
        var v = DayValues(count: 4)
        // Metric 1 gets 12.5, metric 3 gets 0 (a value, not none) and -7.25; metric 1 is cleared.
        v[1] = 12.5
        v[3] = 0
        XCTAssertEqual(Array(v), [nil, 12.5, nil, 0])
        v[3] = -7.25
        v[1] = nil
        XCTAssertEqual(Array(v), [nil, nil, nil, -7.25])
        // What the finish does with a sum into a day: none counts as 0, so 0 + 4 = 4, then 4 + 1.5 = 5.5.
        v[0] = (v[0] ?? 0) + 4
        v[0] = (v[0] ?? 0) + 1.5
        XCTAssertEqual(v[0], 5.5)
        // The positions that hold a value: 0 and 3.
        XCTAssertEqual(v.indices.filter { v[$0] != nil }, [0, 3])
    }

    func testItKeepsWhatAnArrayOfOptionalsGaveIt() {
        let given: [Double?] = [nil, 1, .infinity, nil, -0.0]
        let v = DayValues(given)
        XCTAssertEqual(v.count, 5)
        XCTAssertEqual(v.map { $0?.bitPattern }, given.map { $0?.bitPattern })
    }

    func testANaNARuleMadeIsAValueNotNone() throws {
        // ∞ − ∞ is NaN: the processor's default NaN, whose bits are not those of "none", so the
        // slot holds a value (which `withFiniteValues` then drops), as a `Double?` did.
        var v = DayValues(count: 2)
        let inf = Double.infinity
        v[0] = inf - inf
        let made = try XCTUnwrap(v[0])
        XCTAssertTrue(made.isNaN)
        XCTAssertNil(v[1])
        var day = FinishedDay(dayNumber: 19_784, timezone: "+01:00", deviceSyncTimestamp: "2024-03-05T08:00:00+01:00")
        day.values[0] = inf - inf
        day.values[1] = 3
        let finite = day.withFiniteValues
        XCTAssertNil(finite.values[0])
        XCTAssertEqual(finite.values[1], 3)
    }
}
