import XCTest

@testable import ExportParser

/// `ExportWindow.censusTimestamp`: the census's parse of a record's dates, which takes the day of
/// the date before it (`DayMemo`), gives `TimestampParser.parse`'s value for every input. Each
/// case is parsed in order with one memo, so each later date of a day takes the memo's path.
///
/// Day numbers by hand: 2024-01-01 is day 19,723 (1,704,067,200 s / 86,400). 2024-02-29 is
/// 19,723 + 31 + 28 = 19,782; 2024-03-31 is 19,723 + 31 + 29 + 30 = 19,813; 2024-12-31 is
/// 19,723 + 365 = 20,088 (2024 has 366 days); 2025-01-01 is 20,089.
final class CensusTimestampTests: XCTestCase {
    private func parse(_ text: String, _ memo: inout ExportWindow.DayMemo) -> Timestamp? {
        let bytes = Array(text.utf8)
        let got = bytes.withUnsafeBufferPointer { ExportWindow.censusTimestamp($0.baseAddress!, $0.count, memo: &memo) }
        XCTAssertEqual(got, TimestampParser.parse(bytes), text)
        return got
    }

    func testDaylightSavingChangeTakesTheMemosDayWithEachOffset() {
        var memo = ExportWindow.DayMemo()
        // 19,813 × 86,400 = 1,711,843,200; 01:59:59 is 7,199 s; +01:00 is 3,600 s: 1,711,846,799.
        XCTAssertEqual(parse("2024-03-31 01:59:59 +0100", &memo), Timestamp(seconds: 1_711_846_799, offset: 3600))
        XCTAssertTrue(memo.valid)
        XCTAssertEqual(memo.day, 19_813)
        // Summer time, the same day from the memo: 1,711,843,200 + 10,800 − 7,200 = 1,711,846,800.
        XCTAssertEqual(parse("2024-03-31 03:00:00 +0200", &memo), Timestamp(seconds: 1_711_846_800, offset: 7200))
        // A leap second as the reader takes it (ss 60): 1,711,843,200 + 86,400 − 3,600 = 1,711,926,000.
        XCTAssertEqual(parse("2024-03-31 23:59:60 +0100", &memo), Timestamp(seconds: 1_711_926_000, offset: 3600))
        XCTAssertEqual(memo.day, 19_813)
    }

    func testOddOffsetsLeapDayAndYearEdges() {
        var memo = ExportWindow.DayMemo()
        // Leap day at +05:45: 19,782 × 86,400 = 1,709,164,800; 23:45 is 85,500 s; +05:45 is
        // 20,700 s: 1,709,164,800 + 85,500 − 20,700 = 1,709,229,600.
        XCTAssertEqual(parse("2024-02-29 23:45:00 +0545", &memo), Timestamp(seconds: 1_709_229_600, offset: 20_700))
        XCTAssertEqual(memo.day, 19_782)
        // The year's last second at −09:30: 20,088 × 86,400 = 1,735,603,200; + 86,399 + 34,200
        // = 1,735,723,799.
        XCTAssertEqual(parse("2024-12-31 23:59:59 -0930", &memo), Timestamp(seconds: 1_735_723_799, offset: -34_200))
        // The next year's first at +14:00: 20,089 × 86,400 = 1,735,689,600; − 50,400 = 1,735,639,200.
        XCTAssertEqual(parse("2025-01-01 00:00:00 +1400", &memo), Timestamp(seconds: 1_735_639_200, offset: 50_400))
        XCTAssertEqual(memo.day, 20_089)
        // Before 1970 (a floor division): 1969-12-31 is day −1: −86,400 + 43,200 = −43,200.
        XCTAssertEqual(parse("1969-12-31 12:00:00 +0000", &memo), Timestamp(seconds: -43_200, offset: 0))
        XCTAssertEqual(memo.day, -1)
    }

    func testMalformedBytesGoToTheFullParser() {
        var memo = ExportWindow.DayMemo()
        _ = parse("2024-03-31 01:59:59 +0100", &memo)
        // The memo's day with a time or offset the fixed layout refuses: the full parser's answer.
        XCTAssertNil(parse("2024-03-31 24:00:00 +0100", &memo))  // hour 24
        XCTAssertNil(parse("2024-03-31 07:60:00 +0100", &memo))  // minute 60
        XCTAssertNil(parse("2024-03-31 07:50:00 +1900", &memo))  // offset over 18 h
        XCTAssertNil(parse("2024-03-31 07:50:00 *0100", &memo))  // no sign
        // `+01:0` is no fixed offset; the lenient parser reads +01:00: 1,711,843,200 + 28,200 −
        // 3,600 = 1,711,867,800.
        XCTAssertEqual(parse("2024-03-31 07:50:00 +01:0", &memo), Timestamp(seconds: 1_711_867_800, offset: 3600))
        // Another layout (ISO, 20 bytes): 1,711,843,200 + 7,199 = 1,711,850,399.
        XCTAssertEqual(parse("2024-03-31T01:59:59Z", &memo), Timestamp(seconds: 1_711_850_399, offset: 0))
        XCTAssertEqual(memo.day, 19_813)
        // A day that does not exist, or a byte that is not a digit, never becomes the memo's.
        XCTAssertNil(parse("2023-02-29 10:00:00 +0000", &memo))
        XCTAssertNil(parse("2023-02-29 10:00:00 +0000", &memo))
        XCTAssertNil(parse("2024-0a-31 10:00:00 +0000", &memo))
        XCTAssertEqual(memo.day, 19_813)
        // A NUL inside the time, with the memo's day.
        XCTAssertNil(parse("2024-03-31 0\u{0}:00:00 +0000", &memo))
        XCTAssertEqual(parse("2024-03-31 00:00:00 +0000", &memo), Timestamp(seconds: 1_711_843_200, offset: 0))
    }
}
