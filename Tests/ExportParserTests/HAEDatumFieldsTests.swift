import Foundation
import XCTest

@testable import ExportParser

/// The walker resets one `HAEDatumFields` for each datum and keeps its source name's storage
/// across datums (`reset`, `setSource`): a reset datum must read as a new one, and the source
/// must follow each datum's own (or none) whatever came before.
final class HAEDatumFieldsTests: XCTestCase {
    func testAResetDatumIsEmptyAtItsNewPlace() {
        var d = HAEDatumFields(index: 0, byteOffset: 10)
        d.date = Timestamp(seconds: 100, offset: 0)
        d.startDate = Timestamp(seconds: 200, offset: 3600)
        d.endDate = Timestamp(seconds: 300, offset: 3600)
        d.hasStartDate = true
        d.qty = 1
        d.min = 2
        d.avg = 3
        d.max = 4
        d.stage = .core
        d.stageText = "Core?"
        _ = d.sleepFields()
        d.extras = [MetadataEntry(key: "k", value: "v")]
        d.setSource(id: 0) { "Watch" }
        d.reset(index: 7, byteOffset: 1234)
        XCTAssertNil(d.date)
        XCTAssertNil(d.startDate)
        XCTAssertNil(d.endDate)
        XCTAssertFalse(d.hasStartDate)
        XCTAssertNil(d.qty)
        XCTAssertNil(d.min)
        XCTAssertNil(d.avg)
        XCTAssertNil(d.max)
        XCTAssertNil(d.stage)
        XCTAssertNil(d.stageText)
        XCTAssertNil(d.sleep)
        XCTAssertTrue(d.extras.isEmpty)
        XCTAssertNil(d.source)
        XCTAssertEqual(d.sourceID, -1)
        XCTAssertEqual(d.index, 7)
        XCTAssertEqual(d.byteOffset, 1234)
    }

    func testTheSourceFollowsEachDatum() {
        var d = HAEDatumFields(index: 0, byteOffset: 0)
        var asked = 0
        // Datum 0: "Watch" (id 0): its name is asked for once.
        d.setSource(id: 0) {
            asked += 1
            return "Watch"
        }
        XCTAssertEqual(d.source, "Watch")
        XCTAssertEqual(d.sourceID, 0)
        // Datum 1: the same id: the kept name, not asked again.
        d.reset(index: 1, byteOffset: 1)
        d.setSource(id: 0) {
            asked += 1
            return "Watch"
        }
        XCTAssertEqual(d.source, "Watch")
        XCTAssertEqual(asked, 1)
        // Datum 2: no source: nil (id −1), though the name is still kept.
        d.reset(index: 2, byteOffset: 2)
        XCTAssertNil(d.source)
        XCTAssertEqual(d.sourceID, -1)
        // Datum 3: another source (id 1): asked, 2 in all.
        d.reset(index: 3, byteOffset: 3)
        d.setSource(id: 1) {
            asked += 1
            return "iPhone"
        }
        XCTAssertEqual(d.source, "iPhone")
        XCTAssertEqual(d.sourceID, 1)
        XCTAssertEqual(asked, 2)
        // Datum 4: an empty source (the walker's id −2): "" and not nil.
        d.reset(index: 4, byteOffset: 4)
        d.setSource(id: -2) { "" }
        XCTAssertEqual(d.source, "")
        XCTAssertEqual(d.sourceID, -2)
    }

    /// Through the reader: step datums with sources "A", none, "B", "" and "A" again give the
    /// samples "A", "", "B", "", "A" (a datum without a source has the empty name, docs/hae.md);
    /// a sleep night without `source` takes its `sleepSource` ("Oura") and not the source of the
    /// datum before it.
    func testTheReaderGivesEachDatumItsOwnSource() throws {
        let json = #"""
            {"data":{"metrics":[
            {"name":"step_count","units":"count","data":[
            {"date":"2024-03-01 08:00:00 +0000","qty":1,"source":"A"},
            {"date":"2024-03-01 09:00:00 +0000","qty":2},
            {"date":"2024-03-01 10:00:00 +0000","qty":3,"source":"B"},
            {"date":"2024-03-01 11:00:00 +0000","qty":4,"source":""},
            {"date":"2024-03-01 12:00:00 +0000","qty":5,"source":"A"}]},
            {"name":"sleep_analysis","units":"hr","data":[
            {"date":"2024-03-02 00:00:00 +0000","asleep":7,"sleepStart":"2024-03-01 23:00:00 +0000","sleepEnd":"2024-03-02 06:00:00 +0000","source":"Watch"},
            {"date":"2024-03-03 00:00:00 +0000","asleep":6,"sleepStart":"2024-03-02 23:00:00 +0000","sleepEnd":"2024-03-03 05:00:00 +0000","sleepSource":"Oura"}]}
            ]}}
            """#
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hae-sources-\(UUID().uuidString).json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let sink = CollectingSink(details: false)
        _ = try HAEReader(path: url.path).read(into: sink)
        XCTAssertEqual(sink.samples.map(\.source), ["A", "", "B", "", "A"])
        XCTAssertEqual(sink.samples.map { $0.value ?? -1 }, [1, 2, 3, 4, 5])
        XCTAssertEqual(sink.sleepSummaries.map(\.source), ["Watch", "Oura"])
    }
}
