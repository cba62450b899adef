import XCTest

@testable import ExportParser

/// One difference is written one way wherever `compare` writes it (docs/compare.md): the table's
/// difference column (`CompareText.difference`: terminal and page) and the verdict's exceptions
/// (`FieldVerdict.exceptionText`). The table wrote `-1000 (10.0 %)`, the verdict `−1,000 (−10 %)`.
final class CompareSignTests: XCTestCase {
    private func row(field: String, unit: String, decimals: Int, native: Double, hae: Double, tolerance: Tolerance.Measure) -> CompareRow {
        CompareRow(
            date: "2024-03-04", field: field, workout: nil, unit: unit, decimals: decimals, native: .number(native), hae: .number(hae),
            difference: native - hae, relativeDifference: abs(native - hae) / abs(hae), tolerance: Tolerance(tolerance, unit: unit),
            status: .mismatch)
    }

    func testBothPlacesSignTheDifferenceAndItsPerCentAlike() {
        // Native 9,000 steps, HAE 10,000: 9,000 − 10,000 = −1,000; 1,000 / 10,000 = 10 %, signed −.
        let fewer = row(field: "metrics.step_count", unit: "count", decimals: 0, native: 9000, hae: 10000, tolerance: .relative(0.02))
        XCTAssertEqual(CompareText.difference(fewer), "−1000 (−10 %)")
        XCTAssertEqual(FieldVerdict.exceptionText(fewer), "−1000 (−10 %)")
        // Native 10,500, HAE 10,000: +500; 500 / 10,000 = 5 %, signed +.
        let more = row(field: "metrics.step_count", unit: "count", decimals: 0, native: 10500, hae: 10000, tolerance: .relative(0.02))
        XCTAssertEqual(CompareText.difference(more), "+500 (+5 %)")
        XCTAssertEqual(FieldVerdict.exceptionText(more), "+500 (+5 %)")
        // Sleep 7 h against 7.2 h: −0.2 h = −12 min, in both.
        let sleep = row(field: "sleep.total_hours", unit: "hr", decimals: 2, native: 7, hae: 7.2, tolerance: .minutes(10))
        XCTAssertEqual(CompareText.difference(sleep), "−12 min")
        XCTAssertEqual(FieldVerdict.exceptionText(sleep), "−12 min")
    }
}
