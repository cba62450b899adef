import Foundation
import XCTest

@testable import ExportParser

/// The window scan finds a start tag's `startDate` and `endDate` in Apple's layout by where they
/// must be after `creationDate`, and by a search otherwise (`ExportWindow.dates`): the same two
/// dates in any attribute order, never `creationDate` for one of them.
final class WindowDateAttributesTests: XCTestCase {
    private static func record(_ value: String, _ dates: String) -> String {
        " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" "
            + "device=\"&lt;&lt;HKDevice: 0x1&gt;, name:iPhone, model:iPhone,&gt;\" unit=\"count\" \(dates) value=\"\(value)\"/>\n"
    }

    /// The window of 2024-03-05 (day 19787): 2024-03-03 00:00 to 03-08 00:00 UTC. By hand:
    ///
    ///   e1  creation, start, end, all 03-05                           in the window     kept
    ///   e2  creation 03-05 (in the window), start and end 02-20       before            cut
    ///   e3  creation `2024-03-05` (10 bytes), start and end 02-20     before (searched) cut
    ///   e4  creation, `sourceVersion`, then start and end 03-05       in                kept
    ///   e5  creation 03-05, then end before start, both 02-20         before            cut
    ///   e6  creation 03-05, start 02-20, no end                       unreadable        kept
    ///   e7  no creation, start and end 02-20                          before            cut
    ///   e8  creation `aaaaaaaaaaaaaa startDate=` (25 bytes, no quote), then start and end
    ///       02-20: the attributes libxml2 reads are those dates       before            cut
    ///
    /// e2 and e5 are cut only if neither date is taken from `creationDate` and both are found.
    /// e8 was kept before the dates were looked for after `creationDate` (the search stopped
    /// inside its value and took ` startDate=` for a start it could not read); a full read skips
    /// it as well, being weeks before the date.
    func testTheDatesAreFoundInEveryOrderAndNeverFromTheCreationDate() {
        let inside = "2024-03-05 09:00:00 +0100", before = "2024-02-20 08:00:00 +0100", beforeEnd = "2024-02-20 08:10:00 +0100"
        var body = ""
        body += Self.record(
            "e1", "creationDate=\"\(inside)\" startDate=\"2024-03-05 08:00:00 +0100\" endDate=\"2024-03-05 08:10:00 +0100\"")
        body += Self.record("e2", "creationDate=\"\(inside)\" startDate=\"\(before)\" endDate=\"\(beforeEnd)\"")
        body += Self.record("e3", "creationDate=\"2024-03-05\" startDate=\"\(before)\" endDate=\"\(beforeEnd)\"")
        body += Self.record(
            "e4",
            "creationDate=\"\(before)\" sourceVersion=\"1\" "
                + "startDate=\"2024-03-05 08:00:00 +0100\" endDate=\"2024-03-05 08:10:00 +0100\"")
        body += Self.record("e5", "creationDate=\"\(inside)\" endDate=\"\(beforeEnd)\" startDate=\"\(before)\"")
        body += Self.record("e6", "creationDate=\"\(inside)\" startDate=\"\(before)\"")
        body += Self.record("e7", "startDate=\"\(before)\" endDate=\"\(beforeEnd)\"")
        body += Self.record("e8", "creationDate=\"aaaaaaaaaaaaaa startDate=\" startDate=\"\(before)\" endDate=\"\(beforeEnd)\"")
        var bytes = Array(("<HealthData locale=\"en_US\">\n" + body + "</HealthData>\n").utf8)
        var seen = ExportWindow.Seen()
        ExportWindow(days: 19787...19787).filter(&bytes, seen: &seen)
        let left = String(decoding: bytes, as: UTF8.self)
        XCTAssertEqual((1...8).map { "e\($0)" }.filter { left.contains("value=\"\($0)\"") }, ["e1", "e4", "e6"])
    }
}
