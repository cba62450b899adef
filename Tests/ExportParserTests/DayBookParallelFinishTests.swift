import Foundation
import XCTest

@testable import ExportParser
@testable import HealthFixtures

/// `DayBook.finish` resolves the sum rule's dates and the nights on threads of their own
/// (`FinishingWork`) while it makes the other rules' days: the days must be those of a finish on
/// one thread, bit for bit, on every fixture profile, from both readers, and on hand-worked sums
/// and nights.
final class DayBookParallelFinishTests: XCTestCase {
    /// Every day as the writers see it (payload bytes and CSV row) and its values' bit patterns.
    private func rendered(_ days: [FinishedDay]) -> [String] {
        days.map { d in
            let bits = d.values.map { $0.map { String($0.bitPattern, radix: 16) } ?? "-" }.joined(separator: ",")
            return String(decoding: PayloadEncoder.payload(d).bytes(), as: UTF8.self) + "\n" + CSVWriter.row(d) + "\n" + bits
        }
    }

    /// Reads `path` twice, into two day books, and finishes one in parallel, one sequentially;
    /// with `nightsBesideDays`, the parallel one takes its nights after making the other days
    /// (`DayOptions.nightsBesideDays`, compare's window read).
    private func assertSameDays(
        _ path: String, _ label: String, nightsBesideDays: Bool = false, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        func read(_ book: DayBook) throws {
            if path.hasSuffix(".json") {
                _ = try HAEReader(path: path).read(into: book)
            } else {
                _ = try AppleExportReader(path: path).read(into: book)
            }
        }
        var beside = DayOptions()
        beside.nightsBesideDays = nightsBesideDays
        let one = DayBook(options: beside), two = DayBook()
        try read(one)
        try read(two)
        let parallel = one.finish(parallel: true), sequential = two.finish(parallel: false)
        XCTAssertFalse(sequential.isEmpty, "\(label): no days", file: file, line: line)
        XCTAssertEqual(parallel.map(\.date), sequential.map(\.date), "\(label): dates", file: file, line: line)
        let a = rendered(parallel), b = rendered(sequential)
        for (x, y) in zip(a, b) where x != y {
            XCTFail("\(label): a day differs:\n\(x)\n---\n\(y)", file: file, line: line)
            return
        }
        XCTAssertEqual(one.lateSumPieces, two.lateSumPieces, label, file: file, line: line)
    }

    func testEveryProfileGivesTheSameDaysFromBothReaders() throws {
        for profile in ["runner", "sedentary", "shift-worker", "traveller"] {
            let dir = try FixtureCheck.make(days: 10, seed: 3, profile: profile, haeStyle: "samples", name: "parallel-finish-\(profile)")
            try assertSameDays(dir.appendingPathComponent("export.xml").path, "\(profile) export.xml", nightsBesideDays: true)
            try assertSameDays(dir.appendingPathComponent("hae.json").path, "\(profile) hae.json")
        }
    }

    func testTheTimelineDatedPathGivesTheSameDays() throws {
        // Own offsets on the records and no --timezone: samples near midnight wait in fringe slots
        // (resolved on the finishing thread) while the dated sums resolve on the other.
        let dir = try FixtureCheck.make(
            days: 6, start: "2026-03-10", seed: 6, profile: "traveller", exportOffsets: "sample", name: "parallel-finish-offsets")
        try assertSameDays(dir.appendingPathComponent("export.xml").path, "traveller, own offsets")
    }

    func testHandWorkedSumsAndNightsAreTheSameBothWays() throws {
        // Steps 250 on 03-02 and 170 on 03-03, heart rate 70 and 80 on 03-03 (average 75), by
        // hand: `handWorkedStepsAndHeartRate`. Sleep (resolved on the nights' thread): core
        // 23:00–03:00 and deep 03:00–04:00, waking on 03-03 → that date's night: core 4 h + deep
        // 1 h = 5 h asleep.
        let watch = "Ann’s Apple Watch"
        let xml = export(
            handWorkedStepsAndHeartRate()
                + record(
                    "HKCategoryTypeIdentifierSleepAnalysis", "HKCategoryValueSleepAnalysisAsleepCore", source: watch,
                    start: "2024-03-02 23:00:00 +0100", end: "2024-03-03 03:00:00 +0100")
                + record(
                    "HKCategoryTypeIdentifierSleepAnalysis", "HKCategoryValueSleepAnalysisAsleepDeep", source: watch,
                    start: "2024-03-03 03:00:00 +0100", end: "2024-03-03 04:00:00 +0100"))
        for parallel in [true, false] {
            let book = DayBook(options: try DayOptions(timeZoneName: "Europe/Paris"))
            _ = try AppleExportReader.read(data: Data(xml.utf8), name: "steps.xml", into: book)
            let days = Dictionary(uniqueKeysWithValues: book.finish(parallel: parallel).map { ($0.date, $0) })
            XCTAssertEqual(days.keys.sorted(), ["2024-03-02", "2024-03-03"], "parallel \(parallel)")
            XCTAssertEqual(days["2024-03-02"]?.value("step_count") ?? 0, 250, accuracy: 1e-9, "parallel \(parallel)")
            XCTAssertEqual(days["2024-03-03"]?.value("step_count") ?? 0, 170, accuracy: 1e-9, "parallel \(parallel)")
            XCTAssertEqual(days["2024-03-03"]?.heartRate, MinMaxAvgSummary(average: 75, minimum: 70, maximum: 80, count: 2))
            let sleep = try XCTUnwrap(days["2024-03-03"]?.sleep, "parallel \(parallel)")
            XCTAssertEqual(sleep.totalHours, 5, accuracy: 1e-9)
            XCTAssertEqual(sleep.coreHours ?? 0, 4, accuracy: 1e-9)
            XCTAssertEqual(sleep.deepHours ?? 0, 1, accuracy: 1e-9)
            XCTAssertNil(days["2024-03-02"]?.sleep)
        }
    }

    func testABookWithoutSumsFinishesInParallel() throws {
        // No sum-rule sample at all: the second thread resolves nothing and the days still come.
        // Heart rate 60 and 90 on 03-02 → average 75.
        let xml = export(
            record("HKQuantityTypeIdentifierHeartRate", "60", unit: "count/min", start: "2024-03-02 08:00:00 +0100")
                + record("HKQuantityTypeIdentifierHeartRate", "90", unit: "count/min", start: "2024-03-02 09:00:00 +0100"))
        let book = DayBook(options: try DayOptions(timeZoneName: "Europe/Paris"))
        _ = try AppleExportReader.read(data: Data(xml.utf8), name: "hr.xml", into: book)
        let days = book.finish(parallel: true)
        XCTAssertEqual(days.map(\.date), ["2024-03-02"])
        XCTAssertEqual(days.first?.heartRate?.average, 75)
        XCTAssertNil(days.first?.value("step_count"))
    }
}
