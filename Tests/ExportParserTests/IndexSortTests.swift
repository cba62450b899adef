import XCTest

@testable import ExportParser

/// `IndexSort`: values sorted by a unique key through an index, moved along the permutation's
/// cycles (the day book's finish sorts its days this way).
final class IndexSortTests: XCTestCase {
    func testValuesEndInKeyOrderAlongEveryCycle() {
        // Keys 30, 10, 20, 50, 40: sorted positions are [1, 2, 0, 4, 3], two cycles:
        // 0 → 1 → 2 → 0 (three values) and 3 → 4 → 3 (two).
        var values = [(30, "c"), (10, "a"), (20, "b"), (50, "e"), (40, "d")]
        IndexSort.sort(&values) { $0.0 }
        XCTAssertEqual(values.map(\.0), [10, 20, 30, 40, 50])
        XCTAssertEqual(values.map(\.1), ["a", "b", "c", "d", "e"])
    }

    func testSortedReversedAndTinyInputs() {
        var sorted = [1, 2, 3]
        IndexSort.sort(&sorted) { $0 }
        XCTAssertEqual(sorted, [1, 2, 3])
        // Reversed: two cycles of two (0 ↔ 3, 1 ↔ 2).
        var reversed = [4, 3, 2, 1]
        IndexSort.sort(&reversed) { $0 }
        XCTAssertEqual(reversed, [1, 2, 3, 4])
        var one = [7]
        IndexSort.sort(&one) { $0 }
        XCTAssertEqual(one, [7])
        var none: [Int] = []
        IndexSort.sort(&none) { $0 }
        XCTAssertEqual(none, [])
    }

    func testFinishedDaysSortByDayNumber() {
        // 2024-01-01 is day 19,723 after 1970-01-01, so 2024-03-01 is 19,723 + 31 + 29 = 19,783:
        // days 19,786, 19,784, 19,785 (03-04, 03-02, 03-03) end as 03-02, 03-03, 03-04.
        var days = [19_786, 19_784, 19_785].map { FinishedDay(dayNumber: $0, timezone: "+01:00", deviceSyncTimestamp: "x") }
        IndexSort.sort(&days) { $0.dayNumber }
        XCTAssertEqual(days.map(\.date), ["2024-03-02", "2024-03-03", "2024-03-04"])
    }
}
