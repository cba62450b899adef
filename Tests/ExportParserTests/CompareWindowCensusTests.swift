import Foundation
import XCTest

@testable import ExportParser

/// An adversarial review of compare's census (issue 42, docs/export-xml.md "The census"): small
/// exports aimed at what the census assumes of a record it cuts, each compared through the
/// window and in full (every file compare writes and its terminal text, byte for byte).
final class CompareWindowCensusTests: ParseThreadsTestCase {
    static let steps = "HKQuantityTypeIdentifierStepCount", heart = "HKQuantityTypeIdentifierHeartRate"
    static let phone = "&lt;&lt;HKDevice: 0x1&gt;, name:iPhone, model:iPhone, hardware:iPhone12,1&gt;"
    static let watch = "&lt;&lt;HKDevice: 0x2&gt;, name:Apple Watch, model:Watch, hardware:Watch6,1&gt;"

    /// A record as Apple writes it (`children`: its nested lines, the record then open).
    static func record(
        _ type: String, _ value: String, unit: String = "count", source: String = "Phone", device: String = phone, start: String,
        end: String? = nil, children: String = ""
    ) -> String {
        let tag =
            " <Record type=\"\(type)\" sourceName=\"\(source)\" device=\"\(device)\" unit=\"\(unit)\" "
            + "startDate=\"\(start)\" endDate=\"\(end ?? start)\" value=\"\(value)\""
        return children.isEmpty ? tag + "/>\n" : tag + ">\n" + children + " </Record>\n"
    }

    static func zone(_ name: String) -> String { "  <MetadataEntry key=\"HKTimeZone\" value=\"\(name)\"/>\n" }

    /// The window's one record (2024-02-02, in --from 2024-02-01 --days 7): compare needs data.
    static let inWindow = record(steps, "100", start: "2024-02-02 12:00:00 +0100", end: "2024-02-02 12:10:00 +0100")

    static func export(_ body: String, exportDate: String = "2024-04-01 08:00:00 +0100") -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"\(exportDate)\"/>\n" + body
            + "</HealthData>\n"
    }

    /// A fixture's HAE file over the window's first dates (rows on both sides), made once.
    private static let haeFile: Result<String, Error> = Result {
        try FixtureCheck.make(days: 3, start: "2024-02-01", seed: 1, name: "census-hae").appendingPathComponent("hae.json").path
    }
    static func hae() throws -> String { try haeFile.get() }

    /// Every file compare writes and its terminal text (or the error) of one run.
    static func outputs(
        _ native: String, _ hae: String, from: String, days: Int, zone: String? = nil, window: Bool, out: URL
    ) throws -> [String: Data] {
        let job = try CompareJob(CompareRequest(native: [native], hae: [hae], days: days, from: from, timeZoneName: zone, outDir: out.path))
        job.windowRead = window
        do {
            let outcome = try job.run()
            var files = try FixtureCheck.files(out)
            files["terminal"] = Data(outcome.terminalText(color: false).utf8)
            return files
        } catch {
            return ["error": Data("\(error)".utf8)]
        }
    }

    /// The differences between compare of `text` (an export) through the window and in full,
    /// one line each (none: the same bytes).
    static func differences(
        _ text: String, from: String = "2024-02-01", days: Int = 7, zone: String? = nil, chunk: Int = 64
    ) throws -> [String] {
        try differences(bytes: Data(text.utf8), from: from, days: days, zone: zone, chunk: chunk)
    }

    static func differences(bytes: Data, from: String = "2024-02-01", days: Int = 7, zone: String? = nil, chunk: Int = 64) throws
        -> [String]
    {
        try differences(bytes: bytes, from: from, days: days, zone: zone, chunks: [chunk])[0]
    }

    /// The differences of the window read in chunks of each of `chunks` bytes from the one full
    /// read (a full read's outputs do not depend on its chunks: `ParallelReadTests`).
    static func differences(bytes: Data, from: String = "2024-02-01", days: Int = 7, zone: String? = nil, chunks: [Int]) throws
        -> [[String]]
    {
        ParseThreads.count = 2
        ParseThreads.chunkBytes = chunks[0]
        let dir = try TestPaths.temporaryDirectory("census-review")
        let native = dir.appendingPathComponent("export.xml")
        try bytes.write(to: native)
        let out = dir.appendingPathComponent("out")
        let full = try outputs(native.path, try hae(), from: from, days: days, zone: zone, window: false, out: out)
        return try chunks.map { chunk in
            ParseThreads.chunkBytes = chunk
            try? FileManager.default.removeItem(at: out)
            let windowed = try outputs(native.path, try hae(), from: from, days: days, zone: zone, window: true, out: out)
            var found: [String] = []
            for name in Set(full.keys).union(windowed.keys).sorted() where full[name] != windowed[name] {
                found.append("\(name): \(FixtureCheck.firstDifference(full[name] ?? Data(), windowed[name] ?? Data()))")
            }
            return found
        }
    }

    /// Whether the window read of `text` stands on its own (the census was trusted).
    static func windowReadStands(
        _ text: String, from: String = "2024-02-01", days: Int = 7, zone: String? = nil, chunk: Int = 64
    ) throws -> Bool {
        ParseThreads.count = 2
        ParseThreads.chunkBytes = chunk
        let path = try TestPaths.temporaryDirectory("census-stands").appendingPathComponent("export.xml")
        try Data(text.utf8).write(to: path)
        let day = try XCTUnwrap(CivilDate.parseISODate(from))
        let side = try CompareWindowSide.read(
            path.path, format: .appleXML, options: try DayOptions(timeZoneName: zone),
            window: Comparison.Window(from: day, to: day + days - 1),
            progress: nil)
        return side != nil
    }

    /// The days and source names of a full read of `text` (what the report states of the side).
    static func fullSide(_ text: String, zone: String? = nil) throws -> (dates: [String], sources: [String]) {
        let path = try TestPaths.temporaryDirectory("census-full").appendingPathComponent("export.xml")
        try Data(text.utf8).write(to: path)
        var ignored: [IgnoredPayloadKeys] = []
        var superseded = 0
        let days = try CompareJob.side([path.path], options: try DayOptions(timeZoneName: zone), ignored: &ignored, superseded: &superseded)
        let summary = CompareSideSummary(side: .native, kind: "", files: [], days: days)
        return (days.keys.sorted(), summary.sources)
    }

    /// A zone entry inside a quarter-hour: the timeline holds a zone from the quarter-hour its
    /// entry falls in (`ZoneTimeline`), so the census, which knows a cut record only by its
    /// quarter-hour, dates it as the reader does. By hand:
    ///
    ///   a  heart rate 01-05 12:00 +0900, HKTimeZone Asia/Tokyo          kept            01-05
    ///   b  heart rate 01-10 05:10 -1000 (15:10 UTC), Pacific/Honolulu   kept            01-10
    ///   c  heart rate 01-10 05:12 -1000 (15:12 UTC)                     cut: Honolulu   01-10
    ///      (Honolulu from 15:00 UTC; Tokyo's date there would be 01-11, a date of none)
    ///   w  steps 02-02 12:00 +0100 (the window)                          Honolulu        02-02
    ///
    /// Dates: 01-05, 01-10, 02-02 (3).
    func testAZoneChangeInsideAQuarterHourIsDatedAsTheReaderDatesIt() throws {
        let text = Self.export(
            Self.record(Self.heart, "60", unit: "count/min", start: "2024-01-05 12:00:00 +0900", children: Self.zone("Asia/Tokyo"))
                + Self.record(
                    Self.heart, "61", unit: "count/min", start: "2024-01-10 05:10:00 -1000", children: Self.zone("Pacific/Honolulu"))
                + Self.record(Self.heart, "62", unit: "count/min", start: "2024-01-10 05:12:00 -1000") + Self.inWindow)
        XCTAssertEqual(try Self.fullSide(text).dates, ["2024-01-05", "2024-01-10", "2024-02-02"])
        XCTAssertTrue(try Self.windowReadStands(text))
        XCTAssertEqual(try Self.differences(text), [])
    }

    /// A device written with a character reference is a watch to the reader (it tests the
    /// decoded text for `model:Watch,`) and names its source. By hand: W's heart rates on 01-10
    /// and 01-11 (`model&#58;Watch,`), the window's steps from Phone: sources Phone and W.
    func testAWatchWrittenWithACharacterReferenceIsNamed() throws {
        let device = "&lt;&lt;HKDevice: 0x2&gt;, name:Apple Watch, model&#58;Watch, hardware:Watch6,1&gt;"
        let text = Self.export(
            Self.record(Self.heart, "60", unit: "count/min", source: "W", device: device, start: "2024-01-10 12:00:00 +0100")
                + Self.record(Self.heart, "61", unit: "count/min", source: "W", device: device, start: "2024-01-11 12:00:00 +0100")
                + Self.inWindow)
        XCTAssertEqual(try Self.fullSide(text).sources, ["Phone", "W"])
        XCTAssertTrue(try Self.windowReadStands(text))
        XCTAssertEqual(try Self.differences(text), [])
    }

    /// A zone whose offset is not whole quarter-hours (Monrovia's mean time, −00:44:30, until
    /// 1972): its midnight falls inside a UTC quarter-hour, where the census cannot tell the
    /// dates apart. By hand, --timezone Africa/Monrovia:
    ///
    ///   heart rate 1971-01-10 00:44:40 +0000 = 1971-01-10 00:00:10 in Monrovia    01-10
    ///      (its quarter-hour, 00:30 UTC, is 23:45:30 on 01-09)
    ///   steps 2024-02-02 12:00 +0100 (the window)                                  02-02
    ///
    /// Dates: 1971-01-10 and 2024-02-02.
    func testAZoneOfAnOddOffsetIsRead() throws {
        let text = Self.export(Self.record(Self.heart, "60", unit: "count/min", start: "1971-01-10 00:44:40 +0000") + Self.inWindow)
        XCTAssertEqual(try Self.fullSide(text, zone: "Africa/Monrovia").dates, ["1971-01-10", "2024-02-02"])
        XCTAssertEqual(try Self.differences(text, zone: "Africa/Monrovia"), [])
    }

    /// A recorded offset far from the timeline's zone: the reader reads again with the timeline
    /// (a recorded offset +01:00 is 8 h from Tokyo's, more than the hour of the fringe) and
    /// dates every record by it, as the census does. By hand:
    ///
    ///   a  heart rate 01-05 12:00 +0900, HKTimeZone Asia/Tokyo (the zone from the start)   01-05
    ///   b  heart rate 01-10 20:00 +0100 = 19:00 UTC = 01-11 04:00 in Tokyo                   01-11
    ///   w  steps 02-02 12:00 +0100 = 20:00 in Tokyo (the window)                             02-02
    ///
    /// Dates: 01-05, 01-11, 02-02.
    func testARecordFarFromTheTimelinesZoneIsDatedByItAsTheReaderDatesIt() throws {
        let text = Self.export(
            Self.record(Self.heart, "60", unit: "count/min", start: "2024-01-05 12:00:00 +0900", children: Self.zone("Asia/Tokyo"))
                + Self.record(Self.heart, "61", unit: "count/min", start: "2024-01-10 20:00:00 +0100") + Self.inWindow)
        XCTAssertEqual(try Self.fullSide(text).dates, ["2024-01-05", "2024-01-11", "2024-02-02"])
        XCTAssertEqual(try Self.differences(text), [])
    }

    /// An export declared in ISO-8859-1: libxml2 hands its source names over in UTF-8, the
    /// census keeps them as written. By hand: "Café" written as 43 61 66 E9 (Latin-1) is
    /// "Café" to the reader; "Ã©" written C3 A9 is "Ã©" (two characters), not "é".
    func testAnExportInAnotherEncodingNamesItsSourcesAsTheReaderDoes() throws {
        var text = Self.export(
            Self.record(Self.steps, "5", source: "CafeE9", start: "2024-01-10 12:00:00 +0100", end: "2024-01-10 12:01:00 +0100")
                + Self.record(Self.steps, "6", source: "XC3A9", start: "2024-01-11 12:00:00 +0100", end: "2024-01-11 12:01:00 +0100")
                + Self.inWindow)
        text = text.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"ISO-8859-1\"")
        var bytes = Data(text.utf8)
        bytes = bytes.replacing(Data("CafeE9".utf8), with: Data([0x43, 0x61, 0x66, 0xE9]))
        bytes = bytes.replacing(Data("XC3A9".utf8), with: Data([0x58, 0xC3, 0xA9]))
        XCTAssertEqual(try Self.differences(bytes: bytes), [])
    }
}
