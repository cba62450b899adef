import XCTest

@testable import ExportParser

/// The page's chart series (`CompareSeries`): a field's tolerance band and unit come from its rows
/// in date order, whatever order a dictionary hands them in.
final class CompareSeriesTests: XCTestCase {
    /// Seventy fields over a seven-date window (2024-03-01 … 03-07), each with a row on every
    /// date: field k's row on date k mod 7 is not comparable (no tolerance, no unit, as HAE's
    /// heart-rate count of buckets), the six others match within ±2 % in `count`. Taking a
    /// field's "first" row from its dictionary (whose order is the instance's own) gave a field
    /// no tolerance with chance 1/7: all seventy escape it with chance (6/7)^70, about 2 in
    /// 100,000. From date order, each field's first row stating them gives ±2 % and `count`; HAE
    /// 100 on every date, so each band is 100 ± 2 = 98…102, the not-comparable date's too.
    func testEachFieldTakesItsToleranceAndUnitFromItsDatedRows() throws {
        let first = try XCTUnwrap(CivilDate.parseISODate("2024-03-01"))
        let window = Comparison.Window(from: first, to: first + 6)
        var comparison = Comparison(native: [:], hae: [:], window: window, tolerances: Tolerances())
        let twoPercent = Tolerance(.relative(0.02))
        for k in 0..<70 {
            for (d, date) in window.dates.enumerated() {
                let odd = d == k % 7
                comparison.rows.append(
                    CompareRow(
                        date: date, field: "metrics.field_\(k)", unit: odd ? nil : "count", native: .number(101), hae: .number(100),
                        tolerance: odd ? nil : twoPercent, status: odd ? .notComparable : .match))
            }
        }
        let series = CompareSeries.build(native: [:], hae: [:], window: window, comparison: comparison)
        XCTAssertEqual(series.count, 70)
        for s in series {
            XCTAssertEqual(s.tolerance, twoPercent, s.field)
            XCTAssertEqual(s.unit, "count", s.field)
            XCTAssertEqual(s.points.map(\.band), Array(repeating: 98.0...102.0, count: 7), s.field)
        }
    }
}
