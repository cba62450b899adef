import Foundation
import XCTest

@testable import ExportParser

/// The fuzz targets' entry points (`FuzzEntry`, fuzz/README.md) on the fixtures, so that they
/// keep working between fuzzing runs, and what the fuzzers found, each as its input.
final class FuzzRegressionTests: XCTestCase {
    private func bytes(_ path: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The layout of a fuzz input: a count of cut offsets, the offsets, the body.
    func testSplitInputReadsTheCutsThenTheBody() {
        let input: [UInt8] = [2, 3, 0, 0x01, 0x01] + Array("<HealthData/>".utf8)
        input.withUnsafeBytes { raw in
            let (body, splits) = FuzzEntry.splitInput(raw)
            XCTAssertEqual(String(decoding: body, as: UTF8.self), "<HealthData/>")
            XCTAssertEqual(splits, [3, 257 % 13])
        }
        [UInt8]([7, 1]).withUnsafeBytes { raw in
            let (body, splits) = FuzzEntry.splitInput(raw)
            XCTAssertEqual(body.count, 0)
            XCTAssertEqual(splits, [])
        }
    }

    /// Every cut of a small export gives what the whole file gives (`readExportXML` checks it).
    func testExportReaderGivesTheSameResultWhereverTheInputIsCut() throws {
        let xml = try bytes(TestPaths.fixtures.appendingPathComponent("twins/same-days.xml").path)
        try xml.withUnsafeBytes { raw in
            for at in stride(from: 1, to: raw.count, by: 97) {
                FuzzEntry.readExportXML(raw, splitAt: [at / 2, at])
            }
            // And the reader really reads it: a cut copy gives the samples of the whole.
            let whole = CollectingSink(), cut = CollectingSink()
            _ = try AppleExportReader.read(data: Data(raw), name: "same-days.xml", into: whole)
            var session = ParseSession(file: "same-days.xml", sink: cut, input: InputDescription(path: "same-days.xml", format: .appleXML))
            for chunk in stride(from: 0, to: raw.count, by: 5) {
                try session.feed(UnsafeRawBufferPointer(rebasing: raw[chunk..<min(raw.count, chunk + 5)]))
            }
            _ = try session.finish()
            XCTAssertFalse(whole.samples.isEmpty)
            XCTAssertEqual(cut.samples.count, whole.samples.count)
        }
    }

    /// `HAEReader.splits` cuts yajl's chunks; the result does not change.
    func testHAEReaderGivesTheSameResultWhereverItsChunksAreCut() throws {
        let path = TestPaths.fixtures.appendingPathComponent("twins/same-days.hae.json").path
        let json = try bytes(path)
        let whole = CollectingSink()
        _ = try HAEReader(path: path).read(into: whole)
        XCTAssertFalse(whole.samples.isEmpty)
        for at in stride(from: 3, to: json.count, by: 61) {
            let cut = CollectingSink()
            var reader = HAEReader(path: path)
            reader.splits = [Int64(at), Int64(at + 1), Int64(at + 2)]
            _ = try reader.read(into: cut)
            XCTAssertEqual(cut.samples.count, whole.samples.count, "cut at \(at)")
            XCTAssertEqual(cut.sleepSummaries.count, whole.sleepSummaries.count, "cut at \(at)")
        }
        json.withUnsafeBytes { FuzzEntry.readHAE($0, splitAt: [1, 100, 1000]) }
    }

    func testZipTimestampAndNumberEntriesTakeTheirSeeds() throws {
        try bytes(TestPaths.samples.appendingPathComponent("export.zip").path).withUnsafeBytes { FuzzEntry.readZip($0) }
        for s in [
            "2024-03-05 08:00:00 +0100", "2024-03-05 8:00:00\u{202F}PM +0100", "2024-02-29 23:59:60 -1200", "9999-12-31 23:59:60 +0000",
            "garbage",
        ] {
            Array(s.utf8).withUnsafeBytes { FuzzEntry.parseTimestamp($0) }
        }
        for s in ["0", "-0", "1e999", "57.189999999999998", "9007199254740993", "123456789012345678901234", "4.9e-324", "+1", "nan"] {
            Array(s.utf8).withUnsafeBytes { FuzzEntry.parseNumber($0) }
        }
        XCTAssertTrue(Array("-0.5e+3".utf8).withUnsafeBytes { FuzzEntry.isJSONNumber($0) })
        XCTAssertFalse(Array("01".utf8).withUnsafeBytes { FuzzEntry.isJSONNumber($0) })
        XCTAssertFalse(Array("1.".utf8).withUnsafeBytes { FuzzEntry.isJSONNumber($0) })
    }

    // MARK: - Found by fuzzing

    /// fuzz export-xml, timeout: a StepCount record whose endDate is in the year 9019 was split
    /// at every midnight into 2.5 million day pieces (11 s and 1.5 GB for a 2 KB file). It is
    /// skipped and counted; a record of a year or less still counts.
    func testExportRecordLastingMillenniaIsSkippedNotSplitIntoEveryDay() throws {
        let xml = export(
            record(
                "HKQuantityTypeIdentifierStepCount", "800", unit: "count", start: "2024-03-03 10:00:00 +1100",
                end: "9019-03-03 10:20:00 +1100")
                + record(
                    "HKQuantityTypeIdentifierStepCount", "366", unit: "count", start: "2024-03-03 10:00:00 +1100",
                    end: "2025-03-03 10:00:00 +1100"))
        let book = DayBook()
        let started = Date()
        let report = try AppleExportReader.read(data: Data(xml.utf8), name: "long.xml", into: book)
        XCTAssertEqual(report.skips["record lasting more than a year (StepCount)"], 1)
        let days = book.finish()
        XCTAssertEqual(days.count, 366)  // the year-long record: one share a day
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }

    /// The same in HAE: a datum from 2026 to 9026 is skipped with its JSON path, not split.
    func testHAEDatumLastingMillenniaIsSkippedNotSplitIntoEveryDay() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("long.json").path
        let json = """
            {"data": {"metrics": [{"name": "step_count", "units": "count", "data": [
              {"startDate": "2026-03-30 07:10:00 -0600", "endDate": "9026-03-30 07:10:00 -0600", "qty": 500},
              {"startDate": "2026-03-30 07:10:00 -0600", "endDate": "2026-03-30 07:20:00 -0600", "qty": 50}
            ]}, {"name": "sleep_analysis", "units": "hr", "data": [
              {"startDate": "2026-03-30 01:00:00 -0600", "endDate": "9026-03-30 07:10:00 -0600", "value": "Core", "qty": 1}
            ]}]}}
            """
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        let book = DayBook()
        let report = try HAEReader(path: path).read(into: book)
        XCTAssertEqual(report.skips["HAE datum lasting more than a year"], 2)
        XCTAssertEqual(report.skipExamples["HAE datum lasting more than a year"]?.first?.path, "data.metrics[0].data[0].endDate")
        XCTAssertEqual(book.finish().count, 1)
    }

    /// fuzz hae (a debug-build trap): a metric whose datums overflow while its name is still to
    /// come is read again on the calling thread after the first pass, whose decoder thread had
    /// fed the day book; the book trapped ("a day book used from a thread that does not own
    /// it") because nobody handed it back. Now the reader does, after waiting for that thread.
    /// Metric 1 (name first): 10 steps on 03-04, from the decoder thread. Metric 2 (data before
    /// its name, 5 datums > pendingLimit 4): re-read; 1 + 1 + 1 + 1 + 1 = 5 steps on 03-05.
    func testReReadMetricFeedsTheDayBookFromTheCallingThread() throws {
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("late-name.json").path
        let late = (0..<5).map { i in
            #"{"startDate": "2024-03-05 10:0\#(i):00 +0100", "endDate": "2024-03-05 10:0\#(i):30 +0100", "qty": 1, "source": "iPhone"}"#
        }
        let json = """
            {"data": {"metrics": [
              {"name": "step_count", "units": "count", "data": [
                {"startDate": "2024-03-04 09:00:00 +0100", "endDate": "2024-03-04 09:10:00 +0100", "qty": 10, "source": "iPhone"}]},
              {"data": [\(late.joined(separator: ", "))], "name": "step_count", "units": "count"}
            ]}}
            """
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        let book = DayBook()
        _ = try HAEReader(path: path, pendingLimit: 4).read(into: book)
        let days = book.finish()
        XCTAssertEqual(days.map(\.date), ["2024-03-04", "2024-03-05"])
        XCTAssertEqual(days.map { $0.value("step_count") }, [10, 5])
        // The fuzzer's own input, as it found it.
        let found = TestPaths.fixtures.appendingPathComponent("fuzz/hae-crash-15bd418d.bin").path
        try bytes(found).withUnsafeBytes { raw in
            let (body, splits) = FuzzEntry.splitInput(raw)
            FuzzEntry.readHAE(body, splitAt: splits)
        }
    }

    /// fuzz export-xml (libxml2 output on stderr): an export declaring `encoding="EUC-JP"` whose
    /// bytes are not EUC-JP made libxml2 print "encoding error : input conversion failed…" and
    /// "I/O error : encoder error" lines on stderr besides the reader's one sentence.
    func testEncodingErrorPrintsNothingOnStderr() throws {
        let xml =
            Data(
                "<?xml version=\"1.0\" encoding=\"EUC-JP\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-03-05 08:00:00 +0100\"/>"
                    .utf8)
            + Data([0xFF, 0xFF, 0xFF]) + Data("\n</HealthData>\n".utf8)
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let captured = dir.appendingPathComponent("stderr").path
        let fd = open(captured, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        fflush(nil)
        let saved = dup(2)
        dup2(fd, 2)
        var thrown: Error?
        do { _ = try AppleExportReader.read(data: xml, name: "euc-jp.xml", into: DayBook()) } catch { thrown = error }
        fflush(nil)
        dup2(saved, 2)
        close(saved)
        close(fd)
        XCTAssertTrue(thrown is InputError, "\(String(describing: thrown))")
        XCTAssertEqual(try String(contentsOfFile: captured, encoding: .utf8), "")
    }
}
