import Foundation
import XCTest

@testable import ExportParser

/// Quantity metrics from Fixtures/hae/metrics-units.json (hand-written; `{"data": …}` wrapper).
/// Expected values are worked out by hand in the comments.
final class HAEReaderMetricTests: XCTestCase {
    let path = HAEFixtures.path("metrics-units.json")

    func testEmitsEveryReadableDatumOnce() throws {
        let (sink, report) = try HAEFixtures.read(path)
        // step 2 (+2 skipped) + energy 1 + distance 2 + weight 1 + SpO2 1 + body fat 1 + resp 2
        // + heart rate 3 + 2 + wrist temp 2 + cholesterol 1 + 1 + stair speed 1 + basal 1 + walking speed 1
        // + wrist temp (hourly) 2 = 24
        XCTAssertEqual(sink.samples.count, 24)
        XCTAssertEqual(report.recordsByType.values.reduce(0, +), 24)
        XCTAssertEqual(sink.inputs.first?.format, .hae)
        // HAE states no export date, and the file's modification time is none either: the
        // day book dates the payloads by the data instead (HAEBodiesTests).
        XCTAssertEqual(sink.exportDates.count, 0)
        XCTAssertEqual(sink.finished.count, 1)
        XCTAssertGreaterThan(report.bytesRead, 0)
    }

    func testStepsKeepPipeJoinedSourceAndAreDayBuckets() throws {
        let (sink, _) = try HAEFixtures.read(path)
        let steps = sink.samples(field: "step_count")
        XCTAssertEqual(steps.map(\.canonicalValue), [7369.142, 4000])
        XCTAssertEqual(steps[0].source, "Watch|iPhone")
        XCTAssertEqual(steps[0].type, "HKQuantityTypeIdentifierStepCount")
        XCTAssertEqual(steps[0].unit, "count")
        XCTAssertTrue(steps[0].isBucket)
        // aggregated buckets are instants at the bucket start
        XCTAssertEqual(steps[0].start, ts("2026-03-30 00:00:00 -0600"))
        XCTAssertEqual(steps[0].end, steps[0].start)
    }

    func testDatumWithoutDateIsSkippedWithPathAndOffset() throws {
        let (_, report) = try HAEFixtures.read(path)
        let reason = "HAE datum without a parseable date"
        // data[2] has no date at all, data[3] has "yesterday"
        XCTAssertEqual(report.skips[reason], 2)
        let examples = report.skipExamples[reason] ?? []
        XCTAssertEqual(examples.map(\.path), ["data.metrics[0].data[2].date", "data.metrics[0].data[3].date"])
        XCTAssertEqual(examples.first?.byteOffset, HAEFixtures.offset(of: #"{"qty": 5, "source": "nodate"}"#, in: path))
    }

    func testUnitsConvertByDeclaredUnits() throws {
        let (sink, _) = try HAEFixtures.read(path)
        // 418.4 kJ / 4.184 = 100 kcal
        XCTAssertEqual(sink.samples(field: "active_calories").first?.canonicalValue ?? 0, 100, accuracy: 1e-9)
        XCTAssertEqual(sink.samples(field: "active_calories").first?.value, 418.4)
        XCTAssertEqual(sink.samples(field: "active_calories").first?.unit, "kJ")
        // 150 lb × 0.45359237 = 68.0388555 kg
        XCTAssertEqual(sink.samples(field: "weight_kg").first?.canonicalValue ?? 0, 68.0388555, accuracy: 1e-9)
        // HAE percentages are whole: 97 % stays 97
        XCTAssertEqual(sink.samples(field: "blood_oxygen_saturation").first?.canonicalValue, 97)
        // 2.5 mi/hr × 1.609344 = 4.02336 km/hr
        XCTAssertEqual(sink.samples(field: "walking_speed_kmh").first?.canonicalValue ?? 0, 4.02336, accuracy: 1e-9)
        // both cholesterol spellings: 150 mg, and 0.3 g = 300 mg
        XCTAssertEqual(sink.samples(field: "cholesterol").map(\.canonicalValue), [150, 300])
    }

    func testNameAndUnitsAfterDataStillApply() throws {
        let (sink, _) = try HAEFixtures.read(path)
        // walking_running_distance lists data before units/name: 2 mi = 3.218688 km, 0.5 mi = 0.804672 km
        let d = sink.samples(field: "distance_km")
        XCTAssertEqual(d.count, 2)
        XCTAssertEqual(d[0].canonicalValue ?? 0, 3.218688, accuracy: 1e-12)
        XCTAssertEqual(d[1].canonicalValue ?? 0, 0.804672, accuracy: 1e-12)
        XCTAssertEqual(d[0].source, "Watch")
        XCTAssertEqual(d[1].source, "")  // no source field
        XCTAssertEqual(d[0].unit, "mi")
    }

    func testNonAggregatedDatumUsesStartAndEndDate() throws {
        let (sink, _) = try HAEFixtures.read(path)
        let fat = try XCTUnwrap(sink.samples(field: "body_fat_pct").first)
        XCTAssertFalse(fat.isBucket)
        XCTAssertEqual(fat.start, ts("2026-03-30 07:10:00 -0600"))
        XCTAssertEqual(fat.canonicalValue, 27.5)
    }

    func testTwelveHourDates() throws {
        let (sink, _) = try HAEFixtures.read(path)
        // "9:15:00\u202FPM" (JSON escape for U+202F) and "9:16:00 AM"
        XCTAssertEqual(
            sink.samples(field: "respiratory_rate").map(\.start),
            [ts("2026-03-30 21:15:00 -0600"), ts("2026-03-30 09:16:00 -0600")])
    }

    func testHeartRateBucketsAndSingleSamples() throws {
        let (sink, _) = try HAEFixtures.read(path)
        let hr = sink.samples(field: "heart_rate_samples")
        XCTAssertEqual(hr.count, 5)
        // {Min 50, Avg 70.5, Max 120}: value = Avg, extremes kept, a bucket
        XCTAssertEqual(hr[0].value, 70.5)
        XCTAssertEqual(hr[0].canonicalValue, 70.5)
        XCTAssertEqual(hr[0].bucketMinimum, 50)
        XCTAssertEqual(hr[0].bucketMaximum, 120)
        XCTAssertTrue(hr[0].isBucket)
        XCTAssertEqual(hr[0].source, "Watch|Ring")
        // {qty 65} with date, and {qty 66} with startDate: single samples
        XCTAssertEqual(hr[1].canonicalValue, 65)
        XCTAssertFalse(hr[1].isBucket)
        XCTAssertNil(hr[1].bucketMinimum)
        XCTAssertEqual(hr[2].canonicalValue, 66)
        XCTAssertFalse(hr[2].isBucket)
        // seconds grouping: {Min 61, Avg 61, Max 61} is one sample, not a bucket
        XCTAssertEqual(hr[3].canonicalValue, 61)
        XCTAssertFalse(hr[3].isBucket)
        XCTAssertFalse(hr[4].isBucket)
    }

    func testWristTemperatureDayBucketMovesToTheNightItEnds() throws {
        let (sink, _) = try HAEFixtures.read(path)
        let t = sink.samples(field: "apple_sleeping_wrist_temperature")
        XCTAssertEqual(t.count, 4)
        // day buckets (every datum of the metric at local midnight):
        // 98.6 degF = 37 degC, dated 03-29 (the evening) → 03-30 00:00 local, inside the night ending 03-30
        XCTAssertEqual(t[0].canonicalValue ?? 0, 37, accuracy: 1e-9)
        XCTAssertEqual(t[0].start, ts("2026-03-30 00:00:00 -0600"))
        XCTAssertEqual(t[0].end, ts("2026-03-30 00:00:00 -0600"))
        // (95 − 32) × 5/9 = 35 degC, dated 03-30 → 03-31
        XCTAssertEqual(t[1].start, ts("2026-03-31 00:00:00 -0600"))
        XCTAssertEqual(t[1].canonicalValue ?? 0, 35, accuracy: 1e-9)
        // hourly buckets (one at 01:00): none moves, not even the one at 00:00. 96.8 degF = 36 degC
        XCTAssertEqual(t[2].start, ts("2026-04-01 00:00:00 -0600"))
        XCTAssertEqual(t[2].canonicalValue ?? 0, 36, accuracy: 1e-9)
        XCTAssertEqual(t[3].start, ts("2026-04-02 01:00:00 -0600"))
    }

    func testUnknownMetricPassesThroughAndIsCounted() throws {
        let (sink, report) = try HAEFixtures.read(path)
        let s = try XCTUnwrap(sink.samples(ofType: "hae:stair_speed_up").first)
        XCTAssertNil(s.metric)
        XCTAssertEqual(s.value, 1.5)
        XCTAssertNil(s.canonicalValue)
        XCTAssertEqual(s.unit, "ft/s")
        // Kept for the store on purpose: counted apart, not as a skip (docs/hae.md).
        XCTAssertEqual(report.storeOnly, ["hae:stair_speed_up": 1])
        XCTAssertNil(report.skips["HAE metric not in catalog (kept as hae:stair_speed_up)"])
    }

    func testUnknownUnitKeepsSampleWithoutCanonicalValue() throws {
        let (sink, report) = try HAEFixtures.read(path)
        let s = try XCTUnwrap(sink.samples(field: "basal_calories").first)
        XCTAssertEqual(s.value, 5000)
        XCTAssertNil(s.canonicalValue)
        XCTAssertEqual(report.skips["unknown unit 'Btu' for HAE metric basal_energy_burned"], 1)
    }

    func testDetailsOffCarriesNoMetadata() throws {
        let (sink, _) = try HAEFixtures.read(path)
        XCTAssertTrue(sink.samples.allSatisfy { $0.metadata.isEmpty })
        let (detailed, _) = try HAEFixtures.read(path, details: true)
        // with details, the shifted wrist temperature keeps HAE's own date
        let t = detailed.samples(field: "apple_sleeping_wrist_temperature")[0]
        XCTAssertEqual(t.metadata, [MetadataEntry(key: "HAEDate", value: "2026-03-29T00:00:00-06:00")])
    }

    func testProgressEndsAtTheFileSize() throws {
        var reader = HAEReader(path: path)
        var calls: [(Int64, Int64?)] = []
        reader.progress = { calls.append(($0, $1)) }
        let report = try reader.read(into: CollectingSink(details: false))
        XCTAssertEqual(calls.last?.0, report.bytesRead)
        XCTAssertEqual(calls.last?.1, report.bytesRead)
    }
}
