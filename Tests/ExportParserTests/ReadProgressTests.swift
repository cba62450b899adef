import Foundation
import XCTest

@testable import ExportParser

/// The export.xml reader's progress calls (`ParseSession` makes them for every way of reading):
/// (bytes fed, the input's size) each time 16 MiB more have been fed, then once at the end.
final class ReadProgressTests: XCTestCase {
    func testAnXMLFileReportsEvery16MiBAndAtTheEnd() throws {
        let dir = try TestPaths.temporaryDirectory("read-progress")
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("export.xml")
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
        let record =
            #" <Record type="HKQuantityTypeIdentifierStepCount" sourceName="A" unit="count" startDate="2024-03-01 08:00:00 +0100" endDate="2024-03-01 08:10:00 +0100" value="10"/>"#
            + "\n"
        // 17 MiB and a little: one report at 16 MiB (64 reads of 256 KiB), none at 32 MiB.
        while text.utf8.count < 17 << 20 { text += String(repeating: record, count: 1000) }
        text += "</HealthData>\n"
        try Data(text.utf8).write(to: url)
        let size = Int64(text.utf8.count)
        for threads in [1, 2] {
            var reader = AppleExportReader(path: url.path)
            reader.threads = threads
            var calls: [(Int64, Int64?)] = []
            reader.progress = { calls.append(($0, $1)) }
            try reader.read(into: CollectingSink(details: false))
            XCTAssertEqual(calls.map(\.0), [16_777_216, size], "threads \(threads)")
            XCTAssertEqual(calls.map(\.1), [size, size], "threads \(threads)")
        }
    }
}
