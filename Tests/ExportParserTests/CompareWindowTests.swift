import Foundation
import XCTest

@testable import ExportParser

/// `compare --from D` reads an export through the window (issue 42, docs/compare.md "The window
/// read"): its outputs are a full read's byte for byte, and the census of what it cut gives the
/// side's dates and sources exactly.
final class CompareWindowTests: ParseThreadsTestCase {
    /// Every file compare writes, and its terminal text (or the error), of one run; and how many
    /// inputs of each side it read through the window.
    private func outputs(
        _ native: String, _ hae: String, from: String, days: Int, window: Bool, out: URL
    ) throws -> ([String: Data], windowReads: (native: Int, hae: Int)) {
        let job = try CompareJob(CompareRequest(native: [native], hae: [hae], days: days, from: from, outDir: out.path))
        job.windowRead = window
        do {
            let outcome = try job.run()
            var files = try FixtureCheck.files(out)
            files["terminal"] = Data(outcome.terminalText(color: false).utf8)
            return (files, job.windowReads)
        } catch {
            return (["error": Data("\(error)".utf8)], job.windowReads)
        }
    }

    private func assertSameOutputs(_ native: String, _ hae: String, from: String, days: Int = 7, _ label: String) throws {
        ParseThreads.count = 2
        ParseThreads.chunkBytes = 4096
        let dir = try TestPaths.temporaryDirectory("compare-window")
        // One folder for both: the terminal text names it.
        let out = dir.appendingPathComponent("out")
        let (full, fullReads) = try outputs(native, hae, from: from, days: days, window: false, out: out)
        XCTAssertTrue(fullReads == (0, 0), "\(label) \(from): the full read went through the window")
        try? FileManager.default.removeItem(at: out)
        let (windowed, windowReads) = try outputs(native, hae, from: from, days: days, window: true, out: out)
        // The window reads stood on their own (no fallback to a full read): the export side's
        // (`CompareWindowSide`) and the HAE side's (`CompareHAEWindowSide`, docs/hae.md "The
        // window read") …
        XCTAssertEqual(windowReads.native, 1, "\(label) \(from): the window read fell back")
        XCTAssertEqual(windowReads.hae, 1, "\(label) \(from): the HAE side's window read fell back")
        // … and wrote what the full read writes.
        XCTAssertNil(full["error"].map { String(decoding: $0, as: UTF8.self) }, label)
        XCTAssertEqual(Set(windowed.keys), Set(full.keys), "\(label) \(from)")
        for (name, data) in full.sorted(by: { $0.key < $1.key }) where windowed[name] != data {
            XCTFail("\(label) \(from): \(name) differs:\n\(FixtureCheck.firstDifference(data, windowed[name] ?? Data()))")
        }
    }

    /// 21 dates from 2026-03-10 (to 03-30) on every profile, two windows: a week from the first
    /// date (dates after it), and two weeks from 03-17 to the last date (dates before it), across
    /// Europe/Amsterdam's change to summer time (03-29) for the three who stay home, and the
    /// traveller's flight west (03-20, the fixture's middle date; New York had changed on 03-08).
    /// The traveller has a third window with dates on both sides, 03-14 to 03-20, ending on the
    /// flight's date; its export.zip is read too.
    func testCompareOfAWindowReadIsTheFullReadsOnEveryProfile() throws {
        for profile in ["runner", "sedentary", "shift-worker", "traveller"] {
            let dir = try FixtureCheck.make(days: 21, start: "2026-03-10", seed: 4, profile: profile, name: "cmpwin-\(profile)")
            let hae = dir.appendingPathComponent("hae.json").path
            var natives = ["export.xml"]
            if profile == "traveller" { natives.append("export.zip") }
            for name in natives {
                let native = dir.appendingPathComponent(name).path
                guard FileManager.default.fileExists(atPath: native) else { continue }
                var windows = [("2026-03-10", 7), ("2026-03-17", 14)]
                if profile == "traveller" { windows.append(("2026-03-14", 7)) }
                for (from, days) in windows {
                    try assertSameOutputs(native, hae, from: from, days: days, "\(profile) \(name)")
                }
            }
        }
    }

    /// The public samples (real exports): a week at the first and the last date of each,
    /// against a fixture's HAE file (no date in common: the summary lines and gaps still are
    /// the export's).
    func testCompareOfAWindowReadIsTheFullReadsOnThePublicSamples() throws {
        try TestPaths.requirePublicSamples()
        let hae = try FixtureCheck.make(days: 3, seed: 1, name: "cmpwin-samples-hae").appendingPathComponent("hae.json").path
        let files = FileManager.default.enumerator(atPath: TestPaths.publicExports.path)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".xml") || $0.hasSuffix(".zip") }.sorted()
        var compared = 0
        for name in files {
            let path = TestPaths.publicExports.appendingPathComponent(name).path
            guard let format = try? InputDetector.detect(path: path), format != .hae else { continue }
            ParseThreads.count = 1
            let book = DayBook(options: try DayOptions(timeZoneName: nil))
            guard (try? InputReader.read(path, format: format, into: book)) != nil else { continue }
            let days = book.finish()
            guard let first = days.first, let last = days.last else { continue }
            for from in Set([first.dayNumber, max(first.dayNumber, last.dayNumber - 6)]).sorted() {
                try assertSameOutputs(path, hae, from: CivilDate.isoDate(from), name)
            }
            compared += 1
        }
        XCTAssertGreaterThan(compared, 0)
    }

    private static func record(
        _ type: String, _ value: String, source: String = "Phone", device: String = "iPhone", start: String, end: String? = nil,
        children: String = ""
    ) -> String {
        let tag =
            " <Record type=\"\(type)\" sourceName=\"\(source)\" device=\"&lt;&lt;HKDevice: 0x1&gt;, name:\(device), model:\(device),&gt;\" "
            + "unit=\"\(type.hasSuffix("HeartRate") ? "count/min" : "count")\" startDate=\"\(start)\" endDate=\"\(end ?? start)\" value=\"\(value)\""
        return children.isEmpty ? tag + "/>\n" : tag + ">\n" + children + " </Record>\n"
    }

    private static func export(_ body: String, exportDate: String = "2024-04-01 08:00:00 +0100") -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"\(exportDate)\"/>\n" + body
            + "</HealthData>\n"
    }

    /// The census of a small export, worked out by hand. The one `HKTimeZone` entry (a), a month
    /// before the window, puts every date in New York (UTC−5 in January), far from the recorded
    /// +0100 (a second pass). Window: --from 2024-02-01 --days 7; the scan keeps elements that
    /// overlap 2024-01-30 00:00 … 2024-02-10 00:00 UTC.
    ///
    ///   a  heart rate 01-05 12:00 +0100, HKTimeZone                  kept      06:00 EST  01-05
    ///   b  steps 01-10 12:00–12:05 +0100, "Anna &amp; Bob&apos;s"    census    06:00 EST  01-10
    ///   c  a type the catalog lacks, 01-12                           census    no date, no name
    ///   d  that type from watch W, 01-13                             kept (W's first): W named
    ///   e  steps 01-15 23:50 → 01-16 00:20 +0100                     census    17:50–18:20 EST  01-15
    ///   f  heart rate 01-20 23:55 +0100 (Phone2)                     census    17:55 EST  01-20
    ///   g  heart rate 01-25 00:30 +0100 = 01-24 23:30 UTC            census    18:30 EST  01-24
    ///                                                                (by its recorded offset: 01-25)
    ///   k  steps 01-28 05:50 → 06:20 +0100 = 04:50–05:20 UTC        census    23:50 EST 01-27 to
    ///                                                                          00:20 EST 01-28: both
    ///   h  steps 02-02 12:00 +0100                                   the window           02-02
    ///   j  steps 03-01 12:00 +0100 (Late)                            census    06:00 EST  03-01
    ///
    /// Dates: 01-05, 01-10, 01-15, 01-20, 01-24, 01-27, 01-28, 02-02, 03-01 = 9, first 2024-01-05,
    /// last 2024-03-01. Sources: the sums' (Anna & Bob's, Phone, Late) and the watch's (W); heart
    /// rate names none (Phone2).
    func testTheCensusGivesTheSidesDatesAndSourcesExactly() throws {
        let steps = "HKQuantityTypeIdentifierStepCount", heart = "HKQuantityTypeIdentifierHeartRate"
        let other = "HKQuantityTypeIdentifierNotInTheCatalog"
        XCTAssertNil(Catalog.metric(forType: other))
        let body =
            Self.record(
                heart, "60", start: "2024-01-05 12:00:00 +0100",
                children: "  <MetadataEntry key=\"HKTimeZone\" value=\"America/New_York\"/>\n")
            + Self.record(
                steps, "10", source: "Anna &amp; Bob&apos;s iPhone", start: "2024-01-10 12:00:00 +0100", end: "2024-01-10 12:05:00 +0100")
            + Self.record(other, "1", start: "2024-01-12 12:00:00 +0100")
            + Self.record(other, "1", source: "W", device: "Watch", start: "2024-01-13 12:00:00 +0100")
            + Self.record(steps, "30", start: "2024-01-15 23:50:00 +0100", end: "2024-01-16 00:20:00 +0100")
            + Self.record(heart, "70", source: "Phone2", start: "2024-01-20 23:55:00 +0100")
            + Self.record(heart, "80", source: "Phone2", start: "2024-01-25 00:30:00 +0100")
            + Self.record(steps, "40", start: "2024-01-28 05:50:00 +0100", end: "2024-01-28 06:20:00 +0100")
            + Self.record(steps, "100", start: "2024-02-02 12:00:00 +0100", end: "2024-02-02 12:10:00 +0100")
            + Self.record(steps, "5", source: "Late", start: "2024-03-01 12:00:00 +0100", end: "2024-03-01 12:01:00 +0100")
        let path = try TestPaths.temporaryDirectory().appendingPathComponent("export.xml")
        try Data(Self.export(body).utf8).write(to: path)
        ParseThreads.count = 2
        ParseThreads.chunkBytes = 64
        let options = try DayOptions(timeZoneName: nil)
        let from = try XCTUnwrap(CivilDate.parseISODate("2024-02-01"))
        let window = Comparison.Window(from: from, to: from + 6)
        let windowed = try XCTUnwrap(CompareWindowSide.read(path.path, format: .appleXML, options: options, window: window, progress: nil))
        let summary = CompareSideSummary(side: .native, kind: "Apple Health export", files: [path.path], days: windowed)
        XCTAssertEqual(summary.first, "2024-01-05")
        XCTAssertEqual(summary.last, "2024-03-01")
        XCTAssertEqual(summary.dates, 9)
        XCTAssertEqual(
            windowed.keys.sorted(),
            ["2024-01-05", "2024-01-10", "2024-01-15", "2024-01-20", "2024-01-24", "2024-01-27", "2024-01-28", "2024-02-02", "2024-03-01"])
        XCTAssertEqual(summary.sources, ["Anna & Bob's iPhone", "Late", "Phone", "W"])
        XCTAssertEqual(windowed["2024-02-02"]?.values["metrics.step_count"], .number(100))
        // The full read says the same.
        var ignored: [IgnoredPayloadKeys] = []
        var superseded = 0
        let full = try CompareJob.side([path.path], options: options, ignored: &ignored, superseded: &superseded)
        let fullSummary = CompareSideSummary(side: .native, kind: "Apple Health export", files: [path.path], days: full)
        XCTAssertEqual(fullSummary.sentence, summary.sentence)
        XCTAssertEqual(full.keys.sorted(), windowed.keys.sorted())
    }

    /// A record starting after the export date is one the reader skips; the census leaves it
    /// out too. By hand, the export dated 2024-02-20 08:00 +0100 (07:00 UTC), window 02-01 … 02-07:
    ///
    ///   steps 02-02 12:00 +0100 (Phone)           the window          02-02
    ///   steps 02-15 12:00 +0100 (Early)           census, before      02-15, "Early" named
    ///   steps 03-01 12:00 +0100 (Late)            census, after       no date, "Late" not named
    ///
    /// A record at 08:05 +0100 that day (07:05 UTC) is in the export date's own quarter-hour
    /// (07:00–07:15 UTC), where the census cannot tell before from after: read in full.
    func testRecordsAfterTheExportDateAreLeftOutOfTheCensus() throws {
        let steps = "HKQuantityTypeIdentifierStepCount"
        let body =
            Self.record(steps, "100", start: "2024-02-02 12:00:00 +0100", end: "2024-02-02 12:10:00 +0100")
            + Self.record(steps, "7", source: "Early", start: "2024-02-15 12:00:00 +0100", end: "2024-02-15 12:01:00 +0100")
            + Self.record(steps, "5", source: "Late", start: "2024-03-01 12:00:00 +0100", end: "2024-03-01 12:01:00 +0100")
        let dir = try TestPaths.temporaryDirectory()
        let path = dir.appendingPathComponent("export.xml")
        try Data(Self.export(body, exportDate: "2024-02-20 08:00:00 +0100").utf8).write(to: path)
        ParseThreads.count = 2
        ParseThreads.chunkBytes = 64
        let options = try DayOptions(timeZoneName: nil)
        let from = try XCTUnwrap(CivilDate.parseISODate("2024-02-01"))
        let window = Comparison.Window(from: from, to: from + 6)
        let side = try XCTUnwrap(CompareWindowSide.read(path.path, format: .appleXML, options: options, window: window, progress: nil))
        XCTAssertEqual(side.keys.sorted(), ["2024-02-02", "2024-02-15"])
        let summary = CompareSideSummary(side: .native, kind: "", files: [], days: side)
        XCTAssertEqual(summary.sources, ["Early", "Phone"])
        var ignored: [IgnoredPayloadKeys] = []
        var superseded = 0
        let full = try CompareJob.side([path.path], options: options, ignored: &ignored, superseded: &superseded)
        XCTAssertEqual(full.keys.sorted(), side.keys.sorted())
        XCTAssertEqual(CompareSideSummary(side: .native, kind: "", files: [], days: full).sources, summary.sources)

        let edge = dir.appendingPathComponent("edge.xml")
        let atTheMoment = Self.record(steps, "3", source: "Edge", start: "2024-02-20 08:05:00 +0100", end: "2024-02-20 08:06:00 +0100")
        try Data(Self.export(body + atTheMoment, exportDate: "2024-02-20 08:00:00 +0100").utf8).write(to: edge)
        XCTAssertNil(try CompareWindowSide.read(edge.path, format: .appleXML, options: options, window: window, progress: nil))
        let fullEdge = try CompareJob.side([edge.path], options: options, ignored: &ignored, superseded: &superseded, window: window)
        XCTAssertEqual(fullEdge.keys.sorted(), ["2024-02-02", "2024-02-15"])
    }

    /// Source names as libxml2 hands them over: entities decoded; a name the census cannot
    /// decode so is not taken (its record is read).
    func testSourceNamesDecodeAsTheReaderDoes() {
        XCTAssertEqual(WindowCensus.decode(Array("Anna &amp; Bob&apos;s &#8217;&#x41;".utf8)), "Anna & Bob's ’A")
        XCTAssertTrue(WindowCensus.isPlainName(Array("Anna’s Apple Watch".utf8)))
        XCTAssertFalse(WindowCensus.isPlainName(Array("A &nbsp; B".utf8)))
        XCTAssertFalse(WindowCensus.isPlainName(Array("A\tB".utf8)))
        XCTAssertFalse(WindowCensus.isPlainName(Array("A & B".utf8)))
    }
}
