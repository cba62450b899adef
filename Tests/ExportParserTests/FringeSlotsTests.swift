import XCTest

@testable import ExportParser

/// `FringeSlots` keeps what near-midnight samples gave per quarter-hour slot in flat rows and
/// merges the slots into their dates in key order: each rule must fold as `DayAccumulators` does,
/// a slot's first offset and zone must reach its date as a merged slot's did, and slots beyond a
/// block of rows must keep their own chains.
final class FringeSlotsTests: XCTestCase {
    // Three metrics of different rules, any indices of the catalog's.
    private let hrv = Catalog.metric(named: "hrv").index  // avg
    private let vo2 = Catalog.metric(named: "vo2max").index  // latest
    private let heart = Catalog.metric(named: "heart_rate_samples").index  // minmaxavg

    private func finished(_ d: DayAccumulators) -> FinishedDay {
        var day = FinishedDay(dayNumber: 0, timezone: "UTC", deviceSyncTimestamp: "x")
        d.finish(into: &day)
        return day
    }

    func testSlotsFoldEachRuleAndMergeIntoTheirDatesInKeyOrder() throws {
        var slots = FringeSlots()
        // Keys 10 and 20 turn out to be on date A, key 30 on date B. Slot 20 is made first, with
        // no zone name on its first sample; slot 10 second, when the book had seen 5 samples.
        let s20 = slots.slot(20, zone: nil, offset: 3_600, order: 2)
        let s10 = slots.slot(10, zone: "Europe/Paris", offset: 7_200, order: 5)
        // A later sample in slot 20 gives it a zone name; its offset stays the first one.
        XCTAssertEqual(slots.slot(20, zone: "Europe/Berlin", offset: 0, order: 9), s20)
        let s30 = slots.slot(30, zone: nil, offset: 0, order: 7)
        XCTAssertEqual(slots.count, 3)

        // avg (hrv): slot 10 gets 10 and 20, slot 20 gets 30, slot 30 gets 50.
        slots.addAverage(s10, metric: hrv, 10)
        slots.addAverage(s20, metric: hrv, 30)
        slots.addAverage(s10, metric: hrv, 20)
        slots.addAverage(s30, metric: hrv, 50)
        // latest (vo2max): slot 10 ends at 100 (41) then 90 (40: earlier, ignored); slot 20 ends
        // at 100 too (43: ties the other slot's end).
        slots.addLatest(s10, metric: vo2, 41, end: 100)
        slots.addLatest(s10, metric: vo2, 40, end: 90)
        slots.addLatest(s20, metric: vo2, 43, end: 100)
        // minmaxavg (heart rate): slot 20 gets 60 and 80, slot 10 gets 100.
        slots.addMinMax(s20, metric: heart, 60, bucketMinimum: nil, bucketMaximum: nil, isBucket: false)
        slots.addMinMax(s20, metric: heart, 80, bucketMinimum: nil, bucketMaximum: nil, isBucket: false)
        slots.addMinMax(s10, metric: heart, 100, bucketMinimum: nil, bucketMaximum: nil, isBucket: false)

        // Date A already holds one hrv value (40) and its own first offset, seen at sample 3.
        let a = DayAccumulators(), b = DayAccumulators()
        a.note(zone: nil, offset: -3_600, order: 3)
        a.addAverage(metric: hrv, 40)
        var merged: [Int] = []
        slots.mergeAll(
            into: { key in
                merged.append(key)
                return key == 30 ? b : a
            }, isLatest: { Catalog.metrics[$0].rule == .latest })
        XCTAssertEqual(merged, [10, 20, 30], "slots merge in key order")
        XCTAssertEqual(slots.count, 0, "merged slots are freed")

        let dayA = finished(a), dayB = finished(b)
        // hrv on A: (40 + 10 + 20 + 30) / 4 = 25.
        XCTAssertEqual(dayA.values[hrv] ?? 0, 25, accuracy: 1e-12)
        // vo2max on A: slot 10 (key order first) gives 41 at end 100; slot 20's 43 ties at 100
        // and a tie keeps what the date had.
        XCTAssertEqual(dayA.values[vo2] ?? 0, 41)
        // Heart rate on A: 100, 60, 80: mean 240 / 3 = 80, min 60, max 100, count 3.
        XCTAssertEqual(dayA.summaries[heart], MinMaxAvgSummary(average: 80, minimum: 60, maximum: 100, count: 3))
        // A's offset: slot 20's (seen at sample 2) is earlier than A's own (3) and slot 10's (5);
        // its zone: the first slot merged that had one, slot 10's.
        XCTAssertEqual(a.offset, 3_600)
        XCTAssertEqual(a.zoneName, "Europe/Paris")
        // B: slot 30 alone: hrv 50, offset 0, no zone name.
        XCTAssertEqual(dayB.values[hrv] ?? 0, 50)
        XCTAssertNil(dayB.values[vo2])
        XCTAssertEqual(b.offset, 0)
        XCTAssertNil(b.zoneName)
    }

    func testChainsStayApartAcrossBlocks() {
        // 5,000 slots, each with hrv k and heart rate 2k, and the odd ones vo2max 3k: 7,500 plain
        // rows and 5,000 minmaxavg rows, both past their first 4,096-row block. Merged each into
        // a date of its own.
        var slots = FringeSlots()
        for k in 0..<5_000 {
            let s = slots.slot(k, zone: nil, offset: 0, order: k)
            slots.addAverage(s, metric: hrv, Double(k))
            slots.addMinMax(s, metric: heart, Double(2 * k), bucketMinimum: nil, bucketMaximum: nil, isBucket: false)
            if k % 2 == 1 { slots.addLatest(s, metric: vo2, Double(3 * k), end: Int64(k)) }
        }
        var dates: [Int: DayAccumulators] = [:]
        slots.mergeAll(
            into: { key in
                let d = DayAccumulators()
                dates[key] = d
                return d
            }, isLatest: { Catalog.metrics[$0].rule == .latest })
        XCTAssertEqual(dates.count, 5_000)
        for k in [0, 1, 4_095, 4_096, 4_097, 4_999] {
            let day = finished(dates[k]!)
            XCTAssertEqual(day.values[hrv] ?? -1, Double(k), "slot \(k)")
            XCTAssertEqual(
                day.summaries[heart], MinMaxAvgSummary(average: Double(2 * k), minimum: Double(2 * k), maximum: Double(2 * k), count: 1))
            XCTAssertEqual(day.values[vo2] ?? nil, k % 2 == 1 ? Double(3 * k) : nil, "slot \(k)")
        }
    }
}
