import Foundation
import XCTest

@testable import ExportParser

/// The parallel read takes export.xml's bytes straight into its chunk buffers
/// (`ParallelSAXDriver.feed(reading:upTo:filter:)`) and tests their control bytes there; the
/// window read tests only the bytes its workers keep. What is read, counted and reported is a
/// sequential read's, wherever the reads and the chunk cuts fall.
final class ReadIntoChunkTests: ParseThreadsTestCase {
    /// (threads, chunk bytes, read size): the sequential read first; then reads smaller than a
    /// chunk, larger than one, and reads that end inside nearly every line.
    static let settings = [(1, 4096, 256), (2, 4096, 256), (2, 64, 4096), (3, 512, 37)]

    private static func steps(_ value: Int, day: Int, source: String = "Phone") -> String {
        let d = day < 10 ? "0\(day)" : "\(day)"
        return record(
            "HKQuantityTypeIdentifierStepCount", "\(value)", unit: "count", source: source, start: "2024-05-\(d) 09:00:00 +0200",
            end: "2024-05-\(d) 09:10:00 +0200")
    }

    private func write(_ xml: String) throws -> URL {
        let url = try TestPaths.temporaryDirectory("read-into-chunk").appendingPathComponent("export.xml")
        try Data(xml.utf8).write(to: url)
        return url
    }

    private func read(_ url: URL, _ setting: (Int, Int, Int), window: ExportWindow? = nil) -> (CollectingSink, Result<ReadReport, Error>) {
        var reader = AppleExportReader(path: url.path)
        reader.threads = setting.0
        reader.parallelChunkBytes = setting.1
        reader.chunkSize = setting.2
        reader.window = window
        let sink = CollectingSink()
        return (sink, Result { try reader.read(into: sink) })
    }

    /// 60 records, one a day from 2024-05-01 (days 1–30 of May, then again): those of days 7, 20
    /// and 29 name their source "Ph\u{0B}one", three vertical tabs in all. Every setting reads 60
    /// samples, all from "Phone" (the tab removed), and counts 3 control characters.
    func testControlBytesReadIntoTheChunkAreRemovedAndCounted() throws {
        var body = ""
        for i in 0..<60 {
            let day = i % 30 + 1
            body += Self.steps(i + 1, day: day, source: i < 30 && [7, 20, 29].contains(day) ? "Ph\u{0B}one" : "Phone")
        }
        let url = try write(export(body))
        for setting in Self.settings {
            let (sink, result) = read(url, setting)
            let report = try result.get()
            XCTAssertEqual(report.controlCharactersDropped, 3, "\(setting)")
            XCTAssertEqual(sink.samples.count, 60, "\(setting)")
            XCTAssertEqual(Set(sink.samples.map(\.source)), ["Phone"], "\(setting)")
            // 1 + 2 + … + 60 = 1830 steps.
            XCTAssertEqual(sink.samples.reduce(0) { $0 + ($1.value ?? 0) }, 1830, "\(setting)")
        }
    }

    /// A NUL after 40 records: the same sentence and byte offset from every setting, whichever
    /// read and chunk it falls into; the offset is the export's length before "\0</HealthData>".
    func testANulReadIntoTheChunkIsReportedAtItsOffset() throws {
        let body = (1...40).map { Self.steps($0, day: $0 % 28 + 1) }.joined()
        let xml = export(body + "\u{0}")
        let offset = xml.utf8.count - "\u{0}\n</HealthData>".utf8.count
        let url = try write(xml)
        var errors: Set<String> = []
        for setting in Self.settings {
            let (_, result) = read(url, setting)
            XCTAssertThrowsError(try result.get()) { errors.insert("\($0)") }
        }
        XCTAssertEqual(errors.count, 1, errors.joined(separator: "\n"))
        let error = try XCTUnwrap(errors.first)
        XCTAssertTrue(error.contains("NUL") && error.contains("\(offset)"), error)
    }

    /// The window of 2024-05-10 (2024-05-08 00:00 to 2024-05-13 00:00 UTC) keeps the records of
    /// days 8–12 (09:00 +0200 = 07:00 UTC): 5 records. Of the tabs on days 2, 10 and 25 only day
    /// 10's is in a kept record, so the window read counts 1, the full read 3; both explain the
    /// date alike.
    func testTheWindowReadTestsOnlyTheBytesItKeeps() throws {
        let tabbed: Set = [2, 10, 25]
        let body = (1...28).map { Self.steps($0, day: $0, source: tabbed.contains($0) ? "Ph\u{0B}one" : "Phone") }.joined()
        let url = try write(export(body))
        let day = try XCTUnwrap(CivilDate.parseISODate("2024-05-10"))
        for setting in Self.settings.dropFirst() {
            let (sink, result) = read(url, setting, window: ExportWindow(days: day...day))
            XCTAssertEqual(try result.get().controlCharactersDropped, 1, "\(setting)")
            XCTAssertEqual(sink.samples.compactMap(\.value), [8, 9, 10, 11, 12], "\(setting)")
            XCTAssertEqual(Set(sink.samples.map(\.source)), ["Phone"], "\(setting)")
            XCTAssertEqual(try read(url, setting).1.get().controlCharactersDropped, 3, "\(setting)")
        }
        ParseThreads.count = 2
        ParseThreads.chunkBytes = 512
        XCTAssertEqual(try explanation(url, "2024-05-10", window: true), try explanation(url, "2024-05-10", window: false))
    }

    /// A NUL in a record the window keeps (day 10) stops the window read; `explain` then reads in
    /// full and reports the full read's sentence. A NUL in a record it cuts (day 2) is never
    /// looked at: the date is explained (10 steps), where the full read stops.
    func testANulIsReportedWhereTheWindowReadKeepsIt() throws {
        func body(nulOn nulDay: Int) -> String {
            (1...28).map { Self.steps($0, day: $0, source: $0 == nulDay ? "Ph\u{0}one" : "Phone") }.joined()
        }
        ParseThreads.count = 2
        ParseThreads.chunkBytes = 512
        let kept = try write(export(body(nulOn: 10)))
        let windowed = try explanation(kept, "2024-05-10", window: true)
        XCTAssertTrue(windowed.contains("NUL"), windowed)
        XCTAssertEqual(windowed, try explanation(kept, "2024-05-10", window: false))

        let cut = try write(export(body(nulOn: 2)))
        XCTAssertTrue(try explanation(cut, "2024-05-10", window: false).contains("NUL"))
        let job = try ExplainJob(ExplainRequest(inputs: [cut.path], date: "2024-05-10", field: "metrics.step_count"))
        XCTAssertEqual(job.explain(job.field, in: try job.readDate()).number, 10)
    }

    /// `explain` of the step count as JSON, or the error it throws.
    private func explanation(_ url: URL, _ date: String, window: Bool) throws -> String {
        let job = try ExplainJob(ExplainRequest(inputs: [url.path], date: date, field: "metrics.step_count"))
        job.windowRead = window
        do {
            return ExplanationJSON.render(job.explain(job.field, in: try job.readDate()))
        } catch {
            return "error: \(error)"
        }
    }
}
