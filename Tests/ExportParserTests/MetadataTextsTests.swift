import Foundation
import XCTest

@testable import ExportParser

/// A sample's metadata object is handed to the store's writer as a name id when many records
/// share it (`MetadataTexts`, bounded), else as its own text; either way the store holds the
/// object's exact bytes.
final class MetadataTextsTests: XCTestCase {
    typealias T = StoreTestSupport

    private func sample(minute: Int = 0, _ entries: [(String, String)]) -> Sample {
        let start = T.ts("2024-01-02 00:00:00 +0000").seconds + Int64(minute * 60)
        var s = Sample(
            type: "HKQuantityTypeIdentifierHeartRate", metric: Catalog.metric(forType: "HKQuantityTypeIdentifierHeartRate"),
            source: "Watch", unit: "count/min", valueText: "60", value: 60, canonicalValue: 60,
            start: Timestamp(seconds: start, offset: 0), end: Timestamp(seconds: start, offset: 0))
        s.metadata = entries.map { MetadataEntry(key: $0.0, value: $0.1) }
        return s
    }

    func testARepeatedObjectIsOneNameSentOnce() {
        var names = StoreSample.Names()
        let motion2 = #"{"HKMetadataKeyHeartRateMotionContext":"2"}"#
        let a = names.storeSample(sample([("HKMetadataKeyHeartRateMotionContext", "2")]))
        XCTAssertGreaterThanOrEqual(a.metadata, 0)
        XCTAssertNil(a.metadataJSON)
        // The object, then the type, source and unit, each a new name.
        XCTAssertEqual(names.takeNewNames(), [motion2, "HKQuantityTypeIdentifierHeartRate", "Watch", "count/min"])
        let b = names.storeSample(sample(minute: 1, [("HKMetadataKeyHeartRateMotionContext", "2")]))
        XCTAssertEqual(b.metadata, a.metadata)
        XCTAssertEqual(names.takeNewNames(), [])
        let c = names.storeSample(sample(minute: 2, [("HKMetadataKeyHeartRateMotionContext", "1")]))
        XCTAssertNotEqual(c.metadata, a.metadata)
        XCTAssertEqual(names.takeNewNames(), [#"{"HKMetadataKeyHeartRateMotionContext":"1"}"#])
        let none = names.storeSample(sample(minute: 3, []))
        XCTAssertEqual(none.metadata, -1)
        XCTAssertNil(none.metadataJSON)
    }

    /// Swift's `==` finds "é" composed (U+00E9, bytes C3 A9) and decomposed ("e" U+0301, bytes
    /// 65 CC 81) equal; the store keeps the bytes as written, so they are two objects:
    /// `{"k":"` (6 bytes) + the value + `"}` (2) = 10 and 11 bytes.
    func testCanonicallyEquivalentTextsStayTwoObjects() {
        var names = StoreSample.Names()
        let composed = names.storeSample(sample([("k", "\u{E9}")]))
        _ = names.takeNewNames()
        let decomposed = names.storeSample(sample(minute: 1, [("k", "e\u{301}")]))
        XCTAssertNotEqual(decomposed.metadata, composed.metadata)
        XCTAssertEqual(names.takeNewNames().map { $0.utf8.count }, [11])
    }

    /// At most 1,024 objects get ids, each at most 128 bytes: `{"k":"` + value + `"}` is
    /// 8 + the value's bytes, so a value of 120 x's (128 bytes) gets one and 121 (129) does not;
    /// values "0" … "1022" fill the table to 1,024 with it, and "1023" comes as its own text.
    func testObjectsBeyondTheBoundsComeAsTheirOwnText() {
        var names = StoreSample.Names()
        let longest = names.storeSample(sample([("k", String(repeating: "x", count: 120))]))
        XCTAssertGreaterThanOrEqual(longest.metadata, 0)
        let tooLong = names.storeSample(sample(minute: 1, [("k", String(repeating: "x", count: 121))]))
        XCTAssertEqual(tooLong.metadata, -1)
        XCTAssertEqual(tooLong.metadataJSON?.utf8.count, 129)
        for v in 0...1022 { XCTAssertGreaterThanOrEqual(names.storeSample(sample(minute: 2, [("k", "\(v)")])).metadata, 0) }
        let beyond = names.storeSample(sample(minute: 3, [("k", "1023")]))
        XCTAssertEqual(beyond.metadata, -1)
        XCTAssertEqual(beyond.metadataJSON, #"{"k":"1023"}"#)
        // One already given keeps its id.
        XCTAssertEqual(names.storeSample(sample(minute: 4, [("k", String(repeating: "x", count: 120))])).metadata, longest.metadata)
    }

    /// Through the store: shared, long and canonically equivalent objects each keep their bytes.
    func testTheStoreHoldsEachObjectsBytes() throws {
        let dir = try T.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("health.sqlite").path
        let store = try HealthStore(path: path)
        let long = String(repeating: "x", count: 121)
        _ = try T.run(store, T.meta(sha: "a")) { s in
            for m in 0..<3 { s.sample(sample(minute: m, [("HKMetadataKeyHeartRateMotionContext", "2")])) }
            s.sample(sample(minute: 3, [("k", "\u{E9}")]))
            s.sample(sample(minute: 4, [("k", "e\u{301}")]))
            s.sample(sample(minute: 5, [("k", long)]))
            s.sample(sample(minute: 6, []))
        }
        let rows = try T.rows(
            path,
            "SELECT (start_epoch / 60) % 60, hex(metadata_json), length(CAST(metadata_json AS BLOB)) FROM sample_records ORDER BY start_epoch"
        )
        let motion = Array(#"{"HKMetadataKeyHeartRateMotionContext":"2"}"#.utf8)
        func hex(_ b: [UInt8]) -> String { b.map { String(format: "%02X", $0) }.joined() }
        XCTAssertEqual(rows.count, 7)
        for m in 0..<3 { XCTAssertEqual(rows[m], ["\(m)", hex(motion), "\(motion.count)"]) }
        // {"k":"é"}: 7B 22 6B 22 3A 22, then C3 A9 or 65 CC 81, then 22 7D.
        XCTAssertEqual(rows[3], ["3", "7B226B223A22C3A9227D", "10"])
        XCTAssertEqual(rows[4], ["4", "7B226B223A2265CC81227D", "11"])
        XCTAssertEqual(rows[5][2], "129")
        XCTAssertEqual(rows[6], ["6", "", "NULL"])
    }
}
