import XCTest

@testable import ExportParser

/// The reader's byte-level helpers against their slow, obvious equivalents.
final class HAEReaderInternalsTests: XCTestCase {
    private func lookup(_ s: String) -> HAEKey {
        var s = s
        return s.withUTF8 { HAEKey.lookup($0.baseAddress!, $0.count) }
    }

    func testKeyLookup() {
        let expected: [String: HAEKey] = [
            "data": .data, "metrics": .metrics, "workouts": .workouts, "name": .name, "units": .units, "date": .date,
            "startDate": .startDate, "endDate": .endDate, "qty": .qty, "Min": .min, "min": .min, "Avg": .avg, "avg": .avg,
            "Max": .max, "max": .max, "source": .source, "value": .value, "asleep": .asleep, "core": .core, "deep": .deep,
            "rem": .rem, "awake": .awake, "inBed": .inBed, "totalSleep": .totalSleep, "sleepStart": .sleepStart,
            "sleepEnd": .sleepEnd, "inBedStart": .inBedStart, "inBedEnd": .inBedEnd, "sleepSource": .sleepSource,
            "inBedSource": .inBedSource, "id": .id, "start": .start, "end": .end, "duration": .duration,
            "activeEnergyBurned": .activeEnergyBurned, "activeEnergy": .activeEnergy, "totalEnergy": .totalEnergy,
            "distance": .distance, "avgHeartRate": .avgHeartRate, "maxHeartRate": .maxHeartRate, "heartRate": .heartRate,
            "heartRateData": .heartRateData, "elevation": .elevation, "ascent": .ascent, "descent": .descent,
            "metadata": .metadata, "route": .route,
        ]
        for (s, k) in expected { XCTAssertEqual(lookup(s), k, s) }
        for s in ["", "MIN", "qtyy", "dat", "Date", "source ", "heartRateRecovery", "x", String(repeating: "a", count: 40)] {
            XCTAssertEqual(lookup(s), .unknown, s)
        }
    }

    func testDecimalParserMatchesStrtod() {
        var numbers = [
            "0", "-0", "34", "1.5", "0.066666666666666666", "61.999999999999993", "125.00000000000001",
            "1e3", "-2.5E-7", "9007199254740993", "0.1", "123456789012345678901234", "1.0000000000000002",
            "97.51367874145501", "0.0000000000000000000000001", "57.189999999999998", "0.066666666666666666",
            "9999999999999999999", "18446744073709551615", "18446744073709551616", "0.10000000000000000555",
        ]
        var g = SeededRandom(defaultSeed: 20_000)
        for _ in 0..<20_000 {
            let v = Double.random(in: -1e6...1e6, using: &g)
            numbers.append("\(v)")
            numbers.append(String(format: "%.\(Int.random(in: 0...17, using: &g))f", v))
            // iOS writes 17 significant digits: 57.189999999999998
            numbers.append(String(format: "%.17g", Double.random(in: 0...300, using: &g)))
            numbers.append(String(format: "%.19g", Double.random(in: 0...1, using: &g)))
        }
        for s in numbers {
            var t = s
            let fast = t.withUTF8 { HAEDecimalParser.parse($0.baseAddress!, $0.count) }
            XCTAssertEqual(fast, Double(s), "\(s) \(g.replay)")
            if fast != Double(s) { return }
        }
    }

    func testShapeConversionMatchesCatalogConvert() {
        for m in Catalog.metrics {
            var units = [m.unit.rawValue, "%", "percent", "nonsense"]
            units += (CanonicalUnit.table[m.unit] ?? [:]).keys
            for u in units {
                let shape = HAEMetricShape(name: m.haeNames[0], units: u, path: "")
                for v in [0.0, 1.0, 97.5, -40, 1234.5678] {
                    XCTAssertEqual(shape.canonical(v), m.unit.convert(v, from: u, percentScale: .whole), "\(m.field) \(u) \(v)")
                }
            }
        }
    }

    func testSleepStageSpellings() {
        func stage(_ s: String) -> HAESleepStage {
            var s = s
            return s.withUTF8 { HAESleepStage.parse($0.baseAddress!, $0.count) }
        }
        XCTAssertEqual(stage("In Bed"), .inBed)
        XCTAssertEqual(stage("InBed"), .inBed)
        XCTAssertEqual(stage("REM"), .rem)
        XCTAssertEqual(stage("Asleep"), .unspecified)
        XCTAssertEqual(stage("Unspecified"), .unspecified)
        XCTAssertEqual(stage("Napping"), .unknown)
    }

    func testWristTemperatureShiftOnlyAtLocalMidnight() {
        XCTAssertEqual(HAEDatumMapper.wristTemperatureInstant(ts("2026-03-29 00:00:00 -0600")), ts("2026-03-30 00:00:00 -0600"))
        XCTAssertEqual(HAEDatumMapper.wristTemperatureInstant(ts("2026-03-29 00:00:00 +0530")), ts("2026-03-30 00:00:00 +0530"))
        XCTAssertNil(HAEDatumMapper.wristTemperatureInstant(ts("2026-03-29 02:00:00 -0600")))
    }
}
