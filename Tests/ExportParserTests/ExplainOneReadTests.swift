import Foundation
import XCTest

@testable import ExportParser

/// `explain` without `--timezone` reads an input once (docs/explain.md, "Where the numbers come
/// from"): the date's window is kept while it reads and played again once the `HKTimeZone`
/// timeline is known. It read the whole input a second time before. Its progress callback, fed
/// by the reader, shows the reads: the file's last byte is reported once.
final class ExplainOneReadTests: XCTestCase {
    /// Steps in Paris (HKTimeZone Europe/Paris, written at +01:00), worked out by hand:
    ///
    ///   2024-03-04 10:00–10:10  100   on 03-04
    ///   2024-03-04 23:50–23:58   60   on 03-04: near midnight, it waits for the timeline
    ///   2024-03-05 00:05–00:15   40   on 03-05
    ///   03-04: 100 + 60 = 160; 03-05: 40.
    static func handMade() throws -> String {
        let steps = "HKQuantityTypeIdentifierStepCount"
        let zone = #"<MetadataEntry key="HKTimeZone" value="Europe/Paris"/>"#
        let body =
            record(steps, "100", unit: "count", start: "2024-03-04 10:00:00 +0100", end: "2024-03-04 10:10:00 +0100", children: zone)
            + record(steps, "60", unit: "count", start: "2024-03-04 23:50:00 +0100", end: "2024-03-04 23:58:00 +0100", children: zone)
            + record(steps, "40", unit: "count", start: "2024-03-05 00:05:00 +0100", end: "2024-03-05 00:15:00 +0100", children: zone)
        let dir = try TestPaths.temporaryDirectory()
        let path = dir.appendingPathComponent("export.xml").path
        try Data(export(body).utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testTheInputIsReadOnceAndTheNearMidnightSampleIsHeard() throws {
        let input = try Self.handMade()
        let size = Int64(try FileManager.default.attributesOfItem(atPath: input)[.size] as! Int)
        let job = try ExplainJob(ExplainRequest(inputs: [input], date: "2024-03-04", field: "metrics.step_count"))
        let seen = Box<[ConvertProgress]>([])
        job.progress = { p in seen.value?.append(p) }
        let e = try job.run().explanation
        XCTAssertEqual(e.value, .number(160))  // 100 + 60
        XCTAssertEqual(e.samples.count, 2)
        XCTAssertEqual(e.countedTotal, 160)
        // The reader reports its last byte once per read: one read.
        XCTAssertEqual(seen.value?.filter { $0.bytesDone == size }.count, 1)
        XCTAssertEqual(seen.value?.allSatisfy { $0.input == input }, true)
    }
}
