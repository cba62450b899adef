import Foundation
import XCTest

@testable import ExportParser

/// compare's window read puts its dates together in two parts, each on a thread of its own
/// (`CompareWindowSide.part`): the days the book made before its middle day, and those from it
/// on, each with the census's dates on its side. A census date may be a day the book made as
/// well, on either side of the cut or on the cut's own day.
final class CompareWindowPartsTests: ParseThreadsTestCase {
    typealias Census = CompareWindowCensusTests

    static func sleep(_ start: String, _ end: String) -> String {
        " <Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"Phone\" device=\"\(Census.phone)\" "
            + "startDate=\"\(start)\" endDate=\"\(end)\" value=\"HKCategoryValueSleepAnalysisAsleepCore\"/>\n"
    }

    static func steps(_ at: String) -> String {
        Census.record(Census.steps, "50", start: at, end: at.replacingOccurrences(of: "12:00:00", with: "12:10:00"))
    }

    /// By hand (window 2024-02-01 … 02-07, +0100 throughout):
    ///
    ///   sleep 01-04 23:00 → 01-05 06:00   read whole    the book's day 01-05 (sleep)
    ///   sleep 01-09 23:00 → 01-10 06:00   read whole    the book's day 01-10 (sleep)
    ///   sleep 01-19 23:00 → 01-20 06:00   read whole    the book's day 01-20 (sleep)
    ///   steps 02-02 12:00                 the window    the book's day 02-02 (steps)
    ///   steps 01-05, 01-15, 01-20, 01-25 12:00          cut into the census
    ///
    /// The book's days: 01-05, 01-10, 01-20, 02-02; the middle (index 4 / 2 = 2) is 01-20, the
    /// cut. Before it: 01-05 (book and census), 01-10 (book), 01-15 (census). From it: 01-20
    /// (book and census, the cut's own day), 01-25 (census), 02-02 (book). Six dates; 01-05 and
    /// 01-20 have sleep and steps, 01-10 sleep alone, 01-15 and 01-25 steps alone.
    static let text = Census.export(
        sleep("2024-01-04 23:00:00 +0100", "2024-01-05 06:00:00 +0100")
            + sleep("2024-01-09 23:00:00 +0100", "2024-01-10 06:00:00 +0100")
            + sleep("2024-01-19 23:00:00 +0100", "2024-01-20 06:00:00 +0100")
            + steps("2024-01-05 12:00:00 +0100") + steps("2024-01-15 12:00:00 +0100") + steps("2024-01-20 12:00:00 +0100")
            + steps("2024-01-25 12:00:00 +0100") + Census.inWindow)

    func testCensusDatesOnEitherSideOfTheMiddleDayAndOnItAreAFullReadsDates() throws {
        ParseThreads.count = 2
        ParseThreads.chunkBytes = 64
        let path = try TestPaths.temporaryDirectory("window-parts").appendingPathComponent("export.xml")
        try Data(Self.text.utf8).write(to: path)
        let options = try DayOptions(timeZoneName: nil)
        let from = try XCTUnwrap(CivilDate.parseISODate("2024-02-01"))
        let windowed = try XCTUnwrap(
            CompareWindowSide.read(
                path.path, format: .appleXML, options: options, window: Comparison.Window(from: from, to: from + 6), progress: nil))
        var ignored: [IgnoredPayloadKeys] = []
        var superseded = 0
        let full = try CompareJob.side([path.path], options: options, ignored: &ignored, superseded: &superseded)
        let dates = ["2024-01-05", "2024-01-10", "2024-01-15", "2024-01-20", "2024-01-25", "2024-02-02"]
        XCTAssertEqual(windowed.keys.sorted(), dates)
        XCTAssertEqual(full.keys.sorted(), dates)
        for date in dates {
            XCTAssertEqual(Set(windowed[date]!.values.keys), Set(full[date]!.values.keys), date)
            XCTAssertEqual(windowed[date]!.sources, full[date]!.sources, date)
        }
        let sleepOnly = Set(windowed["2024-01-10"]!.values.keys)
        XCTAssertTrue(sleepOnly.contains("sleep.total_hours"))
        XCTAssertFalse(sleepOnly.contains("metrics.step_count"))
        for date in ["2024-01-05", "2024-01-20"] {
            XCTAssertTrue(windowed[date]!.values.keys.contains("metrics.step_count"), date)
            XCTAssertTrue(windowed[date]!.values.keys.contains("sleep.total_hours"), date)
        }
        for date in ["2024-01-15", "2024-01-25"] {
            XCTAssertEqual(windowed[date]!.values, ["metrics.step_count": .number(1)], date)
        }
        // Every date knows its fields as a set (`ComparableDay.fieldSet`), the one its paths name:
        // the book's days, those given stand-ins too (01-05, 01-20), the census's alone.
        for date in dates {
            let d = windowed[date]!
            XCTAssertNotNil(d.fieldSet, date)
            XCTAssertEqual(d.fieldSet, ComparableDay.fieldSet(of: d.values.keys), date)
        }
        // And every file compare writes is a full read's.
        XCTAssertEqual(try Census.differences(Self.text), [])
    }

    /// A census date's stand-ins (1) go where the day has no value, and leave its own: a day
    /// with 1,234 steps given the stand-ins of steps and resting heart rate keeps 1,234 steps and
    /// gets a resting heart rate of 1.
    func testStandInsKeepTheDaysOwnValuesAndAddTheOthers() {
        let steps = Catalog.metric(named: "step_count").index, resting = Catalog.metric(named: "resting_hr").index
        var standIns = CompareWindowSide.StandIns(metrics: [steps, resting])
        var day = ComparableDay(date: "2024-01-05")
        day.values["metrics.step_count"] = .number(1234)
        standIns.fill(&day, metrics: [steps, resting])
        XCTAssertEqual(day.values, ["metrics.step_count": .number(1234), "metrics.resting_hr": .number(1)])
        // One metric at a time, the fields made on first use: the same.
        var lazy = CompareWindowSide.StandIns()
        var other = ComparableDay(date: "2024-01-05")
        other.values["metrics.step_count"] = .number(1234)
        lazy.fill(&other, metric: resting)
        lazy.fill(&other, metric: steps)
        XCTAssertEqual(other.values, day.values)
    }
}
