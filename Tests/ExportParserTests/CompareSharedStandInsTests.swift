import XCTest

@testable import ExportParser

/// A window read's census dates that the read made no day for share one set of stand-ins per
/// metric set (`StandInValues`); every day made from a book or stand-ins knows its fields as a
/// set (`ComparedFieldSet`), which `GapFinder.deliveredDates` reads instead of the paths: the
/// facts it gives are those of the paths.
final class CompareSharedStandInsTests: XCTestCase {
    let steps = Catalog.metric(named: "step_count").index
    let resting = Catalog.metric(named: "resting_hr").index

    func index(_ path: String) -> Int { ComparableDay.comparedIndex[path]! }

    /// Indices 0, 63, 64 and 200 (the first and last bit of the first word, the first of the
    /// second, one in the fourth) come back ascending; 1 and 199 are not in; a union adds 5.
    func testAFieldSetHoldsItsIndicesAcrossItsWords() {
        var set = ComparedFieldSet()
        for i in [200, 64, 0, 63] { set.insert(i) }
        var seen: [Int] = []
        set.forEach { seen.append($0) }
        XCTAssertEqual(seen, [0, 63, 64, 200])
        XCTAssertTrue(set.contains(63))
        XCTAssertFalse(set.contains(1))
        XCTAssertFalse(set.contains(199))
        var other = ComparedFieldSet()
        other.insert(5)
        set.formUnion(other)
        seen = []
        set.forEach { seen.append($0) }
        XCTAssertEqual(seen, [0, 5, 63, 64, 200])
        XCTAssertTrue(ComparableDay.tracksFields)
    }

    /// One shared set a metric set and variant: asked twice, the same object; another variant or
    /// another metric set, another. The values are those `fill` gives an empty day.
    func testOneSharedSetAMetricSetAndVariant() {
        var standIns = CompareWindowSide.StandIns()
        let a = standIns.shared([steps]), again = standIns.shared([steps])
        XCTAssertTrue(a === again)
        XCTAssertEqual(a.values, ["metrics.step_count": .number(1)])
        let both = standIns.shared([steps, resting])
        XCTAssertFalse(both === a)
        XCTAssertEqual(both.values, ["metrics.step_count": .number(1), "metrics.resting_hr": .number(1)])
        // Variant 1 here drops the steps after the fill: its own set, and variant 0 is untouched.
        let dropped = standIns.shared([steps, resting], variant: 1) { $0.values["metrics.step_count"] = nil }
        XCTAssertFalse(dropped === both)
        XCTAssertEqual(dropped.values, ["metrics.resting_hr": .number(1)])
        var only = ComparedFieldSet()
        only.insert(index("metrics.resting_hr"))
        XCTAssertEqual(dropped.fieldSet, only)
        XCTAssertTrue(standIns.shared([steps, resting]) === both)
    }

    /// A day's set of fields goes when its values change (what they hold is then read from the
    /// paths), and `fill` keeps a known set known: the stand-ins' fields added.
    func testAChangeForgetsTheSetAndAFillKeepsIt() {
        var standIns = CompareWindowSide.StandIns()
        var d = ComparableDay(date: "2024-01-03", sharing: standIns.shared([steps]), inputSources: ["Watch"])
        XCTAssertEqual(d.inputSources, ["Watch"])
        var expected = ComparedFieldSet()
        expected.insert(index("metrics.step_count"))
        XCTAssertEqual(d.fieldSet, expected)
        standIns.fill(&d, metric: resting)
        expected.insert(index("metrics.resting_hr"))
        XCTAssertEqual(d.fieldSet, expected)
        XCTAssertEqual(d.values, ["metrics.step_count": .number(1), "metrics.resting_hr": .number(1)])
        // Several metrics at once (room made for them first): the same.
        var e = ComparableDay(date: "2024-01-04", sharing: standIns.shared([steps]), inputSources: [])
        standIns.fill(&e, metrics: [steps, resting])
        XCTAssertEqual(e.fieldSet, expected)
        d.values["sleep.total_hours"] = .number(7)
        XCTAssertNil(d.fieldSet)
        // A day whose set is unknown stays so through a fill.
        standIns.fill(&d, metric: steps)
        XCTAssertNil(d.fieldSet)
    }

    /// A book's day over the stand-ins of steps and resting heart rate: its 1,234 steps stay, the
    /// resting heart rate is the stand-in 1, and its set names both; the stand-ins themselves are
    /// untouched (the day's table is a copy). As `fill` gives the same day.
    func testABooksDayOverTheStandInsKeepsItsOwnValues() {
        var standIns = CompareWindowSide.StandIns()
        let shared = standIns.shared([steps, resting])
        var finished = FinishedDay(dayNumber: 19_727, timezone: "+01:00", deviceSyncTimestamp: "2024-01-05T00:00:00+01:00")
        finished.values[steps] = 1234
        let d = ComparableDay(finished, sourceSet: ["Watch"], standIns: shared)
        XCTAssertEqual(d.date, "2024-01-05")
        XCTAssertEqual(d.values, ["metrics.step_count": .number(1234), "metrics.resting_hr": .number(1)])
        XCTAssertEqual(shared.values, ["metrics.step_count": .number(1), "metrics.resting_hr": .number(1)])
        var both = ComparedFieldSet()
        both.insert(index("metrics.step_count"))
        both.insert(index("metrics.resting_hr"))
        XCTAssertEqual(d.fieldSet, both)
        var filled = ComparableDay(finished, sourceSet: ["Watch"])
        standIns.fill(&filled, metrics: [steps, resting])
        XCTAssertEqual(filled.values, d.values)
        XCTAssertEqual(filled.fieldSet, d.fieldSet)
    }

    /// By hand:
    ///
    ///   2024-01-01  set    {resting_hr}            (shared)
    ///   2024-01-03  set    {step_count}            (shared)
    ///   2024-01-05  paths  {step_count, resting_hr}
    ///   2024-01-09  set    {step_count}            (the same shared set as 01-03)
    ///   2024-01-12  paths  {sleep.total_hours}
    ///   2024-01-14  set    {resting_hr}            (shared)
    ///
    /// step_count: 01-03 … 01-09 (from the sets; 01-05 from the paths lies between);
    /// resting_hr: 01-01 … 01-14 (the sets' first and last around 01-05 of the paths);
    /// sleep.total_hours: 01-12 alone. The same days read by their paths alone give the same.
    func testDeliveredDatesFromSetsAreThoseFromPaths() {
        var standIns = CompareWindowSide.StandIns()
        var own = ComparableDay(date: "2024-01-05")
        own.values = ["metrics.step_count": .number(8000), "metrics.resting_hr": .number(55)]
        var sleep = ComparableDay(date: "2024-01-12")
        sleep.values = ["sleep.total_hours": .number(7)]
        var days: [String: ComparableDay] = ["2024-01-05": own, "2024-01-12": sleep]
        for (date, metric) in [("2024-01-01", resting), ("2024-01-03", steps), ("2024-01-09", steps), ("2024-01-14", resting)] {
            days[date] = ComparableDay(date: date, sharing: standIns.shared([metric]), inputSources: [])
        }
        XCTAssertNil(days["2024-01-05"]!.fieldSet)
        XCTAssertNotNil(days["2024-01-09"]!.fieldSet)
        let expected = [
            "metrics.step_count": ["2024-01-03", "2024-01-09"], "metrics.resting_hr": ["2024-01-01", "2024-01-14"],
            "sleep.total_hours": ["2024-01-12", "2024-01-12"],
        ]
        XCTAssertEqual(GapFinder.deliveredDates(days).mapValues { [$0.first, $0.last] }, expected)
        var paths = days
        for date in paths.keys { paths[date]!.fieldSet = nil }
        XCTAssertEqual(GapFinder.deliveredDates(paths).mapValues { [$0.first, $0.last] }, expected)
    }
}
