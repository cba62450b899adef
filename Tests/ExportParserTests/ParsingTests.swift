import Foundation
import XCTest

@testable import ExportParser

final class ParsingTests: XCTestCase {
    func testFixedLayoutDates() throws {
        // 2024-01-01 10:00:00 +1100 = 2023-12-31 23:00:00Z. Days 1970-01-01 → 2023-12-31 = 19722.
        let t = try XCTUnwrap(TimestampParser.parse("2024-01-01 10:00:00 +1100"))
        XCTAssertEqual(t.seconds, 19722 * 86400 + 23 * 3600)
        XCTAssertEqual(t.offset, 39600)
        XCTAssertEqual(TimestampParser.parse("2021-11-30 07:47:59 -0330")?.offset, -(3 * 3600 + 30 * 60))
        XCTAssertEqual(
            TimestampParser.parse("2024-02-29 00:00:00 +0000")?.seconds, Int64(CivilDate.dayNumber(year: 2024, month: 2, day: 29)) * 86400)
        for bad in [
            "2023-02-29 00:00:00 +0000", "2024-13-01 00:00:00 +0000", "2024-01-01 24:00:00 +0000", "2024-01-01 10:00:00 1100",
            "2024/01/01 10:00:00 +1100", "20150616071916-0700", "", "2024-01-01", "2024-01-01 10:00:00 +1100 ",
        ] {
            XCTAssertNil(TimestampParser.parse(bad), bad)
        }
    }

    func testHAEStyleTwelveHourAndISOLayouts() throws {
        let plain = try XCTUnwrap(TimestampParser.parse("2021-12-24 8:02:43 PM +0800"))
        let narrow = try XCTUnwrap(TimestampParser.parse("2021-12-24 8:02:43\u{202F}PM +0800"))
        let twentyFour = try XCTUnwrap(TimestampParser.parse("2021-12-24 20:02:43 +0800"))
        XCTAssertEqual(plain, twentyFour)
        XCTAssertEqual(narrow, twentyFour)
        XCTAssertEqual(
            TimestampParser.parse("2021-12-24 12:05:00 AM +0000")?.seconds, TimestampParser.parse("2021-12-24 00:05:00 +0000")?.seconds)
        XCTAssertEqual(TimestampParser.parse("2021-12-24T20:02:43+08:00"), twentyFour)
        XCTAssertEqual(TimestampParser.parse("2021-12-24T12:02:43Z")?.seconds, twentyFour.seconds)
        XCTAssertNil(TimestampParser.parse("2021-12-24 13:02:43 PM +0800"))
    }

    func testCivilDateRoundTrips() {
        for n in [-1, 0, 59, 11016, 19722, 20000, 47482] {
            let c = CivilDate.civil(n)
            XCTAssertEqual(CivilDate.dayNumber(year: c.year, month: c.month, day: c.day), n)
        }
        XCTAssertEqual(CivilDate.isoDate(19722), "2023-12-31")
        XCTAssertEqual(CivilDate.isoTimestamp(seconds: 19722 * 86400 + 23 * 3600, offset: 39600), "2024-01-01T10:00:00+11:00")
        XCTAssertEqual(CivilDate.offsetString(-16200), "-04:30")
        XCTAssertNil(CivilDate.parseISODate("2024-02-30"))
        XCTAssertEqual(CivilDate.parseISODate("1970-01-02"), 1)
    }

    func testNumbers() {
        XCTAssertEqual(NumberParser.parse("35.7799987792969"), 35.7799987792969)
        XCTAssertEqual(NumberParser.parse("-3"), -3)
        XCTAssertEqual(NumberParser.parse("1e3"), 1000)
        for bad in ["", "0x10", "nan", "inf", "1,5", "12abc", " 1"] { XCTAssertNil(NumberParser.parse(bad), bad) }
    }

    /// The plain-decimal fast path gives strtod's double bit for bit, and the shapes strtod takes.
    func testPlainDecimalsAreStrtodsDoubles() {
        XCTAssertEqual(NumberParser.parse(".5"), 0.5)
        XCTAssertEqual(NumberParser.parse("5."), 5)
        XCTAssertEqual(NumberParser.parse("+5"), 5)
        XCTAssertEqual(NumberParser.parse("007.250"), 7.25)
        XCTAssertEqual(NumberParser.parse("-0")?.sign, .minus)  // strtod keeps the sign of zero
        for bad in [".", "-", "+", "-.", "1.2.3", "1-2", "--1", "1.5x"] { XCTAssertNil(NumberParser.parse(bad), bad) }
        // 2^53 + 1 has no double: it rounds to even, 2^53 (the fast path leaves it to strtod).
        XCTAssertEqual(NumberParser.parse("9007199254740993"), 9_007_199_254_740_992)
        // 24 digits, 23 after the point: beyond the fast path, strtod's answer.
        XCTAssertEqual(NumberParser.parse("0.12345678901234567890123"), 0.12345678901234567890123)
        // Random decimals of 1–19 significant digits with 0–24 after the point, each against
        // Swift's own correctly rounded `Double(String)`, bit for bit.
        var random = SeededRandom(defaultSeed: 24)
        for _ in 0..<20_000 {
            let digits = Int(random.next() % 19) + 1
            var text = String((0..<digits).map { _ in Character(String(random.next() % 10)) })
            let point = Int(random.next() % UInt64(digits + 6))
            if point < digits { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            if random.next() % 2 == 0 { text = "-" + text }
            let reference = Double(text)
            XCTAssertEqual(NumberParser.parse(text)?.bitPattern, reference?.bitPattern, "\(text), seed \(random.seed)")
        }
    }

    func testUnitConversions() throws {
        // Each expected number worked out by hand from the factor in docs/catalog.md ("Units").
        XCTAssertEqual(try XCTUnwrap(CanonicalUnit.kilocalories.convert(418.4, from: "kJ")), 100, accuracy: 1e-9)  // 418.4 / 4.184
        XCTAssertEqual(CanonicalUnit.kilocalories.convert(250, from: "Cal"), 250)
        XCTAssertEqual(try XCTUnwrap(CanonicalUnit.kilometres.convert(2, from: "mi")), 3.218688, accuracy: 1e-12)  // 2 × 1.609344
        XCTAssertEqual(try XCTUnwrap(CanonicalUnit.kilometres.convert(1500, from: "m")), 1.5, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(CanonicalUnit.kilograms.convert(150, from: "lb")), 68.0388555, accuracy: 1e-9)  // 150 × 0.45359237
        XCTAssertEqual(try XCTUnwrap(CanonicalUnit.degreesCelsius.convert(98.6, from: "degF")), 37, accuracy: 1e-9)  // (98.6 − 32) × 5/9
        XCTAssertEqual(try XCTUnwrap(CanonicalUnit.kilometresPerHour.convert(3, from: "mi/hr")), 4.828032, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(CanonicalUnit.kilometresPerHour.convert(2.5, from: "m/s")), 9, accuracy: 1e-12)  // 2.5 × 3.6
        XCTAssertEqual(try XCTUnwrap(CanonicalUnit.metres.convert(2, from: "ft")), 0.6096, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(CanonicalUnit.centimetres.convert(3, from: "in")), 7.62, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(CanonicalUnit.milliseconds.convert(0.25, from: "s")), 250, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(CanonicalUnit.minutes.convert(1.5, from: "hr")), 90, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(CanonicalUnit.percent.convert(0.97, from: "%")), 97, accuracy: 1e-12)  // export.xml fraction
        XCTAssertEqual(CanonicalUnit.percent.convert(97, from: "%", percentScale: .whole), 97)  // HAE 0–100
        XCTAssertNil(CanonicalUnit.count.convert(1, from: "furlong"))
        XCTAssertNil(CanonicalUnit.vo2.convert(40, from: "ml/kg/min"))
        XCTAssertNil(CanonicalUnit.kilograms.convert(1, from: ""))
    }

    func testCatalogHasEveryRowOfTheSpec() {
        XCTAssertEqual(Catalog.metrics.count, 33)  // the 33 rows of docs/catalog.md; sleep and workouts have rules of their own
        XCTAssertEqual(Set(Catalog.metrics.map(\.field)).count, Catalog.metrics.count)
        XCTAssertEqual(Catalog.metric(forHAEName: "cholesterol"), Catalog.metric(forHAEName: "dietary_cholesterol"))
        XCTAssertEqual(Catalog.metric(forType: "HKQuantityTypeIdentifierStepCount")?.rule, .sum)
    }

    func testWireRoundingAndFormatting() {
        XCTAssertEqual(JSONValue.format(8432.4999, decimals: 0), "8432")
        XCTAssertEqual(JSONValue.format(8432.5, decimals: 0), "8433")  // half away from zero
        XCTAssertEqual(JSONValue.format(6.2049, decimals: 2), "6.2")
        XCTAssertEqual(JSONValue.format(-0.001, decimals: 2), "0")
        XCTAssertEqual(JSONValue.format(97.045, decimals: 1), "97")
        XCTAssertEqual(JSONText.quote("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\u0001\"")
    }
}

final class MemoryBudgetTests: XCTestCase {
    /// With a tiny budget, days the stream has left behind are resolved early; for an export in
    /// the usual order (grouped by type, dates ascending) the totals must equal the exact run.
    func testResolvingLeftBehindDaysEarlyGivesTheSameTotals() throws {
        var body = ""
        // 10 days; each day: Watch 00:00–00:30 300 steps, iPhone 00:15–00:45 90 steps
        // (half covered by the Watch: 45 count), iPhone 23:50–00:10 crossing midnight 40 steps
        // (20 on each side of midnight). Day d total = 300 + 45 + 20 = 365: the 20 carried into the
        // next day fall in 00:00–00:10, which that day's Watch sample covers, so they count 0 —
        // except after the last day, 03-11, where no Watch sample covers them.
        for d in 1...10 {
            let day = String(format: "2024-03-%02d", d)
            let next = String(format: "2024-03-%02d", d + 1)
            body += record(
                "HKQuantityTypeIdentifierStepCount", "300", unit: "count", source: "Ann’s Apple Watch", start: "\(day) 00:00:00 +0100",
                end: "\(day) 00:30:00 +0100")
            body += record(
                "HKQuantityTypeIdentifierStepCount", "90", unit: "count", source: "Ann’s iPhone", start: "\(day) 00:15:00 +0100",
                end: "\(day) 00:45:00 +0100")
            body += record(
                "HKQuantityTypeIdentifierStepCount", "40", unit: "count", source: "Ann’s iPhone", start: "\(day) 23:50:00 +0100",
                end: "\(next) 00:10:00 +0100")
        }
        func run(budget: Int) throws -> ([Double?], Int) {
            var options = DayOptions()
            options.sumPieceBudget = budget
            let book = DayBook(options: options)
            try AppleExportReader.read(data: Data(export(body).utf8), name: "t.xml", into: book)
            return (book.finish().map { $0.value("step_count") }, book.lateSumPieces)
        }
        let (exact, _) = try run(budget: 1_000_000)
        let (budgeted, late) = try run(budget: 4)
        XCTAssertEqual(exact, budgeted)
        XCTAssertEqual(late, 0)
        XCTAssertEqual(exact.first!, 365)  // 300 + 45 + 20
        XCTAssertEqual(exact[1], 365)  // the carried 20 are covered by the Watch
        XCTAssertEqual(exact.last!, 20)  // 03-11: the second half of the last crossing sample
    }
}
