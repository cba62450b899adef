import Foundation
import XCTest
import ExportParser

/// Not a timed test: a measurement, run only when asked, e.g.
///
///     HEALTH_IMPORT_STORE_BENCH=2200000 swift test -c release -Xswiftc -enable-testing --filter StoreThroughput
///
/// Feeds that many export-shaped samples (device strings, versions, creation dates, a time zone
/// entry on some) through a store session from the test thread, as a reader would, and prints
/// rows/s for feeding + complete (commit and index builds included) and the peak RSS.
final class StoreThroughputTests: XCTestCase {
    func testStoreThroughput() throws {
        guard let n = ProcessInfo.processInfo.environment["HEALTH_IMPORT_STORE_BENCH"].flatMap({ Int($0) }) else {
            throw XCTSkip("set HEALTH_IMPORT_STORE_BENCH=ROWS to measure")
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("store-bench-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // HEALTH_IMPORT_STORE_BENCH_PATH keeps the store for a look with sqlite3 (must not exist).
        let path = ProcessInfo.processInfo.environment["HEALTH_IMPORT_STORE_BENCH_PATH"] ?? dir.appendingPathComponent("bench.sqlite").path

        let types: [(String, String, Double)] = [
            ("HKQuantityTypeIdentifierHeartRate", "count/min", 72),
            ("HKQuantityTypeIdentifierActiveEnergyBurned", "kcal", 0.42),
            ("HKQuantityTypeIdentifierBasalEnergyBurned", "kcal", 1.1),
            ("HKQuantityTypeIdentifierStepCount", "count", 120),
            ("HKQuantityTypeIdentifierDistanceWalkingRunning", "km", 0.08),
        ]
        let start0: Int64 = 1_600_000_000
        func sample(_ i: Int) -> Sample {
            let (type, unit, base) = types[i % types.count]
            let t = Timestamp(seconds: start0 + Int64(i) * 60, offset: 3600)
            let v = base + Double(i % 97) / 10
            var s = Sample(type: type, metric: Catalog.metric(forType: type), source: i % 3 == 0 ? "Ann’s iPhone" : "Ann’s Apple Watch",
                           sourceVersion: "17.2.1",
                           device: "<<HKDevice: 0x28\(i % 100_000)>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, software:10.2>",
                           unit: unit, valueText: String(v), value: v, canonicalValue: v,
                           start: t, end: Timestamp(seconds: t.seconds + 30, offset: 3600), created: Timestamp(seconds: t.seconds + 90, offset: 3600))
            if i % 5 == 0 { s.metadata = [MetadataEntry(key: "HKMetadataKeyHeartRateMotionContext", value: "0")] }
            if i % 300 == 1 { s.beats = (0..<45).map { InstantaneousBeat(bpm: Double(60 + $0 % 20), time: "00:20:\($0 % 60),00") } }
            return s
        }

        // A pool of distinct records; the loop only moves their times, so the feeding thread
        // costs about what a reader handing over decoded samples costs.
        let pool = (0..<4096).map(sample)
        let store = try HealthStore(path: path)
        let began = Date()
        let session = try store.beginImport(ImportMetadata(person: "me", fileName: "bench.xml", sha256: "bench", format: .appleXML,
                                                           toolVersion: "bench", startedAt: Date()))
        for i in 0..<n {
            var s = pool[i & 4095]
            let t = start0 + Int64(i) * 60
            s.start.seconds = t
            s.end.seconds = t + 30
            s.created?.seconds = t + 90
            session.sample(s)
        }
        let fed = Date()
        let result = try session.complete(days: [], report: ReadReport())
        let done = Date()
        let total = done.timeIntervalSince(began)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        print(String(format: "store bench: %d samples, fed in %.2f s, complete in %.2f s, total %.2f s = %.0f rows/s; writer busy %.2f s = %.0f rows/s, CPU %.2f s; db %.0f MB; peak RSS %@",
                     n, fed.timeIntervalSince(began), done.timeIntervalSince(fed), total, Double(n) / total,
                     result.writerSeconds, Double(n) / result.writerSeconds, result.writerCPUSeconds, Double(size) / 1e6, Self.peakRSS()))
        XCTAssertEqual(result.samplesAdded, n)
    }

    static func peakRSS() -> String {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return "?" }
        return s.split(separator: "\n").first { $0.hasPrefix("VmHWM") }.map { $0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces) } ?? "?"
    }
}
