import Foundation
import XCTest

@testable import ExportParser

/// With details, the export.xml reader lends a top-level record's metadata entries as their texts
/// (`SampleSink.sample(_:metadata:)`, `MetadataEntryTexts`), copied from the attribute bytes,
/// instead of a `MetadataEntry` an entry; the store writes the JSON object it keeps
/// (`sample_records.metadata_json`) from those texts (`MetadataTexts.appendObject`). The texts
/// must be the ones `entry` reads, and the object the one `JSONText.appendObject` makes of them.
final class MetadataObjectTests: XCTestCase {
    typealias T = StoreTestSupport

    private func read(_ xml: String) throws -> CollectingSink {
        let sink = CollectingSink(details: true)
        _ = try AppleExportReader.read(data: Data(xml.utf8), name: "t.xml", into: sink)
        return sink
    }

    /// One record with every kind of text an entry can hold. Worked out by hand:
    /// - `0` is plain ASCII: `0`, in JSON `"0"`;
    /// - `say &quot;hi&quot; \ now` reads `say "hi" \ now`; in JSON the quotes and the backslash
    ///   are escaped: `"say \"hi\" \\ now"`;
    /// - `Lunch &amp; snack` reads `Lunch & snack` (libxml2 hands it over as `&#38;`, which the
    ///   reader's text decodes);
    /// - the key `Caf&#233;` is `Café` (the bytes C3 A9 for é), kept as they are; its value
    ///   `a&#9;b` holds a tab, written `\t`;
    /// - an entry without `value` has the empty text `""`;
    /// - a repeated key is kept twice, in order;
    /// - an entry without `key` is no entry.
    func testTheObjectIsTheTextOfTheEntries() throws {
        let xml = export(
            #"""
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="W" unit="count/min" startDate="2024-01-02 07:00:00 +0100" endDate="2024-01-02 07:00:00 +0100" value="61">
              <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>
              <MetadataEntry key="Note" value="say &quot;hi&quot; \ now"/>
              <MetadataEntry key="Meal" value="Lunch &amp; snack"/>
              <MetadataEntry key="Caf&#233;" value="a&#9;b"/>
              <MetadataEntry key="Empty"/>
              <MetadataEntry value="no key"/>
              <MetadataEntry key="k" value="1"/>
              <MetadataEntry key="k" value="2"/>
             </Record>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="W" unit="count/min" startDate="2024-01-02 07:05:00 +0100" endDate="2024-01-02 07:05:00 +0100" value="62"/>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="W" unit="count/min" startDate="2024-01-02 07:10:00 +0100" endDate="2024-01-02 07:10:00 +0100" value="63">
              <MetadataEntry value="no key either"/>
             </Record>
            """#)
        let sink = try read(xml)
        XCTAssertEqual(sink.samples.count, 3)
        let entries = [
            MetadataEntry(key: "HKMetadataKeyHeartRateMotionContext", value: "0"),
            MetadataEntry(key: "Note", value: "say \"hi\" \\ now"), MetadataEntry(key: "Meal", value: "Lunch & snack"),
            MetadataEntry(key: "Caf\u{E9}", value: "a\tb"), MetadataEntry(key: "Empty", value: ""),
            MetadataEntry(key: "k", value: "1"), MetadataEntry(key: "k", value: "2"),
        ]
        XCTAssertEqual(sink.metadataEntries, [entries, nil, nil])
        XCTAssertTrue(sink.samples.allSatisfy { $0.metadata.isEmpty })
        // The store's object of those texts, and the same text as the object of the entries.
        let expected =
            #"{"HKMetadataKeyHeartRateMotionContext":"0","Note":"say \"hi\" \\ now","Meal":"Lunch & snack","Café":"a\tb","Empty":"","k":"1","k":"2"}"#
        let texts = MetadataEntryTexts()
        for e in entries { texts.append(e) }
        let object = ExportBytes(capacity: 8)
        MetadataTexts.appendObject(texts, to: object)
        XCTAssertEqual(object.string, expected)
        let buffer = ExportBytes(capacity: 64)
        JSONText.appendObject(entries, to: buffer)
        XCTAssertEqual(buffer.string, expected)
        // The digest still covers the entries (it is computed from the same bytes as before).
        XCTAssertNotEqual(sink.samples[0].metadataDigest, 0)
        XCTAssertEqual(sink.samples[1].metadataDigest, 0)
    }

    /// The two word-at-a-time tests. The reader keeps a text's bytes unless some byte is `&`
    /// (0x26) or from 0x80; the store copies a text between quotes unless some byte is below
    /// 0x20, `"` (0x22) or `\` (0x5C). Each byte is tried inside the first eight-byte word
    /// (position 3 of 16 bytes) and in the tail after the words (position 16 of 17 bytes); the
    /// bytes next to them (0x20, 0x21, 0x23, 0x25, 0x27, 0x5B, 0x5D, 0x7F) pass both.
    func testPlainTextIsToldEightBytesAtATime() {
        func kept(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBufferPointer { ExportElementHandler.keepsBytes($0.baseAddress!, $0.count) }
        }
        func plain(_ bytes: [UInt8]) -> Bool {
            bytes.withUnsafeBufferPointer { MetadataTexts.isPlainJSONText($0.baseAddress!, $0.count) }
        }
        XCTAssertTrue(kept(Array("HKMetadataKeyHeartRateMotionContext".utf8)))
        XCTAssertTrue(plain(Array("HKMetadataKeyHeartRateMotionContext".utf8)))
        XCTAssertTrue(kept(Array("0".utf8)) && plain(Array("0".utf8)))
        let base = Array("abcdefghijklmnop".utf8)  // 16 bytes: two words
        for (byte, expectedKept, expectedPlain) in [
            (0x00, true, false), (0x1F, true, false), (0x22, true, false), (0x5C, true, false), (0x26, false, true),
            (0x80, false, true), (0xC3, false, true), (0xFF, false, true), (0x20, true, true), (0x21, true, true),
            (0x23, true, true), (0x25, true, true), (0x27, true, true), (0x5B, true, true), (0x5D, true, true),
            (0x7F, true, true),
        ] as [(UInt8, Bool, Bool)] {
            var inWord = base
            inWord[3] = byte
            XCTAssertEqual(kept(inWord), expectedKept, "byte \(byte) in a word")
            XCTAssertEqual(kept(base + [byte]), expectedKept, "byte \(byte) in the tail")
            XCTAssertEqual(plain(inWord), expectedPlain, "byte \(byte) in a word")
            XCTAssertEqual(plain(base + [byte]), expectedPlain, "byte \(byte) in the tail")
        }
        // Copied whole or escaped, the same JSON text: the key `a"b` is escaped, `"a\"b"`; the
        // value `é` (C3 A9) is copied between quotes.
        let texts = MetadataEntryTexts()
        texts.append(MetadataEntry(key: "a\"b", value: "\u{E9}"))
        let out = ExportBytes(capacity: 16)
        MetadataTexts.appendObject(texts, to: out)
        XCTAssertEqual(out.string, #"{"a\"b":"é"}"#)
    }

    /// A correlation's member keeps its entries and its number's text as values (the store writes
    /// `correlation_members.value_text` and `metadata_json` from them); a top-level record with a
    /// number gets no text for it, which the store never kept (`StoreSample.valueText`).
    func testMembersKeepTheirEntriesAndTopLevelNumbersNoText() throws {
        let xml = export(
            """
             <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Cuff" unit="mmHg" startDate="2024-01-02 08:00:00 +0100" endDate="2024-01-02 08:00:00 +0100" value="120"/>
             <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" startDate="2024-01-02 08:00:00 +0100" endDate="2024-01-02 08:00:00 +0100">
              <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Cuff" unit="mmHg" startDate="2024-01-02 08:00:00 +0100" endDate="2024-01-02 08:00:00 +0100" value="120">
               <MetadataEntry key="HKWasUserEntered" value="1"/>
              </Record>
             </Correlation>
             <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="W" startDate="2024-01-02 01:00:00 +0100" endDate="2024-01-02 02:00:00 +0100" value="HKCategoryValueSleepAnalysisAsleepCore"/>
            """)
        let sink = try read(xml)
        XCTAssertEqual(sink.samples.count, 2)
        XCTAssertNil(sink.samples[0].valueText)
        XCTAssertEqual(sink.samples[0].value, 120)
        XCTAssertEqual(sink.samples[1].valueText, "HKCategoryValueSleepAnalysisAsleepCore")
        let member = try XCTUnwrap(sink.correlations.first?.members.first)
        XCTAssertEqual(member.valueText, "120")
        XCTAssertEqual(member.metadata, [MetadataEntry(key: "HKWasUserEntered", value: "1")])
    }

    /// Devices compared in place with the last two before being copied and hashed: phone, watch,
    /// phone, scale, watch, phone (each with its own address) are three devices, each record
    /// with its own. The scale misses both remembered devices; the watch after it is the one
    /// before the last.
    func testAlternatingDevicesKeepTheirOwnText() throws {
        let names = ["iPhone", "Apple Watch", "iPhone", "Scale", "Apple Watch", "iPhone"]
        var body = ""
        for (i, name) in names.enumerated() {
            body +=
                " <Record type=\"HKQuantityTypeIdentifierBodyMass\" sourceName=\"S\" unit=\"kg\" device=\"&lt;&lt;HKDevice: 0x28\(i)a&gt;, name:\(name), model:\(name)&gt;\" startDate=\"2024-01-02 07:0\(i):00 +0100\" endDate=\"2024-01-02 07:0\(i):00 +0100\" value=\"70\"/>\n"
        }
        let sink = try read(export(body))
        XCTAssertEqual(sink.samples.map(\.device), names.map { "<<HKDevice>, name:\($0), model:\($0)>" })

        // Through the store: three device rows, each record pointing at its own.
        let dir = try T.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("health.sqlite").path
        let store = try HealthStore(path: path)
        _ = try T.run(store, T.meta(sha: "d")) { s in
            _ = try? AppleExportReader.read(data: Data(export(body).utf8), name: "t.xml", into: s)
        }
        XCTAssertEqual(try T.count(path, "SELECT count(*) FROM devices"), 3)
        XCTAssertEqual(
            try T.rows(path, "SELECT device FROM samples ORDER BY start_epoch").map { $0[0] },
            names.map { "<<HKDevice>, name:\($0), model:\($0)>" })
    }

    /// From the file into the store: each record's `metadata_json` is its object's text, shared
    /// or not, and the `sample_metadata` view gives its entries back.
    func testTheStoreKeepsTheReadersObjects() throws {
        let xml = export(
            """
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="W" unit="count/min" startDate="2024-01-02 07:00:00 +0100" endDate="2024-01-02 07:00:00 +0100" value="61">
              <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>
             </Record>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="W" unit="count/min" startDate="2024-01-02 07:05:00 +0100" endDate="2024-01-02 07:05:00 +0100" value="62">
              <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="1"/>
             </Record>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="W" unit="count/min" startDate="2024-01-02 07:10:00 +0100" endDate="2024-01-02 07:10:00 +0100" value="63"/>
             <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="W" unit="count/min" startDate="2024-01-02 07:15:00 +0100" endDate="2024-01-02 07:15:00 +0100" value="64">
              <MetadataEntry key="Meal" value="Lunch &amp; snack"/>
              <MetadataEntry key="Caf&#233;" value="x"/>
             </Record>
            """)
        let dir = try T.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("health.sqlite").path
        let store = try HealthStore(path: path)
        _ = try T.run(store, T.meta(sha: "m")) { s in _ = try? AppleExportReader.read(data: Data(xml.utf8), name: "t.xml", into: s) }
        XCTAssertEqual(
            try T.rows(path, "SELECT ifnull(metadata_json, 'NULL'), ifnull(value_text, 'NULL') FROM sample_records ORDER BY id"),
            [
                [#"{"HKMetadataKeyHeartRateMotionContext":"1"}"#, "NULL"],
                [#"{"HKMetadataKeyHeartRateMotionContext":"1"}"#, "NULL"],
                ["NULL", "NULL"],
                [#"{"Meal":"Lunch & snack","Café":"x"}"#, "NULL"],
            ])
        XCTAssertEqual(
            try T.rows(path, "SELECT sample_id, position, key, value FROM sample_metadata ORDER BY sample_id, position"),
            [
                ["1", "0", "HKMetadataKeyHeartRateMotionContext", "1"], ["2", "0", "HKMetadataKeyHeartRateMotionContext", "1"],
                ["4", "0", "Meal", "Lunch & snack"], ["4", "1", "Café", "x"],
            ])
    }
}
