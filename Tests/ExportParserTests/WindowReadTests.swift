import Foundation
import XCTest

@testable import ExportParser

/// The window read (issue 42, docs/export-xml.md "The window read"): the byte scan keeps exactly
/// the top-level elements that can reach the dates asked about, and `explain` of a window read
/// says what `explain` of a full read says, on every fixture profile, the public samples, the
/// first and last dates, a daylight-saving change and the traveller's zones.
final class WindowReadTests: ParseThreadsTestCase {
    private static func line(
        _ type: String, _ value: String, source: String = "Phone", device: String = "iPhone", start: String, end: String
    )
        -> String
    {
        " <Record type=\"\(type)\" sourceName=\"\(source)\" device=\"&lt;&lt;HKDevice: 0x1&gt;, name:\(device), model:\(device),&gt;\" "
            + "unit=\"count\" startDate=\"\(start)\" endDate=\"\(end)\" value=\"\(value)\"/>\n"
    }

    /// The window of 2024-03-05 (day 19787): from 19787 × 86400 − 2 days = 2024-03-03 00:00 UTC
    /// to 19788 × 86400 + 2 days = 2024-03-08 00:00 UTC. Element by element, by hand:
    ///
    ///   v1  steps 03-05 08:00–08:10 +0100                   in the window              kept
    ///   v2  steps 02-20, the iPhone's                        before, not a watch        cut
    ///   v3  steps 02-20, watch W (model:Watch,)              W's first: the book must
    ///                                                        know W is a watch          kept
    ///   v4  steps 02-21, watch W again                       W known                    cut
    ///   v5  sleep 01-10                                      a sleep sample before the
    ///                                                        window's end               kept
    ///   v6  sleep 04-01                                      after the window           cut
    ///   v7  heart rate 01-01 with an HKTimeZone entry        the timeline's             kept
    ///   v8  steps 03-07 23:00 +0100 = 22:00 UTC              < 03-08 00:00 UTC          kept
    ///   v9  steps 03-08 02:00 +0100 = 01:00 UTC              ≥ the end                  cut
    ///   v10 steps 03-02 22:00–23:59:59 +0000                 ends before 03-03 00:00    cut
    ///   v11 steps 03-02 23:00 –03-03 00:30 +0000             crosses into the window    kept
    ///   rings 2024-03-06 in, 2024-03-20 out; ExportDate and Me (no dates)               kept
    func testTheScanKeepsWhatCanReachTheDateAndCutsTheRest() throws {
        let steps = "HKQuantityTypeIdentifierStepCount", sleep = Catalog.sleepType
        let watchDevice = "Watch"
        var body = ""
        body += Self.line(steps, "v1", start: "2024-03-05 08:00:00 +0100", end: "2024-03-05 08:10:00 +0100")
        body += Self.line(steps, "v2", start: "2024-02-20 08:00:00 +0100", end: "2024-02-20 08:10:00 +0100")
        body += Self.line(
            steps, "v3", source: "W", device: watchDevice, start: "2024-02-20 09:00:00 +0100", end: "2024-02-20 09:10:00 +0100")
        body += Self.line(
            steps, "v4", source: "W", device: watchDevice, start: "2024-02-21 09:00:00 +0100", end: "2024-02-21 09:10:00 +0100")
        body += Self.line(sleep, "v5", start: "2024-01-10 23:00:00 +0100", end: "2024-01-11 07:00:00 +0100")
        body += Self.line(sleep, "v6", start: "2024-04-01 23:00:00 +0100", end: "2024-04-02 07:00:00 +0100")
        body +=
            " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Phone\" unit=\"count/min\" "
            + "startDate=\"2024-01-01 08:00:00 +0100\" endDate=\"2024-01-01 08:00:00 +0100\" value=\"v7\">\n"
            + "  <MetadataEntry key=\"HKTimeZone\" value=\"Europe/Amsterdam\"/>\n </Record>\n"
        body += Self.line(steps, "v8", start: "2024-03-07 23:00:00 +0100", end: "2024-03-07 23:10:00 +0100")
        body += Self.line(steps, "v9", start: "2024-03-08 02:00:00 +0100", end: "2024-03-08 02:10:00 +0100")
        body += Self.line(steps, "v10", start: "2024-03-02 22:00:00 +0000", end: "2024-03-02 23:59:59 +0000")
        body += Self.line(steps, "v11", start: "2024-03-02 23:00:00 +0000", end: "2024-03-03 00:30:00 +0000")
        body += " <ActivitySummary dateComponents=\"2024-03-06\" activeEnergyBurned=\"r1\"/>\n"
        body += " <ActivitySummary dateComponents=\"2024-03-20\" activeEnergyBurned=\"r2\"/>\n"
        let xml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-04-03 08:00:00 +0100\"/>\n"
            + " <Me HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexFemale\"/>\n" + body + "</HealthData>\n"
        let day = try XCTUnwrap(CivilDate.parseISODate("2024-03-05"))
        XCTAssertEqual(day, 19787)
        let window = ExportWindow(days: day...day)
        XCTAssertEqual(window.from, 19787 * 86_400 - 2 * 86_400)
        XCTAssertEqual(window.to, 19788 * 86_400 + 2 * 86_400)
        var bytes = Array(xml.utf8)
        var seen = ExportWindow.Seen()
        window.filter(&bytes, seen: &seen)
        let left = String(decoding: bytes, as: UTF8.self)
        let values = ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "r1", "r2"].filter {
            left.contains("value=\"\($0)\"") || left.contains("activeEnergyBurned=\"\($0)\"")
        }
        XCTAssertEqual(values, ["v1", "v3", "v5", "v7", "v8", "v11", "r1"])
        XCTAssertTrue(left.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n <ExportDate "), left)
        XCTAssertTrue(left.contains(" <Me "))
        XCTAssertTrue(left.hasSuffix("\n</HealthData>\n"), left)
        // 6 cut of the 15 elements; the prolog line, the root's start and end tags are segments too.
        XCTAssertEqual(seen.dropped, 6)
        // What is left is still an export: the parallel reader, with chunks cut everywhere, reads it.
        let sink = CollectingSink()
        try AppleExportReader.read(data: Data(xml.utf8), name: "w.xml", into: sink, threads: 2, chunkBytes: 64, window: window)
        XCTAssertEqual(sink.summaries.count, 1)
        XCTAssertEqual(sink.exportDates.count, 1)
    }

    /// The dates decided by their first ten bytes (`ExportWindow.reach`), at its bounds. The window
    /// of 2024-03-05 runs from 2024-03-03 00:00 UTC (day 19785) to 2024-03-08 00:00 UTC (19790);
    /// a date whose text is on or before 2024-03-01 (19785 − 2) ends before it at any offset, one on
    /// or after 2024-03-09 (19790 + 1) starts after it. By hand:
    ///
    ///   b1  03-01 23:59:59 −1859 = 03-02 18:58:59 UTC       text ≤ 03-01: before      cut
    ///   b2  03-02 23:59:59 −1859 = 03-03 18:58:59 UTC       text near: parsed, in     kept
    ///   b3  03-09 00:00:00 +1859 = 03-08 05:01:00 UTC       text ≥ 03-09: after       cut
    ///   b4  03-08 23:00:00 +1800 = 03-08 05:00:00 UTC       text near: parsed, ≥ end  cut
    ///   b5  02-20, the iPhone's, hour 25 (unreadable)       before by its text        cut
    ///                                                       (the reader skips it)
    ///   b6  02-20, watch X, hour 25 (unreadable)            X's first record: parsed,
    ///                                                       unreadable: kept, as before,
    ///                                                       X not taken as known      kept
    ///   b7  02-21, watch X, readable                        X's first readable        kept
    ///   b8  02-22, watch X again                            X known                   cut
    func testDatesFarFromTheWindowAreDecidedByTheirText() throws {
        let steps = "HKQuantityTypeIdentifierStepCount"
        var body = ""
        body += Self.line(steps, "b1", start: "2024-03-01 23:59:59 -1859", end: "2024-03-01 23:59:59 -1859")
        body += Self.line(steps, "b2", start: "2024-03-02 23:59:59 -1859", end: "2024-03-02 23:59:59 -1859")
        body += Self.line(steps, "b3", start: "2024-03-09 00:00:00 +1859", end: "2024-03-09 00:00:00 +1859")
        body += Self.line(steps, "b4", start: "2024-03-08 23:00:00 +1800", end: "2024-03-08 23:00:00 +1800")
        body += Self.line(steps, "b5", start: "2024-02-20 25:00:00 +0100", end: "2024-02-20 25:10:00 +0100")
        body += Self.line(steps, "b6", source: "X", device: "Watch", start: "2024-02-20 25:00:00 +0100", end: "2024-02-20 25:10:00 +0100")
        body += Self.line(steps, "b7", source: "X", device: "Watch", start: "2024-02-21 09:00:00 +0100", end: "2024-02-21 09:10:00 +0100")
        body += Self.line(steps, "b8", source: "X", device: "Watch", start: "2024-02-22 09:00:00 +0100", end: "2024-02-22 09:10:00 +0100")
        var bytes = Array(("<HealthData locale=\"en_US\">\n" + body + "</HealthData>\n").utf8)
        let window = ExportWindow(days: 19787...19787)
        XCTAssertEqual(CivilDate.parseISODate("2024-03-01"), 19785 - 2)
        XCTAssertEqual(CivilDate.parseISODate("2024-03-09"), 19790 + 1)
        var seen = ExportWindow.Seen()
        window.filter(&bytes, seen: &seen)
        let left = String(decoding: bytes, as: UTF8.self)
        let values = (1...8).map { "b\($0)" }.filter { left.contains("value=\"\($0)\"") }
        XCTAssertEqual(values, ["b2", "b6", "b7"])
        XCTAssertEqual(seen.watchSources, [Array("X".utf8)])
    }

    /// Character references the scan's byte tests cannot read, which the reader decodes: what they
    /// may say is kept. The window of 2024-03-05 (2024-03-03 00:00 to 03-08 00:00 UTC); every
    /// element below is weeks before it, so only these tests can keep it. By hand:
    ///
    ///   c1  steps 02-20, source Y, device `model:W&#97;tch,` (the reader: `Watch,`)   kept
    ///   c2  steps 02-21, source Y, the same device (every such tag is kept)           kept
    ///   c3  steps 02-22, the iPhone's, no reference                                  cut
    ///   c4  heart rate 01-01, nested `key="HK&#84;imeZone"` (the reader: HKTimeZone)  kept
    ///   c5  heart rate 01-02, nested `key="HKMetadataKeyHeartRateMotionContext"`      cut
    ///   c6  heart rate 01-03, the zone entry on the record's own line, so written     kept
    ///
    /// Before, c1, c2, c4 and c6 were cut: the watch, and the zone that dates every sample after
    /// it, were lost to a window read.
    func testCharacterReferencesTheScanCannotReadAreKept() throws {
        let steps = "HKQuantityTypeIdentifierStepCount", heart = "HKQuantityTypeIdentifierHeartRate"
        var body = ""
        body += Self.line(
            steps, "c1", source: "Y", device: "W&#97;tch", start: "2024-02-20 09:00:00 +0100", end: "2024-02-20 09:10:00 +0100")
        body += Self.line(
            steps, "c2", source: "Y", device: "W&#97;tch", start: "2024-02-21 09:00:00 +0100", end: "2024-02-21 09:10:00 +0100")
        body += Self.line(steps, "c3", start: "2024-02-22 09:00:00 +0100", end: "2024-02-22 09:10:00 +0100")
        body +=
            " <Record type=\"\(heart)\" sourceName=\"Phone\" unit=\"count/min\" startDate=\"2024-01-01 08:00:00 +0100\" "
            + "endDate=\"2024-01-01 08:00:00 +0100\" value=\"c4\">\n  <MetadataEntry key=\"HK&#84;imeZone\" value=\"America/New_York\"/>\n </Record>\n"
        body +=
            " <Record type=\"\(heart)\" sourceName=\"Phone\" unit=\"count/min\" startDate=\"2024-01-02 08:00:00 +0100\" "
            + "endDate=\"2024-01-02 08:00:00 +0100\" value=\"c5\">\n  <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"0\"/>\n </Record>\n"
        body +=
            " <Record type=\"\(heart)\" sourceName=\"Phone\" unit=\"count/min\" startDate=\"2024-01-03 08:00:00 +0100\" "
            + "endDate=\"2024-01-03 08:00:00 +0100\" value=\"c6\"><MetadataEntry key=\"HK&#84;imeZone\" value=\"Asia/Tokyo\"/></Record>\n"
        var bytes = Array(("<HealthData locale=\"en_US\">\n" + body + "</HealthData>\n").utf8)
        var seen = ExportWindow.Seen()
        ExportWindow(days: 19787...19787).filter(&bytes, seen: &seen)
        let left = String(decoding: bytes, as: UTF8.self)
        XCTAssertEqual((1...6).map { "c\($0)" }.filter { left.contains("value=\"\($0)\"") }, ["c1", "c2", "c4", "c6"])
    }

    /// The zone entry of `testTheZoneEntryThatSetsTheDateIsKeptHoweverFarBefore` with its key
    /// written `HK&#84;imeZone`: the reader decodes it, so 2024-03-04 is New York's and holds
    /// 7 + 100 = 107 steps (the arithmetic is that test's), in the window read as in full.
    func testAZoneKeyWrittenWithAReferenceStillDatesTheWindow() throws {
        try assertZoneEntryAMonthBeforeDatesTheWindow(key: "HK&#84;imeZone", "zone key with a reference")
    }

    /// `explain` of every field of a date, as JSON: the window read's and the full read's.
    private func explanations(_ path: String, date: String, window: Bool) throws -> String {
        let job = try ExplainJob(ExplainRequest(inputs: [path], date: date, field: "metrics.step_count"))
        job.windowRead = window
        let reading: ExplainJob.DateReading
        do {
            reading = try job.readDate()
        } catch {
            return "error: \(error)"
        }
        return ExplainedField.all.map { ExplanationJSON.render(job.explain($0, in: reading)) }.joined(separator: "\n")
    }

    private func assertSameExplanations(_ path: String, dates: [String], _ label: String) throws {
        for date in dates {
            ParseThreads.count = 2
            ParseThreads.chunkBytes = 4096
            let windowed = try explanations(path, date: date, window: true)
            let full = try explanations(path, date: date, window: false)
            XCTAssertFalse(full.hasPrefix("error"), "\(label) \(date): \(full)")
            XCTAssertEqual(windowed, full, "\(label) \(date)")
        }
    }

    /// Ten dates from 2026-03-24 over Europe/Amsterdam's change to summer time (03-29), for every
    /// profile; the traveller's trips move the zone (docs/fixtures.md). The traveller's every
    /// date is explained; the other profiles' first and last dates and the three around the
    /// change (each explained twice, in full and through the window, is a full read of the
    /// export: the rest were the longest part of the suite and met nothing these do not); and the
    /// export.zip of one profile too.
    func testExplainOfAWindowReadIsTheFullReadsOnEveryProfile() throws {
        for profile in ["runner", "sedentary", "shift-worker", "traveller"] {
            let dir = try FixtureCheck.make(days: 10, start: "2026-03-24", seed: 2, profile: profile, name: "window-\(profile)")
            let all = (0..<10).map { CivilDate.isoDate(CivilDate.parseISODate("2026-03-24")! + $0) }
            let dates = profile == "traveller" ? all : [all[0], all[4], all[5], all[6], all[9]]
            XCTAssertEqual(dates.filter { ["2026-03-24", "2026-03-29", "2026-04-02"].contains($0) }.count, 3)
            let xml = dir.appendingPathComponent("export.xml").path
            if FileManager.default.fileExists(atPath: xml) {
                try assertSameExplanations(xml, dates: dates, profile)
            }
            if profile == "traveller" {
                try assertSameExplanations(
                    dir.appendingPathComponent("export.zip").path, dates: [all[0], all[5], all[9]], "\(profile) zip")
            }
        }
    }

    /// The window read cuts most of a long export: of 60 dates, one date's window (5 dates of
    /// UTC) keeps under a third of the samples (sleep samples before it, and one record a
    /// watch source, are kept on purpose).
    func testTheWindowReadParsesOnlyAFewDates() throws {
        let dir = try FixtureCheck.make(days: 60, start: "2026-01-01", seed: 3, profile: "runner", name: "window-long")
        let zip = dir.appendingPathComponent("export.zip").path
        let day = CivilDate.parseISODate("2026-02-01")!
        var full = AppleExportReader(path: zip)
        full.threads = 2
        let all = CollectingSink()
        try full.read(into: all)
        var windowed = full
        windowed.window = ExportWindow(days: day...day)
        let some = CollectingSink()
        try windowed.read(into: some)
        XCTAssertGreaterThan(all.samples.count, 0)
        XCTAssertLessThan(some.samples.count * 3, all.samples.count, "\(some.samples.count) of \(all.samples.count)")
        try assertSameExplanations(zip, dates: ["2026-01-01", "2026-02-01", "2026-03-01"], "60 dates")
    }

    /// The public samples (real exports): the first and last date of each, and an error where a
    /// full read meets one.
    func testExplainOfAWindowReadIsTheFullReadsOnThePublicSamples() throws {
        try TestPaths.requirePublicSamples()
        let files = FileManager.default.enumerator(atPath: TestPaths.publicExports.path)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".xml") || $0.hasSuffix(".zip") }.sorted()
        XCTAssertFalse(files.isEmpty)
        var explained = 0
        for name in files {
            let path = TestPaths.publicExports.appendingPathComponent(name).path
            guard let format = try? InputDetector.detect(path: path), format != .hae else { continue }
            ParseThreads.count = 1
            let book = DayBook(options: try DayOptions(timeZoneName: nil))
            guard (try? InputReader.read(path, format: format, into: book)) != nil else { continue }
            let days = book.finish()
            guard let first = days.first, let last = days.last else { continue }
            try assertSameExplanations(path, dates: Array(Set([first.date, last.date])).sorted(), name)
            explained += 1
        }
        XCTAssertGreaterThan(explained, 0)
    }

    /// The zone at the date is set by an `HKTimeZone` entry a month before it, far outside the
    /// window: the scan keeps that element, so the date's midnight is New York's. By hand:
    ///
    ///   heart rate 02-01 12:00 +0100, HKTimeZone America/New_York: the timeline's one entry
    ///   steps 7    03-04 20:00–20:10 +0100 = 19:00 UTC = 14:00 EST on 03-04            7
    ///   steps 100  03-05 03:00–03:10 +0100 = 02:00 UTC = 21:00 EST on 03-04          100
    ///   steps 50   03-05 12:00–12:10 +0100 = 11:00 UTC = 06:00 EST on 03-05      (03-05)
    ///                                                               03-04 total      107
    /// Dated by the recorded +0100 instead (the entry lost), 03-04 would hold only the 7.
    func testTheZoneEntryThatSetsTheDateIsKeptHoweverFarBefore() throws {
        try assertZoneEntryAMonthBeforeDatesTheWindow(key: "HKTimeZone", "zone a month before")
    }

    /// The export of the test above, its zone entry's key written `key`: 2024-03-04 explained
    /// through the window holds 107 steps, and both dates explain as in full.
    private func assertZoneEntryAMonthBeforeDatesTheWindow(key: String, _ label: String) throws {
        let steps = "HKQuantityTypeIdentifierStepCount"
        let body =
            record(
                "HKQuantityTypeIdentifierHeartRate", "60", unit: "count/min", start: "2024-02-01 12:00:00 +0100",
                children: "\n  <MetadataEntry key=\"\(key)\" value=\"America/New_York\"/>\n ")
            + record(steps, "7", unit: "count", start: "2024-03-04 20:00:00 +0100", end: "2024-03-04 20:10:00 +0100")
            + record(steps, "100", unit: "count", start: "2024-03-05 03:00:00 +0100", end: "2024-03-05 03:10:00 +0100")
            + record(steps, "50", unit: "count", start: "2024-03-05 12:00:00 +0100", end: "2024-03-05 12:10:00 +0100")
        let path = try TestPaths.temporaryDirectory().appendingPathComponent("export.xml")
        try Data(export(body).utf8).write(to: path)
        ParseThreads.count = 2
        ParseThreads.chunkBytes = 64
        let job = try ExplainJob(ExplainRequest(inputs: [path.path], date: "2024-03-04", field: "metrics.step_count"))
        XCTAssertEqual(job.explain(job.field, in: try job.readDate()).number, 107, label)
        try assertSameExplanations(path.path, dates: ["2024-03-04", "2024-03-05"], label)
    }

    /// An export without any `HKTimeZone` is dated by each sample's recorded offset, in the window
    /// as in full: the runner's fixture with every zone entry taken out, every date explained.
    func testAnExportWithoutTimeZoneEntriesIsDatedAsInFull() throws {
        let dir = try FixtureCheck.make(days: 6, start: "2026-03-26", seed: 5, profile: "traveller", name: "window-no-zone")
        let text = try String(contentsOf: dir.appendingPathComponent("export.xml"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let kept = lines.filter { !$0.contains("HKTimeZone") }
        XCTAssertLessThan(kept.count, lines.count)
        let path = dir.appendingPathComponent("no-zone.xml")
        try Data(kept.joined(separator: "\n").utf8).write(to: path)
        let dates = (0..<6).map { CivilDate.isoDate(CivilDate.parseISODate("2026-03-26")! + $0) }
        try assertSameExplanations(path.path, dates: dates, "no HKTimeZone")
    }
}
