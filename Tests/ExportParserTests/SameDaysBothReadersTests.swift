import Foundation
import XCTest

@testable import ExportParser

/// The same days read from export.xml and from its HAE twin (Fixtures/twins, the arithmetic in
/// the XML's comment) give identical payloads but for what HAE cannot carry: the heart-rate
/// sample count, a workout's source and the export date (an HAE file has none; the reader
/// uses the file's time for `device_sync_timestamp`). Compare (the migration check) stands on this: a
/// difference between the two sides must be the data's, never the tool's own.
final class SameDaysBothReadersTests: XCTestCase {
    static let directory = TestPaths.fixtures.appendingPathComponent("twins")

    private func payloads(_ name: String, read: (SampleSink) throws -> ReadReport) throws -> ([String: [String: Any]], ReadReport) {
        let book = DayBook(options: try DayOptions(timeZoneName: "Australia/Sydney"))
        let report = try read(book)
        var out: [String: [String: Any]] = [:]
        for d in book.finish() {
            out[d.date] = try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(PayloadEncoder.payload(d).render().utf8)) as? [String: Any], name)
        }
        return (out, report)
    }

    func testExportAndHAETwinGiveTheSamePayloads() throws {
        let xml = Self.directory.appendingPathComponent("same-days.xml")
        let hae = Self.directory.appendingPathComponent("same-days.hae.json")
        let (native, nativeReport) = try payloads("xml") {
            try AppleExportReader.read(data: Data(contentsOf: xml), name: "same-days.xml", into: $0)
        }
        let (fromHAE, haeReport) = try payloads("hae") { try HAEReader(path: hae.path).read(into: $0) }
        XCTAssertEqual(nativeReport.totalSkips, 0, "\(nativeReport.skips)")
        XCTAssertEqual(haeReport.totalSkips, 0, "\(haeReport.skips)")
        XCTAssertEqual(native.keys.sorted(), ["2024-03-02", "2024-03-03", "2024-03-04"])
        XCTAssertEqual(fromHAE.keys.sorted(), native.keys.sorted())

        // What HAE cannot carry is there on the export side, absent on the HAE side.
        let nativeHR = try XCTUnwrap((native["2024-03-02"]?["metrics"] as? [String: Any])?["heart_rate_samples"] as? [String: Any])
        XCTAssertEqual(nativeHR["count"] as? Int, 3)
        let haeHR = try XCTUnwrap((fromHAE["2024-03-02"]?["metrics"] as? [String: Any])?["heart_rate_samples"] as? [String: Any])
        XCTAssertNil(haeHR["count"])
        XCTAssertEqual((native["2024-03-02"]?["workouts"] as? [[String: Any]])?.first?["source"] as? String, "Anna’s Apple Watch")
        XCTAssertEqual((fromHAE["2024-03-02"]?["workouts"] as? [[String: Any]])?.first?["source"] as? String, "Health Auto Export")

        for date in native.keys.sorted() {
            let a = Self.comparable(native[date]!), b = Self.comparable(fromHAE[date]!)
            XCTAssertEqual(a, b, "\(date): export.xml and HAE differ")
        }
        // The hand arithmetic (same-days.xml), on the export side.
        let d2 = native["2024-03-02"]!, m2 = d2["metrics"] as! [String: Any]
        XCTAssertEqual(m2["step_count"] as? Int, 3500)
        XCTAssertEqual(m2["active_calories"] as? Int, 300)
        XCTAssertEqual((d2["running_mechanics"] as? [String: Any])?["running_speed_kmh"] as? Int, 11)
        XCTAssertEqual((d2["running_mechanics"] as? [String: Any])?["running_power_w"] as? Int, 260)
        let s3 = try XCTUnwrap(native["2024-03-03"]?["sleep"] as? [String: Any])
        XCTAssertEqual(s3["total_hours"] as? Double, 7.5)
        let s4 = try XCTUnwrap(native["2024-03-04"]?["sleep"] as? [String: Any])
        XCTAssertEqual(s4["total_hours"] as? Int, 7)
        XCTAssertNil(s4["core_hours"])
    }

    /// A night that ends after noon (a real HAE night ran 23:45–15:20) is dated by its end on
    /// both sides (docs/rules.md, "Nights"): export.xml's samples chain into one session ending
    /// 05-10 15:20; HAE's summarised night is dated by its `sleepEnd`, and HAE's segments chain
    /// as the export's do. The noon window before issue 39 put the export's night on 05-11.
    func testANightEndingAfterNoonIsTheDateItEndsOnBothSides() throws {
        let dir = try StoreTestSupport.temporaryDirectory()
        let watch = "Anna’s Apple Watch"
        func record(_ from: String, _ to: String, _ stage: String) -> String {
            "<Record type=\"HKCategoryTypeIdentifierSleepAnalysis\" sourceName=\"\(watch)\" startDate=\"\(from)\" endDate=\"\(to)\" "
                + "value=\"HKCategoryValueSleepAnalysis\(stage)\"/>"
        }
        let xml =
            "<HealthData locale=\"en_US\"><ExportDate value=\"2024-05-12 08:00:00 +0200\"/>"
            + record("2024-05-09 23:45:00 +0200", "2024-05-10 07:00:00 +0200", "AsleepCore")
            + record("2024-05-10 07:00:00 +0200", "2024-05-10 15:20:00 +0200", "AsleepREM") + "</HealthData>"
        let summary = dir.appendingPathComponent("summarised.json")
        try Data(
            """
            {"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": [
              {"date": "2024-05-09 00:00:00 +0200", "totalSleep": 15.583333, "core": 7.25, "deep": 0, "rem": 8.333333, "awake": 0,
               "asleep": 0, "inBed": 0, "sleepStart": "2024-05-09 23:45:00 +0200", "sleepEnd": "2024-05-10 15:20:00 +0200",
               "inBedStart": "2024-05-09 23:45:00 +0200", "inBedEnd": "2024-05-10 15:20:00 +0200", "source": "\(watch)"}]}]}}
            """.utf8
        ).write(to: summary)
        let segments = dir.appendingPathComponent("segments.json")
        try Data(
            """
            {"data": {"metrics": [{"name": "sleep_analysis", "units": "hr", "data": [
              {"startDate": "2024-05-09 23:45:00 +0200", "endDate": "2024-05-10 07:00:00 +0200", "qty": 7.25, "value": "Core", "source": "\(watch)"},
              {"startDate": "2024-05-10 07:00:00 +0200", "endDate": "2024-05-10 15:20:00 +0200", "qty": 8.333333, "value": "REM", "source": "\(watch)"}]}]}}
            """.utf8
        ).write(to: segments)
        func nights(_ read: (SampleSink) throws -> ReadReport) throws -> [String: String] {
            let book = DayBook(options: try DayOptions(timeZoneName: "Europe/Berlin"))
            _ = try read(book)
            var out: [String: String] = [:]
            for d in book.finish() {
                let payload = try XCTUnwrap(
                    JSONSerialization.jsonObject(with: Data(PayloadEncoder.payload(d).render().utf8)) as? [String: Any])
                guard let sleep = payload["sleep"] else { continue }
                out[d.date] = String(decoding: try JSONSerialization.data(withJSONObject: sleep, options: [.sortedKeys]), as: UTF8.self)
            }
            return out
        }
        let native = try nights { try AppleExportReader.read(data: Data(xml.utf8), name: "night.xml", into: $0) }
        // Core 23:45–07:00 = 7.25 h, REM 07:00–15:20 = 8 h 20 min = 8.3333 h: 15.5833 h -> 15.58.
        let expected =
            "{\"core_hours\":7.25,\"in_bed_end\":\"2024-05-10T15:20:00+02:00\",\"in_bed_start\":\"2024-05-09T23:45:00+02:00\","
            + "\"rem_hours\":8.33,\"source\":\"\(watch)\",\"total_hours\":15.58}"
        XCTAssertEqual(native, ["2024-05-10": expected])
        XCTAssertEqual(try nights { try HAEReader(path: summary.path).read(into: $0) }, native)
        XCTAssertEqual(try nights { try HAEReader(path: segments.path).read(into: $0) }, native)
    }

    /// The payload as canonical JSON text, less the heart-rate count, workout sources and the
    /// sync timestamp.
    static func comparable(_ payload: [String: Any]) -> String {
        var p = payload
        p["device_sync_timestamp"] = nil
        if var m = p["metrics"] as? [String: Any], var hr = m["heart_rate_samples"] as? [String: Any] {
            hr["count"] = nil
            m["heart_rate_samples"] = hr
            p["metrics"] = m
        }
        if let ws = p["workouts"] as? [[String: Any]] {
            p["workouts"] = ws.map { w in
                var w = w; w["source"] = nil; return w
            }
        }
        let data = try! JSONSerialization.data(withJSONObject: p, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
