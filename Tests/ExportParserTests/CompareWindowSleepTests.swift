import Foundation
import XCTest

@testable import ExportParser

/// compare's window read walks a plain sleep record outside the window from its start tag
/// instead of handing it to libxml2 (`ExportWindow.walkSleep`), and the player gives the handler
/// the sample in its place in file order (docs/export-xml.md, "The census"). Each case is
/// compared through the window and in full, every file compare writes and its terminal text
/// byte for byte; the scan is shown to walk what it may, and the tape to keep the file's order.
final class CompareWindowSleepTests: ParseThreadsTestCase {
    typealias Census = CompareWindowCensusTests
    static let sleepType = "HKCategoryTypeIdentifierSleepAnalysis"
    static let core = "HKCategoryValueSleepAnalysisAsleepCore", deep = "HKCategoryValueSleepAnalysisAsleepDeep"
    static let rem = "HKCategoryValueSleepAnalysisAsleepREM", awake = "HKCategoryValueSleepAnalysisAwake"
    static let inBed = "HKCategoryValueSleepAnalysisInBed", asleep = "HKCategoryValueSleepAnalysisAsleep"

    /// A sleep record as Apple writes it (`children`: its nested lines, the record then open).
    static func sleep(
        _ value: String, source: String = "Watch", device: String = Census.watch, start: String, end: String, children: String = ""
    ) -> String {
        let tag =
            " <Record type=\"\(sleepType)\" sourceName=\"\(source)\" sourceVersion=\"10.1\" device=\"\(device)\" "
            + "creationDate=\"\(end)\" startDate=\"\(start)\" endDate=\"\(end)\" value=\"\(value)\""
        return children.isEmpty ? tag + "/>\n" : tag + ">\n" + children + " </Record>\n"
    }

    /// The nights of the first test, by hand (window 2024-02-01 … 02-07, read from 01-30 00:00
    /// UTC to 02-10 00:00 UTC with the two days' margin; all times +0100):
    ///
    ///   01-10  Ann’s Watch (a watch known only by these walked records): core 23:00–02:00 (3 h),
    ///          deep 02–03 (1 h), rem 03–04 (1 h), awake 04:00–04:15 (0.25 h); Phone: in bed
    ///          22:30–07:00, asleep 23:00–06:30. A watch has stages: its samples alone count,
    ///          total 3 + 1 + 1 = 5 h (Phone's 7.5 h would be the total were the watch not known)
    ///   01-15  Phone asleep 23:00–06:00 with an HKTimeZone entry (walked, the zone with it): 7 h
    ///   01-18  Phone asleep 23:00–06:00 with Apple's two lines, zone and sync version (walked): 7 h
    ///   01-20  Phone asleep 23:30–06:00, a metadata value with an entity (read): 6.5 h
    ///   01-22  "Ann &amp; Bob" asleep 23:00–05:00 (an entity: read): 6 h
    ///   01-24  "W&#97;tch" (a reference: read; the reader's "Watch") core 23:00–07:00: 8 h
    ///   01-26  a value no stage has (read; the book takes nothing): no date
    ///   01-30  Watch core 01-29 22:00–00:30 (21:00–23:30 UTC: walked), deep 00:30–01:30 and
    ///          core 01:30–06:00 (on the margin: read); one session: core 2.5 + 4.5 = 7, deep 1,
    ///          total 8 h
    ///   02-02  the window's steps; 02-03  Watch core 02-02 23:00–06:00 (read): 7 h
    ///   03-05  Watch core 03-04 23:00–06:30 (walked): 7.5 h; Phone in bed 22:45–06:45
    ///   05-02  Watch core 05-01 23:00–06:00, after the export date (04-01): walked, then
    ///          skipped by the handler as the reader skips it: no date
    static var nights: String {
        let ann = "Ann’s Watch"
        var body = ""
        body += sleep(core, source: ann, start: "2024-01-09 23:00:00 +0100", end: "2024-01-10 02:00:00 +0100")
        body += sleep(deep, source: ann, start: "2024-01-10 02:00:00 +0100", end: "2024-01-10 03:00:00 +0100")
        body += sleep(rem, source: ann, start: "2024-01-10 03:00:00 +0100", end: "2024-01-10 04:00:00 +0100")
        body += sleep(awake, source: ann, start: "2024-01-10 04:00:00 +0100", end: "2024-01-10 04:15:00 +0100")
        body += sleep(inBed, source: "Phone", device: Census.phone, start: "2024-01-09 22:30:00 +0100", end: "2024-01-10 07:00:00 +0100")
        body += sleep(asleep, source: "Phone", device: Census.phone, start: "2024-01-09 23:00:00 +0100", end: "2024-01-10 06:30:00 +0100")
        body += sleep(
            asleep, source: "Phone", device: Census.phone, start: "2024-01-14 23:00:00 +0100", end: "2024-01-15 06:00:00 +0100",
            children: Census.zone("Europe/Berlin"))
        body += sleep(
            asleep, source: "Phone", device: Census.phone, start: "2024-01-17 23:00:00 +0100", end: "2024-01-18 06:00:00 +0100",
            children: Census.zone("Europe/Amsterdam") + "  <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"1\"/>\n")
        body += sleep(
            asleep, source: "Phone", device: Census.phone, start: "2024-01-19 23:30:00 +0100", end: "2024-01-20 06:00:00 +0100",
            children: "  <MetadataEntry key=\"HKMetadataKeyExternalUUID\" value=\"a&amp;b\"/>\n")
        body += sleep(
            asleep, source: "Ann &amp; Bob", device: Census.phone, start: "2024-01-21 23:00:00 +0100", end: "2024-01-22 05:00:00 +0100")
        body += sleep(core, source: "W&#97;tch", start: "2024-01-23 23:00:00 +0100", end: "2024-01-24 07:00:00 +0100")
        body += sleep("HKCategoryValueSleepAnalysisNap", start: "2024-01-25 13:00:00 +0100", end: "2024-01-25 14:00:00 +0100")
        body += sleep(core, start: "2024-01-29 22:00:00 +0100", end: "2024-01-30 00:30:00 +0100")
        body += sleep(deep, start: "2024-01-30 00:30:00 +0100", end: "2024-01-30 01:30:00 +0100")
        body += sleep(core, start: "2024-01-30 01:30:00 +0100", end: "2024-01-30 06:00:00 +0100")
        body += sleep(core, start: "2024-02-02 23:00:00 +0100", end: "2024-02-03 06:00:00 +0100")
        body += sleep(core, start: "2024-03-04 23:00:00 +0100", end: "2024-03-05 06:30:00 +0100")
        body += sleep(inBed, source: "Phone", device: Census.phone, start: "2024-03-04 22:45:00 +0100", end: "2024-03-05 06:45:00 +0100")
        body += sleep(core, start: "2024-05-01 23:00:00 +0100", end: "2024-05-02 06:00:00 +0100")
        return Census.export(body + Census.inWindow)
    }

    func testNightsAroundTheWindowReadAsInFull() throws {
        let text = Self.nights
        ParseThreads.count = 2
        ParseThreads.chunkBytes = 64
        let path = try TestPaths.temporaryDirectory("sleep-walk").appendingPathComponent("export.xml")
        try Data(text.utf8).write(to: path)
        let from = try XCTUnwrap(CivilDate.parseISODate("2024-02-01"))
        let days = try XCTUnwrap(
            try CompareWindowSide.read(
                path.path, format: .appleXML, options: DayOptions(), window: Comparison.Window(from: from, to: from + 6), progress: nil))
        XCTAssertEqual(
            days.keys.sorted(),
            [
                "2024-01-10", "2024-01-15", "2024-01-18", "2024-01-20", "2024-01-22", "2024-01-24", "2024-01-30", "2024-02-02",
                "2024-02-03", "2024-03-05",
            ])
        func hours(_ date: String, _ key: String) -> Double? {
            if case .number(let v) = days[date]?.values["sleep." + key] { return v }
            return nil
        }
        XCTAssertEqual(hours("2024-01-10", "total_hours"), 5)
        XCTAssertEqual(hours("2024-01-10", "core_hours"), 3)
        XCTAssertEqual(hours("2024-01-10", "deep_hours"), 1)
        XCTAssertEqual(hours("2024-01-10", "rem_hours"), 1)
        XCTAssertEqual(hours("2024-01-10", "awake_hours"), 0.25)
        XCTAssertEqual(hours("2024-01-15", "total_hours"), 7)
        XCTAssertEqual(hours("2024-01-18", "total_hours"), 7)
        XCTAssertEqual(hours("2024-01-20", "total_hours"), 6.5)
        XCTAssertEqual(hours("2024-01-22", "total_hours"), 6)
        XCTAssertEqual(hours("2024-01-24", "total_hours"), 8)
        XCTAssertEqual(hours("2024-01-30", "total_hours"), 8)
        XCTAssertEqual(hours("2024-01-30", "core_hours"), 7)
        XCTAssertEqual(hours("2024-01-30", "deep_hours"), 1)
        XCTAssertEqual(hours("2024-02-03", "total_hours"), 7)
        XCTAssertEqual(hours("2024-03-05", "total_hours"), 7.5)
        XCTAssertTrue(try Census.windowReadStands(text))
        // Chunks of every size cut the nights elsewhere; with --timezone each sample also notes
        // its start's date's offset on arrival (`DayBook.sample`), so order tells there too.
        for chunk in [64, 333, 4096, 1 << 20] {
            XCTAssertEqual(try Census.differences(text, chunk: chunk), [], "chunk \(chunk)")
        }
        XCTAssertEqual(try Census.differences(text, zone: "Europe/Berlin"), [])
        XCTAssertEqual(try Census.differences(text, zone: "America/New_York", chunk: 200), [])
    }

    /// What the scan walks: of six records, the four plain sleep records outside the window
    /// (Ann’s Watch's 01-10, Watch's 03-05, Phone's 01-15 with Apple's `HKTimeZone` line, Phone's
    /// 03-05 in bed); the window's steps and a sleep record whose metadata value holds an entity
    /// are kept. Each walked one's place is the count of kept bytes before it: the root's start
    /// tag, `<HealthData locale="en_US">`, is 27 bytes; a kept record's segment is its line feed
    /// before it and its lines without the last line feed (its string's length). So 27; then
    /// 27 + steps twice; 27 + steps + entity.
    func testTheScanWalksPlainSleepRecordsInPlace() throws {
        let ann = Self.sleep(Self.core, source: "Ann’s Watch", start: "2024-01-09 23:00:00 +0100", end: "2024-01-10 02:00:00 +0100")
        let after = Self.sleep(Self.deep, start: "2024-03-04 23:00:00 +0100", end: "2024-03-05 06:30:00 +0100")
        let zoned = Self.sleep(
            Self.asleep, source: "Phone", device: Census.phone, start: "2024-01-14 23:00:00 +0100", end: "2024-01-15 06:00:00 +0100",
            children: Census.zone("Europe/Berlin"))
        let entity = Self.sleep(
            Self.asleep, source: "Phone", device: Census.phone, start: "2024-01-19 23:30:00 +0100", end: "2024-01-20 06:00:00 +0100",
            children: "  <MetadataEntry key=\"HKMetadataKeyExternalUUID\" value=\"a&amp;b\"/>\n")
        let phone = Self.sleep(
            Self.inBed, source: "Phone", device: Census.phone, start: "2024-03-04 22:45:00 +0100", end: "2024-03-05 06:45:00 +0100")
        let body = ann + Census.inWindow + after + zoned + entity + phone
        var bytes = Array(("<HealthData locale=\"en_US\">\n" + body + "</HealthData>\n").utf8)
        var seen = ExportWindow.Seen()
        // The window 2024-02-01 … 02-07 is days 19754 … 19760 (2024-02-01 = 19,723 + 31).
        ExportWindow(days: 19754...19760, census: WindowCensusCollector()).filter(&bytes, seen: &seen)
        let left = String(decoding: bytes, as: UTF8.self)
        XCTAssertEqual(left, "<HealthData locale=\"en_US\">\n" + Census.inWindow + entity + "</HealthData>\n")
        let steps = Census.inWindow.utf8.count, kept = entity.utf8.count
        XCTAssertEqual(seen.walked.places, [27, 27 + steps, 27 + steps, 27 + steps + kept])
        // core, deep, asleep, in bed (`WalkedElement.values`).
        XCTAssertEqual(seen.walked.elements.map(\.value), [4, 5, 1, 0])
        XCTAssertEqual(seen.walked.elements.map(\.deviceIsWatch), [true, true, false, false])
        func text(_ first: Int32, _ count: Int32) -> String {
            String(decoding: seen.walked.sources[Int(first)..<Int(first + count)], as: UTF8.self)
        }
        XCTAssertEqual(seen.walked.elements.map { text($0.sourceFirst, $0.sourceCount) }, ["Ann’s Watch", "Watch", "Phone", "Phone"])
        XCTAssertEqual(seen.walked.elements.map(\.zoneCount), [-1, -1, 13, -1])  // "Europe/Berlin": 13 bytes
        XCTAssertEqual(text(seen.walked.elements[2].zoneFirst, 13), "Europe/Berlin")
        // The digest as the handler makes it: key, separator, value, separator.
        var digest = FNV1a()
        digest.add("HKTimeZone")
        digest.separate()
        digest.add("Europe/Berlin")
        digest.separate()
        XCTAssertEqual(seen.walked.elements[2].digest.value, digest.value)
        XCTAssertEqual(seen.walked.elements.map(\.hasMetadata), [false, false, true, false])
        // 2024-01-09 23:00 +0100 = 22:00 UTC on day 19,731 (2024-01-09 = 19,723 + 8).
        XCTAssertEqual(seen.walked.elements[0].start, Timestamp(seconds: 19_731 * 86_400 + 22 * 3_600, offset: 3_600))
        XCTAssertEqual(seen.walked.elements[0].end, Timestamp(seconds: 19_732 * 86_400 + 1 * 3_600, offset: 3_600))
    }

    /// The tape keeps the file's order: walked samples placed among the kept bytes come before
    /// the first top-level element past their place. Three steps records (values 5, 6, 7) and
    /// walked samples after the first (Self.core), after the second (Self.deep) and at the end (REM). The
    /// second record's source holds 300 control bytes the worker removes before libxml2
    /// (`ParseChunk.dropControls`), so the places after it move down by 300; unmoved, the deep
    /// sample's place would lie past the third record's start tag (its tag is under 300 bytes)
    /// and it would come after it. Fed in two pieces (as the player's own parser reads chunk
    /// after chunk), the second's places count from the bytes fed before it.
    func testWalkedSamplesAreTapedInFileOrder() throws {
        func steps(_ value: String, source: String = "Phone") -> String {
            "\n <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"\(source)\" unit=\"count\" "
                + "startDate=\"2024-02-02 12:00:00 +0100\" endDate=\"2024-02-02 12:10:00 +0100\" value=\"\(value)\"/>"
        }
        let head = "<HealthData locale=\"en_US\">", controls = String(repeating: "\u{0B}", count: 300)
        let one = steps("5"), two = steps("6", source: "Ph" + controls + "one"), three = steps("7")
        let text = head + one + two + three + "\n</HealthData>\n"
        func walked(_ value: UInt8, sourceFirst: Int32) -> WalkedElement {
            WalkedElement(
                start: Timestamp(seconds: 1_706_900_000, offset: 3_600), end: Timestamp(seconds: 1_706_903_600, offset: 3_600),
                deviceIsWatch: true, sourceFirst: sourceFirst, sourceCount: 5, value: value)
        }
        var sleep = WalkedElements()
        sleep.sources = Array("Watch".utf8)
        sleep.elements = [walked(4, sourceFirst: 0), walked(5, sourceFirst: 0), walked(6, sourceFirst: 0)]
        let a = head.utf8.count + one.utf8.count, b = a + two.utf8.count, c = b + three.utf8.count
        sleep.places = [a, b, c]
        let chunk = ParseChunk(bytes: Array(text.utf8), first: true, last: true, sequential: false)
        chunk.walked = sleep
        XCTAssertTrue(chunk.dropControls())
        XCTAssertEqual(chunk.controlsDropped, 300)
        XCTAssertEqual(chunk.walked.places, [a, b - 300, c - 300])
        let expected = ["5", Self.core, "6", Self.deep, "7", Self.rem]
        XCTAssertEqual(try played(chunk.bytes, [chunk.walked]), expected)
        // Two pieces, cut after the second record: the third and the REM sample are the second's.
        let cut = b - 300
        var first = chunk.walked, second = chunk.walked
        (first.elements, first.places) = (Array(first.elements.prefix(2)), Array(first.places.prefix(2)))
        (second.elements, second.places) = ([second.elements[2]], [c - 300 - cut])
        XCTAssertEqual(try played(chunk.bytes, [first, second], cut: cut), expected)
    }

    /// The same in chunks of the real size, fed to libxml2 in slices: 6,000 steps records in the
    /// window (all kept) alternate with 6,000 plain sleep samples of 2023 (all walked), about
    /// 4 MB, so the places are counted across many feeds and chunks. The samples the book hears
    /// through the window are the full read's, one for one in the same order (the census cuts
    /// nothing here: every record that is not sleep is in the window).
    func testWalkedSamplesKeepTheFileOrderInRealChunks() throws {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(secondsFromGMT: 3_600)
        format.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        let window = try XCTUnwrap(format.date(from: "2024-02-02 00:00:00 +0100"))
        let nights = try XCTUnwrap(format.date(from: "2023-06-01 00:00:00 +0100"))
        var body = ""
        for i in 0..<6_000 {
            let at = format.string(from: window.addingTimeInterval(Double(i) * 60))
            body += Census.record(Census.steps, String(i + 1), start: at)
            let from = nights.addingTimeInterval(Double(i) * 600)
            body += Self.sleep(
                Self.core, start: format.string(from: from), end: format.string(from: from.addingTimeInterval(300)),
                children: Census.zone("Europe/Berlin"))
        }
        let path = try TestPaths.temporaryDirectory("sleep-order").appendingPathComponent("export.xml")
        try Data(Census.export(body).utf8).write(to: path)
        ParseThreads.count = 2
        ParseThreads.chunkBytes = ParseThreads.defaultChunkBytes
        func heard(_ window: ExportWindow?) throws -> [String] {
            let sink = CollectingSink(details: false)
            _ = try ConvertSource.export(path: path.path, format: .appleXML).read(into: sink, window: window)
            return sink.samples.map { "\($0.valueText ?? String($0.value ?? -1)) \($0.start.seconds) \($0.timeZoneName ?? "")" }
        }
        let full = try heard(nil)
        XCTAssertEqual(full.count, 12_000)
        // The window 2024-02-01 … 02-07 is days 19754 … 19760 (2024-02-01 = 19,723 + 31).
        XCTAssertEqual(try heard(ExportWindow(days: 19754...19760, census: WindowCensusCollector())), full)
    }

    /// The values of the samples a handler hears from `bytes` recorded with `walked` (one a piece;
    /// two pieces cut at `cut`): a steps record's number, a sleep sample's text.
    private func played(_ bytes: [UInt8], _ walked: [WalkedElements], cut: Int? = nil) throws -> [String] {
        var tapes: [ElementTape] = []
        let spares = TapeSpares<ElementTape>()
        let recorder = ElementRecorder(file: "export.xml", spares: spares) { tapes.append($0) }
        let pieces = cut.map { [Array(bytes[..<$0]), Array(bytes[$0...])] } ?? [bytes]
        for (piece, samples) in zip(pieces, walked) {
            recorder.expect(samples)
            try piece.withUnsafeBytes { try recorder.feed($0) }
        }
        try recorder.finish()
        recorder.flush()
        let sink = CollectingSink(details: false)
        let handler = ExportElementHandler(sink: sink)
        for t in tapes { t.play(into: handler) }
        return sink.samples.map { $0.valueText ?? $0.value.map { String(Int($0)) } ?? "?" }
    }
}
