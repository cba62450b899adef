import XCTest

@testable import ExportParser

/// Days without --timezone (docs/rules.md, "Days without --timezone"): the `HKTimeZone` timeline
/// rule, an export without any `HKTimeZone`, and a trip that needs a second pass.
final class ZoneTimelineTests: XCTestCase {
    /// Before the first entry, the first entry's zone; a zone holds until an entry names another,
    /// from the quarter-hour that entry falls in; repeating a zone changes nothing.
    func testTheTimelineRule() throws {
        // 1 718 000 000 = 2024-06-10T06:13:20Z. Entries: Paris at that instant and 2 h later,
        // New York at +5 h (11:13:20Z, quarter-hour from 11:00:00Z = 1 718 017 200).
        let t0: Int64 = 1_718_000_000
        let timeline = try XCTUnwrap(
            ZoneTimeline([(t0 + 18_000, "America/New_York"), (t0, "Europe/Paris"), (t0 + 7_200, "Europe/Paris")]))
        XCTAssertEqual(timeline.stretches.map(\.name), ["Europe/Paris", "America/New_York"])
        XCTAssertEqual(timeline.stretches[1].from, 1_718_017_200)
        XCTAssertEqual(timeline.name(at: t0 - 86_400 * 365), "Europe/Paris")  // before the first entry
        XCTAssertEqual(timeline.name(at: 1_718_017_199), "Europe/Paris")
        XCTAssertEqual(timeline.name(at: 1_718_017_200), "America/New_York")
        XCTAssertNil(ZoneTimeline([(t0, "Not/AZone")]))
        // Paris in June is +02:00, New York −04:00; against a written +01:00: 1 h and 5 h.
        XCTAssertEqual(timeline.largestShift(over: t0...(t0 + 3_600), recorded: 3_600...3_600), 3_600)
        XCTAssertEqual(timeline.largestShift(over: t0...(t0 + 86_400), recorded: 3_600...3_600), 18_000)
    }

    /// The clock of a timeline: Paris offsets before the change (summer, +02:00), New York's after.
    func testAClockFollowsTheTimeline() throws {
        let timeline = try XCTUnwrap(ZoneTimeline([(1_718_000_000, "Europe/Paris"), (1_718_017_200, "America/New_York")]))
        let clock = LocalClock(timeline: timeline)
        XCTAssertEqual(clock.offset(Timestamp(seconds: 1_718_017_199, offset: 0)), 7_200)
        XCTAssertEqual(clock.offset(Timestamp(seconds: 1_718_017_200, offset: 0)), -14_400)
        // 1 704 067 200 = 2024-01-01T00:00:00Z: Paris in winter, +01:00.
        XCTAssertEqual(clock.offset(Timestamp(seconds: 1_704_067_200, offset: 0)), 3_600)
    }

    /// No `HKTimeZone` anywhere: days are cut at the written offsets, as before, and the summary
    /// says so and suggests --timezone. A step written 2024-06-10 23:30 +0100 stays on 06-10
    /// (in Paris it was 00:30 on 06-11, but nothing in the file says Paris).
    func testAnExportWithoutZonesKeepsTheWrittenOffsetsAndSaysSo() throws {
        let dir = try TestPaths.temporaryDirectory()
        let xml = dir.appendingPathComponent("export.xml")
        try export(
            """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Anna’s iPhone" unit="count" startDate="2024-06-10 23:30:00 +0100" endDate="2024-06-10 23:40:00 +0100" value="300"/>
            """, exportDate: "2025-01-15 09:00:00 +0100"
        ).write(to: xml, atomically: true, encoding: .utf8)
        let outcome = try ConvertJob(ConvertRequest(inputs: [xml.path], outDir: dir.appendingPathComponent("out").path)).run()
        XCTAssertEqual(outcome.firstDate, "2024-06-10")
        XCTAssertEqual(outcome.daysWritten, 1)
        let payload = try String(contentsOf: dir.appendingPathComponent("out/payloads/2024-06-10.json"), encoding: .utf8)
        XCTAssertTrue(payload.contains("\"timezone\": \"+01:00\""), payload)
        XCTAssertTrue(payload.contains("\"step_count\": 300"), payload)
        XCTAssertEqual(outcome.inputs.map(\.datedBy), [.recordedOffsets])
        let note = outcome.summaryLines().filter { $0.contains("no HKTimeZone") }
        XCTAssertEqual(note.count, 1)
        XCTAssertTrue(note.first?.contains("--timezone") ?? false)
    }

    /// A trip: written at the export moment's −0400 (New York) while the sleep record's
    /// `HKTimeZone` says Paris (+02:00 in June), 6 h apart: one pass cannot date the near-midnight
    /// samples (the fringe is 1 h), so the book asks for a second pass with the timeline.
    ///   17:30 −0400 = 21:30Z = 23:30 Paris on 06-10 -> 06-10: 100
    ///   18:30 −0400 = 22:30Z = 00:30 Paris on 06-11 -> 06-11: 200
    /// (at the written offset both would be on 06-10: 300)
    func testATripIsReadAgainWithTheTimeline() throws {
        let xml = export(
            """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Anna’s iPhone" unit="count" startDate="2024-06-10 17:30:00 -0400" endDate="2024-06-10 17:35:00 -0400" value="100"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Anna’s iPhone" unit="count" startDate="2024-06-10 18:30:00 -0400" endDate="2024-06-10 18:35:00 -0400" value="200"/>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Anna’s Apple Watch" startDate="2024-06-10 17:00:00 -0400" endDate="2024-06-11 00:00:00 -0400" value="HKCategoryValueSleepAnalysisAsleepCore">
              <MetadataEntry key="HKTimeZone" value="Europe/Paris"/>
             </Record>
            """, exportDate: "2024-06-20 09:00:00 -0400")
        let book = DayBook()
        _ = try AppleExportReader.read(data: Data(xml.utf8), name: "test.xml", into: book)
        _ = book.finish()
        XCTAssertEqual(book.rereadTimeline?.stretches.map(\.name), ["Europe/Paris"])
        let c = try Converted(xml: xml)
        XCTAssertEqual(c.metric("2024-06-10", "step_count"), 100)
        XCTAssertEqual(c.metric("2024-06-11", "step_count"), 200)
        XCTAssertEqual(c.payloads["2024-06-11"]?["timezone"] as? String, "Europe/Paris")
    }
}
