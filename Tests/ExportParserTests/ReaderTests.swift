import Foundation
import XCTest

@testable import ExportParser

final class ReaderTests: XCTestCase {
    private func read(_ xml: String, details: Bool = true) throws -> (CollectingSink, ReadReport) {
        let sink = CollectingSink(details: details)
        let report = try AppleExportReader.read(data: Data(xml.utf8), name: "t.xml", into: sink)
        return (sink, report)
    }

    func testRecordAttributesAreDecodedWhateverTheirOrder() throws {
        let xml = export(
            """
             <Record value="412" endDate="2024-01-02 08:06:40 +0100" type="HKQuantityTypeIdentifierStepCount" unit="count" sourceVersion="17.2" device="&lt;&lt;HKDevice: 0x2819&gt;, name:iPhone&gt;" creationDate="2024-01-02 08:10:00 +0100" startDate="2024-01-02 07:58:11 +0100" sourceName="Ann’s iPhone">
              <MetadataEntry key="HKTimeZone" value="Europe/Amsterdam"/>
              <MetadataEntry key="Meal" value="Lunch &amp; snack"/>
             </Record>
            """)
        let (sink, report) = try read(xml)
        XCTAssertEqual(sink.samples.count, 1)
        let s = try XCTUnwrap(sink.samples.first)
        XCTAssertEqual(s.type, "HKQuantityTypeIdentifierStepCount")
        XCTAssertEqual(s.source, "Ann’s iPhone")
        XCTAssertEqual(s.sourceVersion, "17.2")
        // Entities decoded, and the per-record memory address dropped (it means nothing).
        XCTAssertEqual(s.device, "<<HKDevice>, name:iPhone>")
        XCTAssertEqual(s.unit, "count")
        XCTAssertEqual(s.value, 412)
        XCTAssertEqual(s.canonicalValue, 412)
        XCTAssertEqual(s.metric?.field, "step_count")
        // 2024-01-02 07:58:11 +0100 = 06:58:11Z; days from 1970-01-01 to 2024-01-02 = 19724
        let startSeconds: Int64 = 19724 * 86400 + 6 * 3600 + 58 * 60 + 11
        XCTAssertEqual(s.start, Timestamp(seconds: startSeconds, offset: 3600))
        let createdSeconds: Int64 = 19724 * 86400 + 7 * 3600 + 10 * 60
        XCTAssertEqual(s.created?.seconds, createdSeconds)
        XCTAssertEqual(s.timeZoneName, "Europe/Amsterdam")
        // A top-level record's metadata comes as the store's JSON object, entities decoded.
        XCTAssertTrue(s.metadata.isEmpty)
        XCTAssertEqual(
            sink.metadataEntries,
            [[MetadataEntry(key: "HKTimeZone", value: "Europe/Amsterdam"), MetadataEntry(key: "Meal", value: "Lunch & snack")]])
        XCTAssertEqual(report.recordsByType["HKQuantityTypeIdentifierStepCount"], 1)
        XCTAssertEqual(sink.exportDates.count, 1)
    }

    func testWithoutDetailsTheHotPathStillKeepsWhatRulesNeed() throws {
        let xml = export(
            record(
                "HKQuantityTypeIdentifierStepCount", "5", unit: "count", start: "2024-01-02 07:58:11 +0100",
                children: "<MetadataEntry key=\"HKTimeZone\" value=\"Europe/Paris\"/>"))
        let (sink, _) = try read(xml, details: false)
        let s = try XCTUnwrap(sink.samples.first)
        XCTAssertEqual(s.canonicalValue, 5)
        XCTAssertEqual(s.timeZoneName, "Europe/Paris")
        XCTAssertNil(s.device)
        XCTAssertTrue(s.metadata.isEmpty)
    }

    func testHRVBeatListIsKept() throws {
        let xml = export(
            """
             <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="W" unit="ms" startDate="2024-01-02 07:00:00 +0100" endDate="2024-01-02 07:01:00 +0100" value="48.2">
              <HeartRateVariabilityMetadataList>
               <InstantaneousBeatsPerMinute bpm="62" time="00:20:37,80"/>
               <InstantaneousBeatsPerMinute bpm="64" time="00:20:38,74"/>
              </HeartRateVariabilityMetadataList>
             </Record>
            """)
        let (sink, _) = try read(xml)
        XCTAssertEqual(
            sink.samples.first?.beats, [InstantaneousBeat(bpm: 62, time: "00:20:37,80"), InstantaneousBeat(bpm: 64, time: "00:20:38,74")])
        XCTAssertEqual(sink.samples.first?.canonicalValue, 48.2)
    }

    /// The reader hands every record over in one sample it rewrites in place
    /// (`ExportElementHandler.scratch`), setting names only when they change: nothing of one
    /// record may stay in the next. Four records, each lacking what the one before had: a watch's
    /// HRV record (version, device, creation date, time zone, beats, metadata), a phone's steps
    /// (none of those, another source and unit), a sleep record (a value text, no unit), then the
    /// watch's HRV again without beats, steps from a device written as plain text, and steps without
    /// a source from the watch's HKDevice again.
    func testNothingOfARecordStaysInTheNext() throws {
        let xml = export(
            """
             <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="W" sourceVersion="10.2" device="&lt;&lt;HKDevice: 0x1&gt;, name:Apple Watch&gt;" unit="ms" creationDate="2024-01-02 07:02:00 +0100" startDate="2024-01-02 07:00:00 +0100" endDate="2024-01-02 07:01:00 +0100" value="48.2">
              <MetadataEntry key="HKTimeZone" value="Europe/Paris"/>
              <HeartRateVariabilityMetadataList>
               <InstantaneousBeatsPerMinute bpm="62" time="00:20:37,80"/>
              </HeartRateVariabilityMetadataList>
             </Record>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="P" unit="count" startDate="2024-01-02 08:00:00 +0100" endDate="2024-01-02 08:05:00 +0100" value="12"/>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="P" startDate="2024-01-02 01:00:00 +0100" endDate="2024-01-02 02:00:00 +0100" value="HKCategoryValueSleepAnalysisInBed"/>
             <Record type="HKQuantityTypeIdentifierHeartRateVariabilitySDNN" sourceName="W" sourceVersion="10.2" device="&lt;&lt;HKDevice: 0x2&gt;, name:Apple Watch&gt;" unit="ms" startDate="2024-01-02 09:00:00 +0100" endDate="2024-01-02 09:01:00 +0100" value="50"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="G" device="Garmin Fenix 7, model:Watch, 1" unit="count" startDate="2024-01-02 10:00:00 +0100" endDate="2024-01-02 10:05:00 +0100" value="30"/>
             <Record type="HKQuantityTypeIdentifierStepCount" unit="count" device="&lt;&lt;HKDevice: 0x3&gt;, name:Apple Watch&gt;" startDate="2024-01-02 11:00:00 +0100" endDate="2024-01-02 11:05:00 +0100" value="31"/>
            """)
        for details in [true, false] {
            let (sink, _) = try read(xml, details: details)
            XCTAssertEqual(sink.samples.count, 6)
            guard sink.samples.count == 6 else { continue }
            let (hrv, steps, sleep, hrv2) = (sink.samples[0], sink.samples[1], sink.samples[2], sink.samples[3])
            XCTAssertEqual(hrv.timeZoneName, "Europe/Paris")
            XCTAssertNotEqual(hrv.metadataDigest, 0)
            XCTAssertEqual(hrv.sourceVersion, details ? "10.2" : nil)
            XCTAssertEqual(hrv.device, details ? "<<HKDevice>, name:Apple Watch>" : nil)
            XCTAssertEqual(hrv.beats.count, details ? 1 : 0)
            XCTAssertEqual(hrv.created != nil, details)

            XCTAssertEqual(steps.type, "HKQuantityTypeIdentifierStepCount")
            XCTAssertEqual(steps.metric?.field, "step_count")
            XCTAssertEqual(steps.source, "P")
            XCTAssertEqual(steps.unit, "count")
            XCTAssertEqual(steps.value, 12)
            XCTAssertNil(steps.sourceVersion)
            XCTAssertNil(steps.device)
            XCTAssertNil(steps.created)
            XCTAssertNil(steps.timeZoneName)
            XCTAssertEqual(steps.metadataDigest, 0)
            XCTAssertEqual(steps.beats, [])

            XCTAssertEqual(sleep.type, "HKCategoryTypeIdentifierSleepAnalysis")
            XCTAssertNil(sleep.unit)
            XCTAssertNil(sleep.value)
            XCTAssertNil(sleep.canonicalValue)
            XCTAssertEqual(sleep.source, "P")
            XCTAssertEqual(sleep.valueText, "HKCategoryValueSleepAnalysisInBed")

            // The same source, version, unit and device as the first record; no beats now.
            XCTAssertEqual(hrv2.type, hrv.type)
            XCTAssertEqual(hrv2.source, "W")
            XCTAssertEqual(hrv2.sourceVersion, details ? "10.2" : nil)
            XCTAssertEqual(hrv2.unit, "ms")
            XCTAssertEqual(hrv2.device, details ? "<<HKDevice>, name:Apple Watch>" : nil)
            XCTAssertEqual(hrv2.value, 50)
            XCTAssertNotEqual(hrv2.valueText, "HKCategoryValueSleepAnalysisInBed")
            XCTAssertTrue(hrv2.metric === hrv.metric)
            XCTAssertFalse(hrv2.deviceIsWatch)
            XCTAssertEqual(hrv2.beats, [])
            XCTAssertNil(hrv2.created)
            XCTAssertNil(hrv2.timeZoneName)
            XCTAssertEqual(hrv2.metadataDigest, 0)
            // A device that is not HKDevice text is kept as written (details only) and says it is a
            // watch; the next record has no source and the watch's HKDevice again.
            let (garmin, anonymous) = (sink.samples[4], sink.samples[5])
            XCTAssertEqual(garmin.source, "G")
            XCTAssertEqual(garmin.device, details ? "Garmin Fenix 7, model:Watch, 1" : nil)
            XCTAssertTrue(garmin.deviceIsWatch)
            XCTAssertEqual(garmin.metric?.field, "step_count")
            XCTAssertEqual(anonymous.source, "")
            XCTAssertEqual(anonymous.device, details ? "<<HKDevice>, name:Apple Watch>" : nil)
            XCTAssertFalse(anonymous.deviceIsWatch)
            XCTAssertEqual(anonymous.value, 31)
            // The first sample, kept by the sink, was not changed by what came after.
            XCTAssertEqual(hrv.value, 48.2)
            XCTAssertEqual(hrv.beats.count, details ? 1 : 0)
        }
    }

    func testCorrelationMembersAreNotSamples() throws {
        let xml = export(
            """
            \(record("HKQuantityTypeIdentifierDietaryProtein", "20", unit: "g", source: "App", start: "2024-01-02 12:00:00 +0100"))
             <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="App" startDate="2024-01-02 12:00:00 +0100" endDate="2024-01-02 12:00:00 +0100">
              <MetadataEntry key="Meal" value="Lunch"/>
            \(record("HKQuantityTypeIdentifierDietaryProtein", "20", unit: "g", source: "App", start: "2024-01-02 12:00:00 +0100"))
             </Correlation>
            """)
        let (sink, report) = try read(xml)
        XCTAssertEqual(sink.samples.count, 1)
        XCTAssertEqual(report.recordsByType["HKQuantityTypeIdentifierDietaryProtein"], 1)
        XCTAssertEqual(sink.correlations.count, 1)
        XCTAssertEqual(sink.correlations.first?.members.count, 1)
        XCTAssertEqual(sink.correlations.first?.metadata.first?.value, "Lunch")
    }

    func testWorkoutWithStatisticsActivitiesEventsAndRoute() throws {
        let xml = export(
            """
             <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Ann’s Apple Watch" startDate="2024-01-02 07:00:00 +0100" endDate="2024-01-02 07:30:00 +0100">
              <MetadataEntry key="HKTimeZone" value="Europe/Amsterdam"/>
              <WorkoutEvent type="HKWorkoutEventTypeSegment" date="2024-01-02 07:00:00 +0100" duration="10" durationUnit="min"/>
              <WorkoutActivity uuid="A1" startDate="2024-01-02 07:00:00 +0100" endDate="2024-01-02 07:30:00 +0100" duration="30" durationUnit="min">
               <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2024-01-02 07:00:00 +0100" endDate="2024-01-02 07:30:00 +0100" sum="999" unit="kcal"/>
               <WorkoutEvent type="HKWorkoutEventTypeLap" date="2024-01-02 07:10:00 +0100"/>
              </WorkoutActivity>
              <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2024-01-02 07:00:00 +0100" endDate="2024-01-02 07:30:00 +0100" sum="300" unit="kcal"/>
              <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" startDate="2024-01-02 07:00:00 +0100" endDate="2024-01-02 07:30:00 +0100" average="150" minimum="90" maximum="171" unit="count/min"/>
              <WorkoutRoute sourceName="Ann’s Apple Watch" startDate="2024-01-02 07:00:00 +0100" endDate="2024-01-02 07:30:00 +0100">
               <FileReference path="/workout-routes/route_2024-01-02_7.00am.gpx"/>
              </WorkoutRoute>
             </Workout>
            """)
        let (sink, report) = try read(xml)
        XCTAssertEqual(report.workouts, 1)
        let w = try XCTUnwrap(sink.workouts.first)
        XCTAssertEqual(w.activityType, "HKWorkoutActivityTypeRunning")
        XCTAssertEqual(w.statistics.map(\.sum), [300, nil])
        XCTAssertEqual(w.statistics.last?.maximum, 171)
        XCTAssertEqual(w.activities.count, 1)
        XCTAssertEqual(w.activities.first?.statistics.first?.sum, 999)
        XCTAssertEqual(w.activities.first?.events.count, 1)
        XCTAssertEqual(w.events.count, 1)
        XCTAssertEqual(w.routes.first?.filePaths, ["/workout-routes/route_2024-01-02_7.00am.gpx"])
        XCTAssertEqual(w.timeZoneName, "Europe/Amsterdam")
    }

    func testInlineLocationRoutesAreCounted() throws {
        let xml = export(
            """
             <Workout workoutActivityType="HKWorkoutActivityTypeWalking" sourceName="W" startDate="2024-01-02 07:00:00 +0100" endDate="2024-01-02 07:30:00 +0100">
              <WorkoutRoute sourceName="W"><Location date="2024-01-02 07:00:00 +0100" latitude="1" longitude="2"/><Location date="2024-01-02 07:00:01 +0100" latitude="1" longitude="2"/></WorkoutRoute>
             </Workout>
            """)
        let (sink, _) = try read(xml)
        XCTAssertEqual(sink.workouts.first?.routes.first?.inlineLocationCount, 2)
    }

    func testActivitySummaryAndMe() throws {
        let xml = export(
            """
             <Me HKCharacteristicTypeIdentifierDateOfBirth="1990-01-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale"/>
             <ActivitySummary dateComponents="2024-01-02" activeEnergyBurned="512.5" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal"/>
            """)
        let (sink, report) = try read(xml)
        XCTAssertEqual(sink.mes.first?.attributes.first?.value, "1990-01-01")
        XCTAssertEqual(sink.summaries.first?.date, "2024-01-02")
        XCTAssertEqual(sink.summaries.first?.attributes.first, MetadataEntry(key: "activeEnergyBurned", value: "512.5"))
        XCTAssertEqual(report.activitySummaries, 1)
    }

    // MARK: - DTD, control characters

    static let dtd = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!-- HealthKit Export Version: 13 -->
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
        <!ATTLIST HealthData
          locale CDATA #REQUIRED
        >
        <!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
        <!ATTLIST Record
          type          CDATA #REQUIRED
          unit          CDATA #IMPLIED
          value         CDATA #IMPLIED
        >
        ]>

        """

    func testTheInlineDTDIsSkippedAndLineNumbersKept() throws {
        let xml =
            Self.dtd + """
                <HealthData locale="en_US">
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="W" unit="furlong" startDate="2024-01-02 07:00:00 +0100" endDate="2024-01-02 07:01:00 +0100" value="5"/>
                </HealthData>
                """
        let (sink, report) = try read(xml)
        XCTAssertEqual(sink.samples.count, 1)
        // The DTD spans lines 2–14, <HealthData> is line 15; the record is on line 16 of the file
        // and must be reported there although the parser never saw the DTD's lines.
        let example = try XCTUnwrap(report.skipExamples.first { $0.key.contains("unknown unit") }?.value.first)
        XCTAssertEqual(example.line, 16)
    }

    func testABrokenIOS16StyleDTDDoesNotStopTheParse() throws {
        // iOS 16 (Export Version 12) shipped an ATTLIST that is never closed with ">", and a
        // variant with a doubled ">": both stop conforming parsers before <HealthData>.
        for broken in [
            "<!ATTLIST VisionPrescription\n  type CDATA #REQUIRED\n  dateIssued CDATA #REQUIRED\n",
            "<!ATTLIST VisionPrescription type CDATA #REQUIRED>>\n",
        ] {
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE HealthData [
                <!-- HealthKit Export Version: 12 -->
                \(broken)<!ELEMENT RightEye EMPTY>
                ]>
                <HealthData locale="en_US">
                \(record("HKQuantityTypeIdentifierStepCount", "7", unit: "count", start: "2024-01-02 07:00:00 +0100"))
                </HealthData>
                """
            let (sink, _) = try read(xml)
            XCTAssertEqual(sink.samples.first?.canonicalValue, 7)
        }
    }

    func testStrayControlCharactersAreDroppedAndCounted() throws {
        let xml = export(
            record(
                "HKQuantityTypeIdentifierStepCount", "7", unit: "count", source: "Ann\u{0B}s Phone\u{01}",
                start: "2024-01-02 07:00:00 +0100"))
        let (sink, report) = try read(xml)
        XCTAssertEqual(sink.samples.first?.source, "Anns Phone")
        XCTAssertEqual(report.controlCharactersDropped, 2)
    }

    // MARK: - Bad input

    private func assertInputError(
        _ xml: String, contains text: String, line: Int? = nil, file: StaticString = #filePath, lineNo: UInt = #line
    ) {
        XCTAssertThrowsError(try read(xml), file: file, line: lineNo) { error in
            guard let e = error as? InputError else { return XCTFail("not an InputError: \(error)", file: file, line: lineNo) }
            XCTAssertTrue(e.description.contains(text), "\(e.description) lacks \(text)", file: file, line: lineNo)
            XCTAssertTrue(e.description.hasPrefix("t.xml"), "names the file: \(e.description)", file: file, line: lineNo)
            if let line { XCTAssertEqual(e.location?.line, line, e.description, file: file, line: lineNo) }
        }
    }

    func testTruncatedFileNamesLineAndColumn() {
        let full = export(record("HKQuantityTypeIdentifierStepCount", "7", unit: "count", start: "2024-01-02 07:00:00 +0100"))
        let cut = String(full.prefix(full.count - 30))
        assertInputError(cut, contains: "line")
    }

    func testMalformedXMLIsFatalWithItsPosition() {
        let xml = "<?xml version=\"1.0\"?>\n<HealthData>\n <Record type=\"a\" value=\"1\"\n <Record/>\n</HealthData>"
        assertInputError(xml, contains: "malformed XML", line: 4)
    }

    func testEmptyAndWhitespaceAndWrongRoot() {
        assertInputError("", contains: "empty")
        assertInputError("<?xml version=\"1.0\"?>\n<ClinicalDocument/>", contains: "not an Apple Health export")
        assertInputError("<?xml version=\"1.0\"?>\n<!DOCTYPE HealthData [\n<!ELEMENT HealthData EMPTY>\n", contains: "never ends")
    }

    func testRecordLevelProblemsAreCountedNotFatal() throws {
        let xml = export(
            """
            \(record("HKQuantityTypeIdentifierStepCount", "7", unit: "furlong", start: "2024-01-02 07:00:00 +0100"))
            \(record("HKQuantityTypeIdentifierStepCount", "seven", unit: "count", start: "2024-01-02 07:00:00 +0100"))
            \(record("HKQuantityTypeIdentifierStepCount", "7", unit: "count", start: "2024-02-30 07:00:00 +0100"))
            \(record("HKQuantityTypeIdentifierStepCount", "7", unit: "count", start: "2024-01-02 07:00:00 +0100", end: "2024-01-01 07:00:00 +0100"))
            \(record("HKQuantityTypeIdentifierStepCount", "3", unit: "count", start: "2024-01-02 07:00:00 +0100"))
            """)
        let (sink, report) = try read(xml)
        XCTAssertEqual(report.skips.count, 4, "\(report.skips)")
        XCTAssertEqual(report.totalSkips, 4)
        XCTAssertNotNil(report.skips.keys.first { $0.contains("unknown unit \"furlong\"") })
        XCTAssertNotNil(report.skips.keys.first { $0.contains("unparseable value") })
        XCTAssertNotNil(report.skips.keys.first { $0.contains("unparseable startDate") })
        XCTAssertNotNil(report.skips.keys.first { $0.contains("endDate before startDate") })
        // The unknown-unit and unparseable-value records still flow (the store keeps them), without a canonical value.
        XCTAssertEqual(sink.samples.filter { $0.canonicalValue != nil }.map(\.canonicalValue), [3])
        XCTAssertEqual(report.recordsByType["HKQuantityTypeIdentifierStepCount"], 5)
    }

    // MARK: - Files and zips

    private func write(_ text: String, to url: URL) throws { try Data(text.utf8).write(to: url) }

    private func zip(_ entries: [(String, String)], at url: URL) throws {
        // Python's zipfile builds the archive exactly as named (localised and junk entries included).
        let dir = url.deletingLastPathComponent()
        var script = "import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1],'w',zipfile.ZIP_DEFLATED)\n"
        for (i, (name, text)) in entries.enumerated() {
            let f = dir.appendingPathComponent("entry\(i)")
            try write(text, to: f)
            script += "z.write(\(pyString(f.path)), \(pyString(name)))\n"
        }
        script += "z.close()\n"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script, url.path]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
    }

    private func pyString(_ s: String) -> String {
        "'"
            + s.unicodeScalars.map { $0.isASCII ? String($0) : String(format: "\\u%04x", $0.value) }.joined().replacingOccurrences(
                of: "\\u", with: "\\u") + "'"
    }

    func testZipMainEntryIsFoundByContentWithLocalisedNamesAndJunk() throws {
        let dir = try TestPaths.temporaryDirectory()
        let body = export(record("HKQuantityTypeIdentifierStepCount", "11", unit: "count", start: "2024-01-02 07:00:00 +0100"))
        let cda = "<?xml version=\"1.0\"?><ClinicalDocument xmlns=\"urn:hl7-org:v3\"/>"
        for name in ["apple_health_export/export.xml", "apple_health_export/Export.xml", "apple_health_export/导出.xml", "vienti.xml"] {
            let url = dir.appendingPathComponent("e.zip")
            try? FileManager.default.removeItem(at: url)
            try zip(
                [
                    ("__MACOSX/apple_health_export/._export.xml", "junk"), ("apple_health_export/export_cda.xml", cda),
                    ("apple_health_export/.DS_Store", "x"), (name, body),
                ], at: url)
            let sink = CollectingSink()
            let report = try AppleExportReader(path: url.path).read(into: sink)
            XCTAssertEqual(sink.samples.first?.canonicalValue, 11, name)
            XCTAssertEqual(sink.inputs.first?.entry, name)
            XCTAssertEqual(sink.inputs.first?.format, .appleZip)
            XCTAssertEqual(report.recordsByType.values.reduce(0, +), 1)
        }
    }

    func testZipWithoutAnExportIsAClearError() throws {
        let dir = try TestPaths.temporaryDirectory()
        let url = dir.appendingPathComponent("photos.zip")
        try zip([("apple_health_export/export_cda.xml", "<ClinicalDocument/>"), ("readme.txt", "hi")], at: url)
        XCTAssertThrowsError(try AppleExportReader(path: url.path).read(into: CollectingSink())) { error in
            XCTAssertTrue("\(error)".contains("holds no Apple Health export"), "\(error)")
            XCTAssertTrue("\(error)".contains("photos.zip"), "\(error)")
        }
    }

    func testTruncatedZipIsAnError() throws {
        let dir = try TestPaths.temporaryDirectory()
        let url = dir.appendingPathComponent("e.zip")
        var body = export("")
        for i in 0..<2000 { body += record("HKQuantityTypeIdentifierStepCount", "\(i)", unit: "count", start: "2024-01-02 07:00:00 +0100") }
        try zip([("apple_health_export/export.xml", body)], at: url)
        let data = try Data(contentsOf: url)
        try data.prefix(data.count / 2).write(to: url)
        XCTAssertThrowsError(try AppleExportReader(path: url.path).read(into: CollectingSink()))
    }

    func testFormatIsDetectedFromContentNotName() throws {
        let dir = try TestPaths.temporaryDirectory()
        let xmlNamedJSON = dir.appendingPathComponent("data.json")
        try write(
            export(record("HKQuantityTypeIdentifierStepCount", "9", unit: "count", start: "2024-01-02 07:00:00 +0100")), to: xmlNamedJSON)
        XCTAssertEqual(try InputDetector.detect(path: xmlNamedJSON.path), .appleXML)
        let sink = CollectingSink()
        try AppleExportReader(path: xmlNamedJSON.path).read(into: sink)
        XCTAssertEqual(sink.samples.count, 1)
        XCTAssertEqual(InputDetector.detect(head: Data("  {\"data\":{}}".utf8)), .hae)
        XCTAssertEqual(InputDetector.detect(head: Data("[{\"data\":{}}]".utf8)), .hae)
        XCTAssertNil(InputDetector.detect(head: Data("hello".utf8)))
        let empty = dir.appendingPathComponent("empty.xml")
        try write("", to: empty)
        XCTAssertThrowsError(try InputDetector.detect(path: empty.path)) { XCTAssertTrue("\($0)".contains("empty")) }
        XCTAssertThrowsError(try InputDetector.detect(path: dir.appendingPathComponent("missing.xml").path)) {
            XCTAssertTrue("\($0)".contains("no such file"))
        }
    }
}
