import Foundation
import XCTest

@testable import ExportParser

/// `RecentDateParser` remembers the last date and offset it read: every answer must still be
/// `TimestampParser.parse`'s, whatever came before.
final class RecentDateParserTests: XCTestCase {
    private func parse(_ texts: [String]) -> [Timestamp?] {
        var parser = RecentDateParser()
        return texts.map { text in
            var t = text
            return t.withUTF8 { b in b.baseAddress.flatMap { parser.parse($0, b.count) } }
        }
    }

    func testTimesOfADayRememberedAreWorkedOutAsWritten() {
        // 2024-01-02 is day 19,724 (2023-12-31 is 19,722): 19,724 × 86,400 = 1,704,153,600.
        let got = parse([
            "2024-01-02 07:00:00 +0100",  // + 25,200 − 3,600 = 1,704,175,200
            "2024-01-02 07:08:09 +0100",  // + 25,689 − 3,600 = 1,704,175,689 (the date remembered)
            "2024-01-02 23:59:60 +0100",  // a leap second: + 86,400 − 3,600 = 1,704,236,400
            "2024-01-02 07:00:00 -0500",  // another offset: + 25,200 + 18,000 = 1,704,196,800
            "2024-01-03 00:00:00 -0500",  // the next day: 1,704,240,000 + 18,000 = 1,704,258,000
        ])
        XCTAssertEqual(got.map { $0?.seconds }, [1_704_175_200, 1_704_175_689, 1_704_236_400, 1_704_196_800, 1_704_258_000])
        XCTAssertEqual(got.map { $0?.offset }, [3600, 3600, 3600, -18000, -18000])
    }

    func testBadTimesOnARememberedDateAreRefusedAsBefore() {
        let texts = [
            "2024-01-02 07:00:00 +0100",
            "2024-01-02 24:00:00 +0100", "2024-01-02 07:60:00 +0100", "2024-01-02 07:00:61 +0100",
            "2024-01-02 07-00:00 +0100", "2024-01-02 07:00-00 +0100", "2024-01-02 0a:00:00 +0100",
            "2024-01-02 07:00:00 +0100",
        ]
        let got = parse(texts)
        XCTAssertNotNil(got[0])
        for i in 1...6 { XCTAssertNil(got[i], texts[i]) }
        XCTAssertEqual(got[7], got[0])
    }

    func testEveryAnswerIsTimestampParsers() {
        // Dates that are and are not remembered, valid and not, in every layout, one after another.
        let texts = [
            "2024-02-29 12:00:00 +0100", "2024-02-29 13:00:00 +0100", "2023-02-29 12:00:00 +0100", "2023-02-28 12:00:00 +0100",
            "2024-02-29T12:00:00+01:00", "2024-02-29 12:00:00 +0100", "2024-02-29 12:00:00 +01:00", "2024-02-29 12:00:00Z",
            "2024-02-29 1:00:00 PM +0100", "2024-02-29 12:00:00 +0100", "2024-02-29 12:00:00 +1900", "2024-02-29 12:00:00 +0160",
            "2024-02-29 12:00:00 *0100", "2024-02-29", "2024-13-01 12:00:00 +0100", "2024-02-29 12:00:00 +0100", "",
            "2024-02-29 12:00:00.5 +0100", "2024-02-29 12:00:00 +0100", "2024-02-29 12:00:00 +0000", "2024-02-29 12:00:00 -0000",
        ]
        let got = parse(texts)
        for (text, t) in zip(texts, got) { XCTAssertEqual(t, TimestampParser.parse(text), text) }
    }
}
