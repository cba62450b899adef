import Foundation
import XCTest

@testable import ExportParser

/// compare's census of running-mechanics samples (docs/export-xml.md, "The census"): a sample
/// cut outside the window gives its metric's fields to the dates whose runs hold it, known only
/// once the workouts are read. Each export is worked out by hand (the window is 2024-02-01 …
/// 02-07, +01:00; records before 01-30 or after 02-09 are cut), compared through the window and
/// in full, and the cut is checked to have taken the samples (not read them all).
final class CompareWindowRunningCensusTests: ParseThreadsTestCase {
    typealias C = CompareWindowCensusTests
    static let speedType = "HKQuantityTypeIdentifierRunningSpeed", powerType = "HKQuantityTypeIdentifierRunningPower"
    static let speedField = "running_mechanics.running_speed_kmh", powerField = "running_mechanics.running_power_w"

    static func run(_ start: String, _ end: String, type: String = "HKWorkoutActivityTypeRunning", source: String = "W") -> String {
        " <Workout workoutActivityType=\"\(type)\" duration=\"60\" durationUnit=\"min\" sourceName=\"\(source)\" "
            + "device=\"\(C.watch)\" startDate=\"\(start)\" endDate=\"\(end)\">\n </Workout>\n"
    }

    static func speed(_ start: String, source: String = "Phone", device: String = C.phone) -> String {
        C.record(speedType, "10", unit: "km/hr", source: source, device: device, start: start, end: start)
    }

    /// The window's records: steps on 02-02 and 02-03. The HAE side (`C.hae()`, a runner's
    /// fixture) has running mechanics on 02-03 and this side none in the window, so the report
    /// names the last date this side delivered each running field ("no running_power_w from
    /// native after 2024-01-14"): a census that dated a sample otherwise shows there.
    static let inWindow =
        C.inWindow + C.record(C.steps, "100", start: "2024-02-03 12:00:00 +0100", end: "2024-02-03 12:10:00 +0100")

    static func power(_ start: String) -> String { C.record(powerType, "250", unit: "W", start: start, end: start) }

    /// The running fields of each date of a full read, and its sources.
    private func fullRunning(_ text: String) throws -> (fields: [String: [String]], sources: [String]) {
        let path = try TestPaths.temporaryDirectory("running-full").appendingPathComponent("export.xml")
        try Data(text.utf8).write(to: path)
        var ignored: [IgnoredPayloadKeys] = []
        var superseded = 0
        let days = try CompareJob.side([path.path], options: DayOptions(), ignored: &ignored, superseded: &superseded)
        var fields: [String: [String]] = [:]
        for (date, d) in days {
            fields[date] = d.values.keys.filter { $0.hasPrefix("running_mechanics.") }.sorted()
        }
        return (fields, CompareSideSummary(side: .native, kind: "", files: [], days: days).sources)
    }

    /// How many running samples the window read's census took (the rest were read).
    private func censusRunningSamples(_ text: String) throws -> Int {
        ParseThreads.count = 2
        ParseThreads.chunkBytes = 64
        let path = try TestPaths.temporaryDirectory("running-cut").appendingPathComponent("export.xml")
        try Data(text.utf8).write(to: path)
        let collector = WindowCensusCollector()
        let day = try XCTUnwrap(CivilDate.parseISODate("2024-02-01"))
        _ = try ConvertSource.export(path: path.path, format: .appleXML).read(
            into: DayBook(options: DayOptions()), zone: nil, window: ExportWindow(days: day...(day + 6), census: collector),
            progress: nil)
        return collector.census.runningStarts.reduce(0) { $0 + $1.starts.count }
    }

    private func checkSame(_ text: String, _ label: String) throws {
        for chunk in [64, 4096] {
            for d in try C.differences(text, chunk: chunk) { XCTFail("\(label) (chunks of \(chunk)): \(d)") }
        }
    }

    /// By hand, one export a case (+01:00 throughout), so that the case's date is its field's
    /// only date (the report names a field's first and last dates, not the ones between):
    ///
    ///   run 01-10 23:30 → 01-11 00:30, speed 01-11 00:15: the run crosses midnight, and the
    ///      sample counts for 01-10, the date the run starts on (01-11 has no run)     01-10
    ///   runs 01-12 08:00 → 09:00 and 08:30 → 09:30 (merged 08:00 → 09:30), speed 08:45
    ///      (inside both: once) and 09:15 (inside the second only)                     01-12
    ///   run 01-14 10:00 → 10:30, power at 10:30:00 (the run's end: inside)            01-14
    ///   speed 01-16 12:00 outside the run of 01-17 08:00 → 09:00: no field, no date    none
    ///   walk 01-18 08:00 → 09:00, speed 08:30: no field (the date has the walk)         none
    ///
    /// Each sample is cut (from Phone, outside the window): 1, 2, 1, 1, 1.
    func testRunsAndSamplesWorkedByHand() throws {
        let z = " +0100"
        let cases: [(label: String, body: String, date: String?, fields: [String], cut: Int)] = [
            (
                "a run across midnight",
                Self.speed("2024-01-11 00:15:00" + z) + Self.inWindow
                    + Self.run("2024-01-10 23:30:00" + z, "2024-01-11 00:30:00" + z), "2024-01-10", [Self.speedField], 1
            ),
            (
                "two overlapping runs",
                Self.speed("2024-01-12 08:45:00" + z) + Self.speed("2024-01-12 09:15:00" + z) + Self.inWindow
                    + Self.run("2024-01-12 08:00:00" + z, "2024-01-12 09:00:00" + z)
                    + Self.run("2024-01-12 08:30:00" + z, "2024-01-12 09:30:00" + z), "2024-01-12", [Self.speedField], 2
            ),
            (
                "a sample at the run's end",
                Self.power("2024-01-14 10:30:00" + z) + Self.inWindow
                    + Self.run("2024-01-14 10:00:00" + z, "2024-01-14 10:30:00" + z), "2024-01-14", [Self.powerField], 1
            ),
            (
                "a sample outside every run",
                Self.speed("2024-01-16 12:00:00" + z) + Self.inWindow
                    + Self.run("2024-01-17 08:00:00" + z, "2024-01-17 09:00:00" + z), nil, [], 1
            ),
            (
                "a walk",
                Self.speed("2024-01-18 08:30:00" + z) + Self.inWindow
                    + Self.run("2024-01-18 08:00:00" + z, "2024-01-18 09:00:00" + z, type: "HKWorkoutActivityTypeWalking"), nil, [], 1
            ),
        ]
        for c in cases {
            let text = C.export(c.body)
            let full = try fullRunning(text)
            XCTAssertEqual(full.fields.filter { !$0.value.isEmpty }.keys.sorted(), c.date.map { [$0] } ?? [], c.label)
            if let date = c.date { XCTAssertEqual(full.fields[date], c.fields, c.label) }
            XCTAssertEqual(try censusRunningSamples(text), c.cut, c.label)
            XCTAssertTrue(try C.windowReadStands(text), c.label)
            try checkSame(text, c.label)
        }
        XCTAssertNil(try fullRunning(C.export(cases[0].body)).fields["2024-01-11"])
        XCTAssertNil(try fullRunning(C.export(cases[3].body)).fields["2024-01-16"])
        XCTAssertEqual(try fullRunning(C.export(cases[4].body)).fields["2024-01-18"], [])
    }

    /// A watch's running sample names its source, as the book names a watch's. By hand: W's
    /// heart rate first in the file (its first record, read) but dated 04-02, after the export
    /// date (04-01 08:00), so the reader skips it and names nothing; W's speed 01-20 12:00 inside
    /// a run 11:00 → 13:00 from the app "Runs": sources Phone (the window's steps), Runs (the
    /// workout) and W, named by the speed sample alone; 01-20 has speed. W's speed is cut unless
    /// the worker that scans it has not met W (each worker reads the first record of a watch it
    /// meets): 0 or 1 with 64-byte chunks; with 4096 (`checkSame`) one worker meets both, cuts
    /// the speed, and only the census can name W.
    func testAWatchsSampleNamesItsSource() throws {
        let z = " +0100"
        let run = Self.run("2024-01-20 11:00:00" + z, "2024-01-20 13:00:00" + z, source: "Runs")
        let text = C.export(
            C.record(C.heart, "60", unit: "count/min", source: "W", device: C.watch, start: "2024-04-02 12:00:00" + z)
                + Self.speed("2024-01-20 12:00:00" + z, source: "W", device: C.watch) + Self.inWindow + run)
        let full = try fullRunning(text)
        XCTAssertEqual(full.fields["2024-01-20"], [Self.speedField])
        XCTAssertEqual(full.sources, ["Phone", "Runs", "W"])
        XCTAssertTrue((0...1).contains(try censusRunningSamples(text)))
        XCTAssertTrue(try C.windowReadStands(text))
        try checkSame(text, "a watch's sample")
    }

    /// A run dated inside the window that lasts past the margin: its sample 3 days later is cut,
    /// but it belongs to a window date, whose mean the window read would lack. By hand: run
    /// 02-07 20:00 → 02-10 22:00 +01:00, speed 02-10 21:00 (20:00 UTC, after the window's
    /// 02-10 00:00 UTC with its margin): cut (1 sample), and the side is read in full.
    func testASampleCutInsideARunOfAWindowDateReadsInFull() throws {
        let text = C.export(
            Self.inWindow + Self.speed("2024-02-10 21:00:00 +0100") + Self.run("2024-02-07 20:00:00 +0100", "2024-02-10 22:00:00 +0100"))
        XCTAssertEqual(try fullRunning(text).fields["2024-02-07"], [Self.speedField])
        XCTAssertEqual(try censusRunningSamples(text), 1)
        XCTAssertFalse(try C.windowReadStands(text))
        try checkSame(text, "a run of a window date")
    }

    /// The export date (2024-04-01 08:00 +01:00): the reader skips a record that starts after
    /// it. By hand: run 04-01 07:30 → 08:30, power 07:45 (kept), speed 08:15 (skipped): 04-01
    /// has power only. Both are cut; the census leaves the speed out.
    func testASampleAfterTheExportDateIsLeftOut() throws {
        let text = C.export(
            Self.inWindow + Self.power("2024-04-01 07:45:00 +0100") + Self.speed("2024-04-01 08:15:00 +0100")
                + Self.run("2024-04-01 07:30:00 +0100", "2024-04-01 08:30:00 +0100"))
        XCTAssertEqual(try fullRunning(text).fields["2024-04-01"], [Self.powerField])
        XCTAssertEqual(try censusRunningSamples(text), 2)
        XCTAssertTrue(try C.windowReadStands(text))
        try checkSame(text, "after the export date")
    }

    /// `WindowCensus.runDates` alone, in seconds since 1970 (day 19,732 is 2024-01-10). By hand:
    /// runs of day 19,732 [1000, 2000] and [1500, 2500] (merged [1000, 2500]), of day 19,733
    /// [2500, 2600]; speed at 2500 (the merged end: 19,732; the next day's start: 19,733 too),
    /// power at 999 (before every run: none), 2601 (after: none) and 1200 (19,732).
    func testRunDatesByHand() {
        let speed = Catalog.metric(forType: Self.speedType)!.index, power = Catalog.metric(forType: Self.powerType)!.index
        let base = Int64(19_732) * 86_400
        var census = WindowCensus()
        census.addRunning(metric: speed, start: base + 2500)
        for t: Int64 in [999, 2601, 1200] { census.addRunning(metric: power, start: base + t) }
        let runs: [Int: [(Int64, Int64)]] = [
            19_732: [(base + 1000, base + 2000), (base + 1500, base + 2500)], 19_733: [(base + 2500, base + 2600)],
        ]
        XCTAssertEqual(census.runDates(runs: runs), [19_732: [speed, power], 19_733: [speed]])
        var other = WindowCensus()
        other.addRunning(metric: power, start: base + 2550)
        census.merge(other)
        XCTAssertEqual(census.runDates(runs: runs), [19_732: [speed, power], 19_733: [speed, power]])
        // Skipping after 2549: the power at 2550 and 2601 go, the speed at 2500 stays.
        XCTAssertEqual(census.skippingAfter(base + 2549)?.runDates(runs: runs), [19_732: [speed, power], 19_733: [speed]])
    }
}
