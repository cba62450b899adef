import Foundation
import XCTest

@testable import ExportParser

/// The progress line of a window read counts the elements its scan passed (`WindowScanTally`),
/// kept or cut: the book is given a sliver of them, and the line said "0 records/s" while the
/// scan went through millions.
final class WindowScanTallyTests: XCTestCase {
    /// 30 step records, one a day 2024-01-01 … 01-30, and one date's window (01-15: the scan
    /// keeps 01-13 … 01-17, margins included, and cuts 25). The scan cuts the file into segments
    /// at each line that starts a top-level element: the XML declaration, `<HealthData>`,
    /// `ExportDate`, the 30 records and `</HealthData>` = 1 + 1 + 1 + 30 + 1 = 34, each passed
    /// once however the chunks fall (64 bytes: every record cut across chunks; 4 kB: one chunk).
    func testEveryElementIsCountedOnceKeptOrCut() throws {
        var body = ""
        for day in 1...30 {
            let d = day < 10 ? "0\(day)" : "\(day)"
            body +=
                " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" "
                + "startDate=\"2024-01-\(d) 09:00:00 +0000\" endDate=\"2024-01-\(d) 09:10:00 +0000\" value=\"\(day)\"/>\n"
        }
        let xml =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
            + " <ExportDate value=\"2024-02-01 08:00:00 +0000\"/>\n" + body + "</HealthData>\n"
        let url = try TestPaths.temporaryDirectory("scan-tally").appendingPathComponent("export.xml")
        try Data(xml.utf8).write(to: url)
        let day = try XCTUnwrap(CivilDate.parseISODate("2024-01-15"))
        for chunk in [64, 4096] {
            var reader = AppleExportReader(path: url.path)
            reader.threads = 2
            reader.parallelChunkBytes = chunk
            let window = ExportWindow(days: day...day)
            reader.window = window
            let sink = CollectingSink()
            try reader.read(into: sink)
            XCTAssertEqual(window.tally.elements, 34, "chunks of \(chunk) bytes")
            // The book was given the window's 5 records only (values 13 … 17).
            XCTAssertEqual(sink.samples.compactMap(\.value), [13, 14, 15, 16, 17], "chunks of \(chunk) bytes")
        }
    }

    /// The line's records come from the closure it is given: a window read's tally, not the
    /// book's samples.
    func testTheReporterShowsTheRecordsItIsGiven() {
        var shown: [ConvertProgress] = []
        let report = ConvertProgress.reporter({ shown.append($0) }, started: Date()) { 1_234_567 }
        report("export.xml", 10, 20)
        XCTAssertEqual(shown.map(\.records), [1_234_567])
        XCTAssertEqual(shown.map(\.bytesDone), [10])
    }
}
