import XCTest

@testable import ExportParser

/// `NightBook` keeps sleep samples as they came and places them in their nights only at the end
/// (`place`, an index sorted by night): nights interleaved in the input must still come out whole,
/// each from its own samples, and a night's first sample must be the first one added.
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
        // Added in this order; with a UTC clock a night is the date its sample ends on (waking
        // before noon): samples 1, 3 and 4 end on 2024-03-02, sample 2 on 2024-03-03.
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
}
