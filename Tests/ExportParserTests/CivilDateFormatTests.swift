import XCTest

@testable import ExportParser

/// `CivilDate.isoDate` and `isoTimestamp` write their bytes directly for years 0–9999 and
/// offsets under 100 hours: the text must be the one the padded pieces give.
final class CivilDateFormatTests: XCTestCase {
    func testHandWorkedInstants() {
        // 1970-01-01T00:00:00Z is 0.
        XCTAssertEqual(CivilDate.isoTimestamp(seconds: 0, offset: 0), "1970-01-01T00:00:00+00:00")
        // One second before: the last second of 1969.
        XCTAssertEqual(CivilDate.isoTimestamp(seconds: -1, offset: 0), "1969-12-31T23:59:59+00:00")
        // 2026-01-01 is 56 × 365 + 14 leap days (1972…2024) = 20,454 days after 1970-01-01;
        // 2026-03-22 is 31 + 28 + 21 = 80 days later: 20,534 × 86,400 = 1,774,137,600 s, plus
        // 11:15 (40,500 s) = 1,774,178,100 = 11:15Z, which is 22:15 at +11:00.
        XCTAssertEqual(CivilDate.isoTimestamp(seconds: 1_774_178_100, offset: 11 * 3600), "2026-03-22T22:15:00+11:00")
        // The same instant at −05:30 (−19,800 s): 11:15 − 5:30 = 05:45.
        XCTAssertEqual(CivilDate.isoTimestamp(seconds: 1_774_178_100, offset: -19_800), "2026-03-22T05:45:00-05:30")
        // At −12:00 it is still the evening before: 11:15 − 12:00 = 23:15 on 03-21.
        XCTAssertEqual(CivilDate.isoTimestamp(seconds: 1_774_178_100, offset: -43_200), "2026-03-21T23:15:00-12:00")
        // An offset with seconds shows whole minutes: +00:19:32 (1,172 s) is written +00:19.
        XCTAssertEqual(CivilDate.isoTimestamp(seconds: 0, offset: 1_172), "1970-01-01T00:19:32+00:19")
        XCTAssertEqual(CivilDate.isoDate(20_534), "2026-03-22")
        XCTAssertEqual(CivilDate.isoDate(0), "1970-01-01")
        // 1970-01-01 is day 719,468 after 0000-03-01 (the civil algorithm's epoch); day −719,468
        // is 0000-03-01, a year written with four zeros.
        XCTAssertEqual(CivilDate.isoDate(-719_468), "0000-03-01")
    }

    /// The pieces the text was joined from before, for any year and offset.
    private func joined(_ seconds: Int64, _ offset: Int32) -> String {
        let local = seconds + Int64(offset)
        let day = Int((local >= 0 ? local : local - 86_399) / 86_400)
        let sod = Int(local - Int64(day) * 86_400)
        let c = CivilDate.civil(day)
        let date = CivilDate.pad(c.year, 4) + "-" + CivilDate.pad(c.month, 2) + "-" + CivilDate.pad(c.day, 2)
        return date + "T" + CivilDate.pad(sod / 3600, 2) + ":" + CivilDate.pad(sod / 60 % 60, 2) + ":"
            + CivilDate.pad(sod % 60, 2) + CivilDate.offsetString(offset)
    }

    func testEveryPathGivesTheJoinedText() {
        var rng = SeededRandom(defaultSeed: 0x5EED_C1D1)
        // Years 1–9999 on the direct path, then years past 9999 and before 0 on the joined one.
        let ranges: [ClosedRange<Int64>] = [
            -62_135_596_800...253_402_300_799, 253_402_300_800...400_000_000_000, -100_000_000_000 ... -62_167_219_201,
        ]
        for range in ranges {
            for _ in 0..<2000 {
                let s = Int64.random(in: range, using: &rng)
                let o = Int32.random(in: -14 * 3600...14 * 3600, using: &rng)
                XCTAssertEqual(CivilDate.isoTimestamp(seconds: s, offset: o), joined(s, o), "\(s) \(o) (seed \(rng.seed))")
            }
        }
        XCTAssertEqual(CivilDate.isoTimestamp(seconds: 0, offset: 100 * 3600), joined(0, 100 * 3600))
    }
}
