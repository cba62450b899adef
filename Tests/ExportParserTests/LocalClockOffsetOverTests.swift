import Foundation
import XCTest

@testable import ExportParser

/// `LocalClock.offset(over:_:recorded:)`: the offset of a span that one constant-offset interval
/// holds, else nil (`WindowCensus.dates` then dates each quarter-hour alone).
final class LocalClockOffsetOverTests: XCTestCase {
    // Europe/Amsterdam went to summer time on 2024-03-31 at 01:00 UTC (+01:00 → +02:00):
    // 2024-03-31 00:00 UTC is 1,711,843,200 s; the change 3,600 s later, 1,711,846,800.
    let midnightUTC: Int64 = 1_711_843_200
    let change: Int64 = 1_711_846_800
    let sixteenHours: Int64 = 64 * 900

    func testASpanInsideOneOffsetGivesIt() throws {
        let clock = LocalClock(zone: try XCTUnwrap(TimeZone(identifier: "Europe/Amsterdam")))
        // The day before: 2024-03-30 00:00–16:00 UTC, all +01:00.
        XCTAssertEqual(clock.offset(over: midnightUTC - 86_400, midnightUTC - 86_400 + sixteenHours, recorded: 0), 3_600)
        // From the change on: +02:00 for the 16 hours after it.
        XCTAssertEqual(clock.offset(over: change, change + sixteenHours, recorded: 0), 7_200)
        // Ending exactly at the change: the span is [from, to), all before it.
        XCTAssertEqual(clock.offset(over: change - sixteenHours, change, recorded: 0), 3_600)
    }

    func testASpanOverAChangeGivesNone() throws {
        let clock = LocalClock(zone: try XCTUnwrap(TimeZone(identifier: "Europe/Amsterdam")))
        // 00:00–16:00 UTC on the day of the change holds 01:00 UTC.
        XCTAssertNil(clock.offset(over: midnightUTC, midnightUTC + sixteenHours, recorded: 0))
        // One second past the change is enough.
        XCTAssertNil(clock.offset(over: change - sixteenHours + 1, change + 1, recorded: 0))
    }

    func testAClockOfRecordedOffsetsGivesTheRecordedOne() {
        // No zone: each instant's recorded offset, whatever the span (+05:45, Nepal).
        XCTAssertEqual(LocalClock(zone: nil).offset(over: midnightUTC, midnightUTC + sixteenHours, recorded: 20_700), 20_700)
    }
}
