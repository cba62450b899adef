import Foundation
import XCTest

@testable import ExportParser

/// compare's window read cuts a `Correlation` outside the window (docs/export-xml.md, "The
/// census"): the day book takes nothing from one, its members repeating top-level records that
/// the census takes. Each case is compared through the window and in full, every file compare
/// writes and its terminal text byte for byte, and the scan is shown to cut what it may.
final class CompareWindowCorrelationTests: ParseThreadsTestCase {
    typealias Census = CompareWindowCensusTests
    static let systolic = "HKQuantityTypeIdentifierBloodPressureSystolic", diastolic = "HKQuantityTypeIdentifierBloodPressureDiastolic"
    static let energy = "HKQuantityTypeIdentifierDietaryEnergyConsumed", protein = "HKQuantityTypeIdentifierDietaryProtein"

    /// A correlation as Apple writes it: its start tag, its metadata, its members (each also a
    /// top-level record of the export, as the DTD says), indented one more space.
    static func correlation(
        _ type: String, source: String = "Phone", device: String = Census.phone, start: String, end: String? = nil, metadata: String = "",
        members: [String]
    ) -> String {
        " <Correlation type=\"\(type)\" sourceName=\"\(source)\" sourceVersion=\"17.1\" device=\"\(device)\" "
            + "creationDate=\"\(start)\" startDate=\"\(start)\" endDate=\"\(end ?? start)\">\n" + metadata
            + members.map { " " + $0 }.joined() + " </Correlation>\n"
    }

    /// A blood-pressure reading on the watch: the top-level records and their correlation.
    static func pressure(_ at: String, source: String = "Watch", device: String = Census.watch, metadata: String = "") -> String {
        let s = Census.record(systolic, "121", unit: "mmHg", source: source, device: device, start: at)
        let d = Census.record(diastolic, "79", unit: "mmHg", source: source, device: device, start: at)
        return s + d
            + correlation(
                "HKCorrelationTypeIdentifierBloodPressure", source: source, device: device, start: at, metadata: metadata, members: [s, d])
    }

    /// A meal: two nutrients, top-level and in their food correlation.
    static func meal(_ at: String, end: String) -> String {
        let e = Census.record(energy, "640", unit: "kcal", start: at, end: end)
        let p = Census.record(protein, "31", unit: "g", start: at, end: end)
        return e + p + correlation("HKCorrelationTypeIdentifierFood", start: at, end: end, members: [e, p])
    }

    /// Correlations far before and after the window, one holding the zone, one on the window's
    /// margin and one inside it; a watch whose only elements far from the window are its
    /// correlation's; a correlation whose source holds a character reference. The window read
    /// stands (no fallback) and gives every file a full read gives.
    func testCorrelationsAroundTheWindowChangeNothing() throws {
        var body = ""
        body += Self.pressure("2024-01-03 08:00:00 +0100")
        body += Self.meal("2024-01-10 12:30:00 +0100", end: "2024-01-10 12:45:00 +0100")
        body += Self.pressure("2024-01-12 08:00:00 +0100", metadata: Census.zone("Europe/Berlin"))
        body += Self.meal("2024-01-30 23:50:00 +0100", end: "2024-01-31 00:20:00 +0100")  // the margin: kept
        body += Self.pressure("2024-02-03 07:30:00 +0100")  // inside the window: kept
        body += Self.pressure("2024-03-01 08:00:00 +0100", source: "A&#98;c", device: Census.phone)
        body += Census.inWindow
        body += Self.meal("2024-03-20 19:00:00 +0100", end: "2024-03-20 19:20:00 +0100")
        let text = Census.export(body)
        XCTAssertEqual(try Census.differences(text), [])
        XCTAssertTrue(try Census.windowReadStands(text))
    }

    /// What the scan leaves of such correlations (window 2024-02-01 … 02-07, read from 01-30
    /// 00:00 UTC to 02-10 00:00 UTC with the two days' margin): the margin's meal (01-30 22:50
    /// UTC), the window's pressure (02-03) and the one whose metadata holds `HKTimeZone`; the
    /// three others are cut. Of the twelve top-level records, the watch's first and the four of the
    /// margin's meal and the window's pressure are left (the zone entry is the correlation's, not
    /// its records').
    func testTheScanCutsCorrelationsOutsideTheWindow() throws {
        var body = ""
        body += Self.pressure("2024-01-03 08:00:00 +0100")
        body += Self.meal("2024-01-10 12:30:00 +0100", end: "2024-01-10 12:45:00 +0100")
        body += Self.pressure("2024-01-12 08:00:00 +0100", metadata: Census.zone("Europe/Berlin"))
        body += Self.meal("2024-01-30 23:50:00 +0100", end: "2024-01-31 00:20:00 +0100")
        body += Self.pressure("2024-02-03 07:30:00 +0100")
        body += Self.meal("2024-03-20 19:00:00 +0100", end: "2024-03-20 19:20:00 +0100")
        var bytes = Array(("<HealthData locale=\"en_US\">\n" + body + "</HealthData>\n").utf8)
        var seen = ExportWindow.Seen()
        // The window 2024-02-01 … 02-07 is days 19754 … 19760 (2024-02-01 = 19,723 + 31).
        ExportWindow(days: 19754...19760, census: WindowCensusCollector()).filter(&bytes, seen: &seen)
        let left = String(decoding: bytes, as: UTF8.self)
        let kept = left.components(separatedBy: "<Correlation ").dropFirst().map { String($0.prefix(400)) }
        XCTAssertEqual(kept.count, 3, left)
        XCTAssertTrue(kept[0].contains("BloodPressure\" sourceName=\"Watch\"") && left.contains("Europe/Berlin"))
        XCTAssertTrue(kept[1].contains("startDate=\"2024-01-30 23:50:00 +0100\""))
        XCTAssertTrue(kept[2].contains("startDate=\"2024-02-03 07:30:00 +0100\""))
        // Top-level records left: the watch's first (01-03's systolic: a scanner reads the first
        // record of every watch it meets), the margin's meal (2) and the window's pressure (2).
        let records = left.components(separatedBy: "\n <Record ").count - 1
        XCTAssertEqual(records, 5, left)
    }
}
