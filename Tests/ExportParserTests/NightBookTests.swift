import XCTest

@testable import ExportParser

/// `NightBook` keeps sleep samples as they came and places them in their nights only at the end
/// (`place`: chained into sessions in order of start, an index sorted by session): nights
/// interleaved in the input must still come out whole, each from its own samples, and a night's
/// first sample must be the first one added (docs/rules.md, "Nights").
final class NightBookTests: XCTestCase {
    private let utc = LocalClock(zone: TimeZone(identifier: "UTC"))

    private func at(_ date: String, _ hour: Int64) -> Int64 { Int64(CivilDate.parseISODate(date)!) * 86_400 + hour * 3_600 }

    private func sample(_ stage: SleepSegment.Stage, _ from: (String, Int64), _ to: (String, Int64), offset: Int32) -> WaitingSleepSample {
        let segment = SleepSegment(
            start: Timestamp(seconds: at(from.0, from.1), offset: offset), end: Timestamp(seconds: at(to.0, to.1), offset: offset),
            stage: stage, source: "Watch")
        return WaitingSleepSample(segment, source: 0)
    }

    func testInterleavedNightsArePlacedWholeAndTheFirstAddedSampleGivesTheOffset() throws {
        var book = NightBook()
        // Added in this order; with a UTC clock a session is the date it ends on: samples 4, 1 and
        // 3 (by start: 22:00, 23:00, 03:00, each before the end so far) are one session ending
        // 03-02 04:00; sample 2 starts 20 h later, a session of its own ending on 2024-03-03.
        book.addSample(sample(.core, ("2024-03-01", 23), ("2024-03-02", 3), offset: 3_600))  // 1: 4 h core
        book.addSample(sample(.deep, ("2024-03-03", 0), ("2024-03-03", 2), offset: 7_200))  // 2: 2 h deep
        book.addSample(sample(.rem, ("2024-03-02", 3), ("2024-03-02", 4), offset: 0))  // 3: 1 h REM
        // 4: in bed 22:00-04:00, the night's earliest start, added last.
        book.addSample(sample(.inBed, ("2024-03-01", 22), ("2024-03-02", 4), offset: -3_600))
        // Wrist temperature (metric 7 here, any index): 36.5 and 36.8 on the night of 03-02, one
        // 35.0 on a night with no sleep samples (03-04).
        let second = CivilDate.parseISODate("2024-03-02")!, third = second + 1, fourth = second + 2
        book.addNightAvg(metric: 7, 36.5, night: second)
        book.addNightAvg(metric: 7, 36.8, night: second)
        book.addNightAvg(metric: 7, 35.0, night: fourth)
        book.place(clock: utc)

        // The night's first sample added (1), not the one that starts first (4).
        XCTAssertEqual(book.firstSegmentOffset(second), 3_600)
        XCTAssertEqual(book.firstSegmentOffset(third), 7_200)
        XCTAssertNil(book.firstSegmentOffset(fourth))
        XCTAssertNil(book.firstSegmentOffset(second - 1))

        // The day book finishes the nights from a copy and lets go of its own samples: the copy
        // still holds them, and the released book still knows each night's first offset.
        let copy = book
        book.releaseSamples()
        XCTAssertEqual(book.firstSegmentOffset(second), 3_600)
        XCTAssertEqual(book.firstSegmentOffset(third), 7_200)
        XCTAssertNil(book.firstSegmentOffset(fourth))
        XCTAssertNil(book.finish(priority: SourcePriority(), clock: utc, watches: ["Watch"], names: ["Watch"])[second]?.sleep)

        let nights = copy.finish(priority: SourcePriority(), clock: utc, watches: ["Watch"], names: ["Watch"])
        XCTAssertEqual(Set(nights.keys), [second, third, fourth])
        // 03-02: core 23:00-03:00 = 4 h, REM 03:00-04:00 = 1 h: 4 + 1 = 5 h asleep (in bed is
        // not sleep), framed by the in-bed sample 22:00 to 04:00; (36.5 + 36.8) / 2 = 36.65.
        let s2 = try XCTUnwrap(nights[second]?.sleep)
        XCTAssertEqual(s2.totalHours, 5, accuracy: 1e-12)
        XCTAssertEqual(s2.coreHours ?? 0, 4, accuracy: 1e-12)
        XCTAssertEqual(s2.remHours ?? 0, 1, accuracy: 1e-12)
        XCTAssertNil(s2.deepHours)
        XCTAssertEqual(s2.inBedStart, "2024-03-01T22:00:00+00:00")
        XCTAssertEqual(s2.inBedEnd, "2024-03-02T04:00:00+00:00")
        XCTAssertEqual(s2.source, "Watch")
        XCTAssertEqual(nights[second]?.means[7] ?? 0, 36.65, accuracy: 1e-12)
        // 03-03: deep 00:00-02:00 = 2 h, nothing else.
        let s3 = try XCTUnwrap(nights[third]?.sleep)
        XCTAssertEqual(s3.totalHours, 2, accuracy: 1e-12)
        XCTAssertEqual(s3.deepHours ?? 0, 2, accuracy: 1e-12)
        XCTAssertEqual(nights[third]?.means.isEmpty, true)
        // 03-04: the temperature alone.
        XCTAssertNil(nights[fourth]?.sleep ?? nil)
        XCTAssertEqual(nights[fourth]?.means[7], 35.0)
    }

    func testPositionsPastTheFirstBlockAreReadBack() {
        // 5,000 samples (past one block of 4,096), one a night, each 1 h of core sleep ending at
        // 03:00 on its own date; the offset is the sample's number, so each night's first sample
        // is known.
        var book = NightBook()
        let first = CivilDate.parseISODate("2010-01-01")!
        for i in 0..<5_000 {
            let end = Int64(first + i) * 86_400 + 3 * 3_600
            let segment = SleepSegment(
                start: Timestamp(seconds: end - 3_600, offset: Int32(i)), end: Timestamp(seconds: end, offset: Int32(i)), stage: .core,
                source: "Watch")
            book.addSample(WaitingSleepSample(segment, source: 0))
        }
        book.place(clock: utc)
        XCTAssertEqual(book.firstSegmentOffset(first), 0)
        XCTAssertEqual(book.firstSegmentOffset(first + 4_096), 4_096)
        XCTAssertEqual(book.firstSegmentOffset(first + 4_999), 4_999)
        let nights = book.finish(priority: SourcePriority(), clock: utc, watches: ["Watch"], names: ["Watch"])
        XCTAssertEqual(nights.count, 5_000)
        XCTAssertEqual(nights.values.map { $0.sleep?.totalHours ?? 0 }.reduce(0, +), 5_000, accuracy: 1e-9)
    }

    /// After a flight west a later session can end on an earlier local date (docs/rules.md,
    /// "Nights", 3): the sessions in order of start are dated 03-11, 03-10, 03-11, and both of
    /// 03-11's count, while each date's first offset is still found.
    func testSessionsOfADateOnEitherSideOfAnEarlierDateAreAdded() throws {
        var book = NightBook()
        let recorded = LocalClock(zone: nil)
        let paris: Int32 = 3_600, newYork: Int32 = -18_000
        // Times in UTC: A 03-10 21:00-23:30 (22:00-00:30 +0100, ends 03-11 local); B 03-11
        // 02:40-04:00 (21:40-23:00 -0500 on 03-10), 3 h 10 min after A: a new session; C 03-11
        // 11:00-13:00 (06:00-08:00 -0500 on 03-11), 7 h after B: a new session.
        book.addSample(sample(.core, ("2024-03-10", 21, 0), ("2024-03-10", 23, 30), source: 0, offset: paris))  // A: 2.5 h
        book.addSample(sample(.core, ("2024-03-11", 2, 40), ("2024-03-11", 4, 0), source: 0, offset: newYork))  // B: 1 h 20 min
        book.addSample(sample(.core, ("2024-03-11", 11, 0), ("2024-03-11", 13, 0), source: 0, offset: newYork))  // C: 2 h
        book.place(clock: recorded)
        let tenth = CivilDate.parseISODate("2024-03-10")!, eleventh = tenth + 1
        XCTAssertEqual(book.positions(night: tenth), [1])
        XCTAssertEqual(book.positions(night: eleventh), [0, 2])
        // Each date's first session's first sample: B's -0500 on 03-10, A's +0100 on 03-11 (the
        // binary search needs the dates sorted: unsorted, 03-10 sat between two 03-11 entries).
        XCTAssertEqual(book.firstSegmentOffset(tenth), newYork)
        XCTAssertEqual(book.firstSegmentOffset(eleventh), paris)

        let nights = book.finish(priority: SourcePriority(), clock: recorded, watches: [], names: ["Anna’s Apple Watch"])
        // 03-11: A + C = 2.5 + 2 = 4.5 h core, window from A's 22:00 +01:00 to C's 08:00 -05:00.
        let s11 = try XCTUnwrap(nights[eleventh]?.sleep)
        XCTAssertEqual(s11.totalHours, 4.5, accuracy: 1e-12)
        XCTAssertEqual(s11.coreHours ?? 0, 4.5, accuracy: 1e-12)
        XCTAssertEqual(s11.inBedStart, "2024-03-10T22:00:00+01:00")
        XCTAssertEqual(s11.inBedEnd, "2024-03-11T08:00:00-05:00")
        // 03-10: B alone, 80 min = 4/3 h.
        let s10 = try XCTUnwrap(nights[tenth]?.sleep)
        XCTAssertEqual(s10.totalHours, 80.0 / 60, accuracy: 1e-12)
        XCTAssertEqual(s10.inBedStart, "2024-03-10T21:40:00-05:00")
    }

    private func sample(
        _ stage: SleepSegment.Stage, _ from: (String, Int64, Int64), _ to: (String, Int64, Int64), source: Int32, offset: Int32
    ) -> WaitingSleepSample {
        func t(_ x: (String, Int64, Int64)) -> Timestamp { Timestamp(seconds: at(x.0, x.1) + x.2 * 60, offset: offset) }
        return WaitingSleepSample(SleepSegment(start: t(from), end: t(to), stage: stage, source: ""), source: source)
    }

    /// Sessions chain in order of start whatever the order added, and two sessions ending on one
    /// date are each resolved on their own, then added: a nap that only a third-party app wrote
    /// counts beside the watch's day sleep (one choice of source for the date would have dropped
    /// it), the window runs from the first session's start to the last one's end, and the source
    /// is the one with the most sleep.
    func testSessionsChainByStartAndTwoOnOneDateAreAdded() throws {
        var book = NightBook()
        let watch: Int32 = 0, app: Int32 = 1
        // Positions 0-4, in the order added (the recorded offsets tell each date's first sample).
        book.addSample(sample(.core, ("2024-03-05", 13, 0), ("2024-03-05", 15, 0), source: watch, offset: 60))  // 0: 2 h
        book.addSample(sample(.core, ("2024-03-05", 23, 0), ("2024-03-06", 6, 0), source: watch, offset: 120))  // 1: 7 h
        book.addSample(sample(.unspecified, ("2024-03-05", 19, 0), ("2024-03-05", 19, 45), source: app, offset: 180))  // 2: 0.75 h
        book.addSample(sample(.core, ("2024-03-05", 8, 0), ("2024-03-05", 11, 0), source: watch, offset: 240))  // 3: 3 h
        book.addSample(sample(.deep, ("2024-03-05", 11, 0), ("2024-03-05", 12, 30), source: watch, offset: 300))  // 4: 1.5 h
        XCTAssertEqual(book.sleepSampleCount, 5)
        book.place(clock: utc)
        // By start: 3 (08:00), 4 (11:00 < 11:00 + 3 h), 0 (13:00 < 12:30 + 3 h): session 1, ends
        // 15:00; 2 starts 19:00, 4 h after: session 2, ends 19:45; 1 starts 23:00, 3 h 15 min
        // after: session 3, ends 03-06 06:00.
        let fifth = CivilDate.parseISODate("2024-03-05")!, sixth = fifth + 1
        XCTAssertEqual(book.positions(night: fifth), [0, 2, 3, 4])
        XCTAssertEqual(book.positions(night: sixth), [1])
        // The first added of the date's first session: sample 0 (offset 60), not 3 (starts first).
        XCTAssertEqual(book.firstSegmentOffset(fifth), 60)
        XCTAssertEqual(book.firstSegmentOffset(sixth), 120)

        let nights = book.finish(priority: SourcePriority(), clock: utc, watches: [], names: ["Anna’s Apple Watch", "Nap App"])
        // 03-05: session 1 (the watch): core 3 + 2 = 5 h, deep 1.5 h, 6.5 h asleep; session 2
        // (only the app: its unspecified asleep): 0.75 h. Total 6.5 + 0.75 = 7.25 h.
        let s5 = try XCTUnwrap(nights[fifth]?.sleep)
        XCTAssertEqual(s5.totalHours, 7.25, accuracy: 1e-12)
        XCTAssertEqual(s5.coreHours ?? 0, 5, accuracy: 1e-12)
        XCTAssertEqual(s5.deepHours ?? 0, 1.5, accuracy: 1e-12)
        XCTAssertNil(s5.remHours)
        XCTAssertEqual(s5.inBedStart, "2024-03-05T08:00:00+00:00")
        XCTAssertEqual(s5.inBedEnd, "2024-03-05T19:45:00+00:00")
        XCTAssertEqual(s5.source, "Anna’s Apple Watch")  // 6.5 h against the app's 0.75 h
        // 03-06: 23:00-06:00 = 7 h core.
        let s6 = try XCTUnwrap(nights[sixth]?.sleep)
        XCTAssertEqual(s6.totalHours, 7, accuracy: 1e-12)
        XCTAssertEqual(s6.inBedStart, "2024-03-05T23:00:00+00:00")
    }
}
