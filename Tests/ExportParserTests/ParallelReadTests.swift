import Foundation
import XCTest

@testable import ExportParser

/// The parallel read of export.xml (`--threads N`) against the sequential one: the same
/// payloads, CSV and store rows byte for byte, the same skip locations and the same errors
/// (file, line, column), wherever the chunk cuts fall.
final class ParallelReadTests: ParseThreadsTestCase {
    /// (threads, bytes per chunk): the sequential read first, then the default chunk, then
    /// chunks so small that a cut is tried after nearly every line.
    static let settings = [(1, ParseThreads.defaultChunkBytes), (2, ParseThreads.defaultChunkBytes), (2, 4096), (3, 64)]

    /// What a user can see of `convert INPUT --store`: every file written and every store row,
    /// the import's start and end times (`…Z`, the only UTC stamps) masked; or the error.
    private func converted(_ input: URL, threads: Int, chunkBytes: Int) throws -> [String: Data] {
        ParseThreads.count = threads
        ParseThreads.chunkBytes = chunkBytes
        let out = try TestPaths.temporaryDirectory("parallel-out")
        defer { try? FileManager.default.removeItem(at: out) }
        do {
            _ = try ConvertJob(
                ConvertRequest(inputs: [input.path], outDir: out.path, storePath: out.appendingPathComponent("health.sqlite").path)
            ).run()
        } catch {
            return ["error": Data("\(error)".utf8)]
        }
        var snapshot = try ToolRun.snapshot(out)
        let stamp = try NSRegularExpression(pattern: "'[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z'")
        // The store keeps a day's sum at full precision, and its last digits already vary from
        // run to run of the sequential read (the baseline binary too: 1906.99995219885227 or
        // …85250 kcal on the sedentary fixture's 2026-03-03), so store reals are compared to
        // nine decimals; payloads and CSV byte for byte.
        let real = try NSRegularExpression(pattern: "([0-9]+\\.[0-9]{9})[0-9]+")
        for (name, data) in snapshot where name.hasSuffix("(rows)") {
            var text = String(decoding: data, as: UTF8.self)
            text = stamp.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "'(time)'")
            text = real.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1")
            snapshot[name] = Data(text.utf8)
        }
        return snapshot
    }

    private func assertSameForEveryThreadCount(_ input: URL, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (t, c) = Self.settings[0]
        let sequential = try converted(input, threads: t, chunkBytes: c)
        XCTAssertFalse(sequential.isEmpty, label, file: file, line: line)
        for (threads, chunk) in Self.settings.dropFirst() {
            let parallel = try converted(input, threads: threads, chunkBytes: chunk)
            ToolRun.assertUnchanged(sequential, parallel, "\(label), --threads \(threads), \(chunk)-byte chunks", file: file, line: line)
        }
    }

    func testEveryFixtureProfileConvertsTheSameWithAnyThreadCount() throws {
        for profile in ["runner", "sedentary", "shift-worker", "traveller"] {
            let dir = try FixtureCheck.make(days: 4, seed: 3, profile: profile, name: "parallel-\(profile)")
            defer { try? FileManager.default.removeItem(at: dir) }
            try assertSameForEveryThreadCount(dir.appendingPathComponent("export.xml"), "\(profile) export.xml")
            try assertSameForEveryThreadCount(dir.appendingPathComponent("export.zip"), "\(profile) export.zip")
            // And what the generator planned (so the sequential side is right, not just equal).
            ParseThreads.count = 3
            ParseThreads.chunkBytes = 64
            try FixtureCheck.assertConvertReproducesExpected(dir, input: "export.xml", "\(profile), 3 threads")
        }
    }

    func testEveryPublicSampleConvertsTheSameWithAnyThreadCount() throws {
        try TestPaths.requirePublicSamples()
        let files = FileManager.default.enumerator(at: TestPaths.publicExports, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { ["xml", "zip"].contains($0.pathExtension) }
            .filter { (try? InputDetector.detect(path: $0.path)).map { $0 != .hae } ?? false }
        XCTAssertGreaterThan(files.count, 5)
        for url in files.sorted(by: { $0.path < $1.path }) {
            try assertSameForEveryThreadCount(url, url.path.replacingOccurrences(of: TestPaths.publicExports.path, with: ""))
        }
    }

    // MARK: - Hand-written exports

    private static let head = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!ELEMENT HealthData (Record*)>
        ]>
        <HealthData locale="en_US">

        """

    private static func steps(_ value: Int, _ hour: Int) -> String {
        let h = hour < 10 ? "0\(hour)" : "\(hour)"
        return
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" startDate=\"2024-05-01 \(h):00:00 +0200\" endDate=\"2024-05-01 \(h):10:00 +0200\" value=\"\(value)\"/>\n"
    }

    /// Reads `xml` with `threads` workers and `chunk`-byte chunks; the sink and report, or the error.
    private func read(_ xml: String, threads: Int, chunk: Int) -> (CollectingSink, Result<ReadReport, Error>) {
        let sink = CollectingSink()
        let result = Result {
            try AppleExportReader.read(data: Data(xml.utf8), name: "t.xml", into: sink, threads: threads, chunkBytes: chunk)
        }
        return (sink, result)
    }

    /// A record with an unreadable startDate on line 9 is skipped with its line and column in
    /// the file, whichever chunk it falls into.
    func testSkipLocationsAreLinesOfTheFileInEveryChunk() throws {
        // Lines: 1 <?xml, 2-4 DOCTYPE, 5 <HealthData>, 6-8 three records, 9 the bad one, 10 one
        // more, 11 </HealthData>. The bad record's tag (150 characters) starts at column 2, after
        // one space; libxml2 reports an empty element's position once it has read the
        // attributes, at the `/` of its `/>`: column 1 + 149 = 150 = the tag's length.
        let bad =
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" startDate=\"yesterday\" endDate=\"2024-05-01 09:10:00 +0200\" value=\"7\"/>\n"
        let xml = Self.head + Self.steps(100, 6) + Self.steps(200, 7) + Self.steps(300, 8) + bad + Self.steps(400, 10) + "</HealthData>\n"
        let column = bad.utf8.count - 2  // the tag without its space and line feed
        XCTAssertEqual(column, 150)
        for (threads, chunk) in Self.settings {
            let (sink, result) = read(xml, threads: threads, chunk: chunk)
            let report = try result.get()
            XCTAssertEqual(sink.samples.map(\.value), [100, 200, 300, 400], "threads \(threads), chunk \(chunk)")
            let locations = report.skipExamples.values.flatMap { $0 }.map(\.description)
            XCTAssertEqual(locations, [InputLocation(line: 9, column: column).description], "threads \(threads), chunk \(chunk)")
        }
    }

    /// A cut is the last element boundary in the bytes held, so what moves into the next chunk's
    /// buffer is at most one record line, not the half a read that a cut at the first boundary
    /// after `chunkBytes` moved.
    ///
    /// 300 records of one length L (three-digit values, two-digit hours), fed 4,096 bytes at a
    /// time into 8,192-byte chunks: a cut happens when the held bytes reach 8,192 (two feeds, the
    /// carried bytes and one more), at the last line that starts an element whole in them, so each
    /// carries at most L + 2 bytes: a whole record, and the next line's space and `<` when the held
    /// bytes end there (that line's start is not yet whole). A cut after 8,192 would carry 4,096 − ε
    /// on average: 20,129 bytes over this input's 6 cuts, against 610 now.
    func testACutCarriesOnlyTheElementNotYetWhole() throws {
        let lines = (0..<300).map { Self.steps(100 + $0, $0 % 24) }
        let length = lines[0].utf8.count
        XCTAssertEqual(Set(lines.map(\.utf8.count)), [length])
        let bytes = Array(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n" + lines.joined() + "</HealthData>\n").utf8)
        let sink = CollectingSink()
        let driver = ParallelSAXDriver(file: "t.xml", handler: ExportElementHandler(sink: sink), workers: 2, chunkBytes: 8192)
        var at = 0
        while at < bytes.count {
            let end = min(at + 4096, bytes.count)
            try bytes[at..<end].withUnsafeBytes { try driver.feed($0) }
            at = end
        }
        try driver.finish()
        XCTAssertEqual(sink.samples.map(\.value), (0..<300).map { Double(100 + $0) })
        // 51,081 bytes in chunks of about 8 kB.
        XCTAssertGreaterThanOrEqual(driver.cuts, bytes.count / 8192 - 1)
        XCTAssertGreaterThan(driver.carriedBytes, 0)
        XCTAssertLessThanOrEqual(driver.carriedBytes, driver.cuts * (length + 2))
    }

    /// A comment, and a nested element indented like a top-level one, on lines that look like
    /// top-level elements (`\n <Record`): a cut there fails its proof, and the rest is read by
    /// one parser. Neither the commented-out record nor the nested one (inside `<Other>`) is a
    /// sample: 100, 400 and 5 steps, as read sequentially.
    func testLinesThatOnlyLookLikeElementsAreNotCuts() throws {
        let xml =
            Self.head + Self.steps(100, 6) + " <!-- an old one:\n" + Self.steps(999, 7) + " -->\n"
            + " <Other>\n" + Self.steps(998, 7) + " </Other>\n" + Self.steps(400, 8)
            + Self.steps(5, 9) + "</HealthData>\n"
        for (threads, chunk) in Self.settings + [(2, 16), (2, 100), (2, 300)] {
            let (sink, result) = read(xml, threads: threads, chunk: chunk)
            XCTAssertNoThrow(try result.get())
            XCTAssertEqual(sink.samples.map(\.value), [100, 400, 5], "threads \(threads), chunk \(chunk)")
        }
    }

    /// A mismatched end tag on line 9, deep in the file: the same error (file, line, column,
    /// sentence) as the sequential read.
    func testAnErrorInALateChunkIsReportedAsSequentially() throws {
        let broken =
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" startDate=\"2024-05-01 09:00:00 +0200\" endDate=\"2024-05-01 09:10:00 +0200\" value=\"7\"></Workout>\n"
        let xml =
            Self.head + Self.steps(100, 6) + Self.steps(200, 7) + Self.steps(300, 8) + broken + Self.steps(400, 10) + "</HealthData>\n"
        var errors: [String] = []
        for (threads, chunk) in Self.settings {
            let (_, result) = read(xml, threads: threads, chunk: chunk)
            XCTAssertThrowsError(try result.get()) { errors.append("\($0)") }
        }
        XCTAssertEqual(Set(errors).count, 1, errors.joined(separator: "\n"))
        XCTAssertTrue(errors[0].contains("t.xml: line 9") && errors[0].contains("Record line 9 and Workout"), errors[0])
    }

    /// A file cut off in the middle of line 8's record: the sequential sentence ("the file ends
    /// before the document does") at the same place, from every setting.
    func testATruncatedFileIsReportedAsSequentially() throws {
        let whole = Self.head + Self.steps(100, 6) + Self.steps(200, 7) + Self.steps(300, 8)
        let xml = String(whole.dropLast(40))
        var errors: [String] = []
        for (threads, chunk) in Self.settings {
            let (_, result) = read(xml, threads: threads, chunk: chunk)
            XCTAssertThrowsError(try result.get()) { errors.append("\($0)") }
        }
        XCTAssertEqual(Set(errors).count, 1, errors.joined(separator: "\n"))
        XCTAssertTrue(errors[0].contains("line 8") && errors[0].contains("truncated"), errors[0])
    }

    /// A NUL byte 40 lines after a malformed line 7, the file read 256 bytes at a time: the XML
    /// error comes first in the file, so it wins, as in the sequential read; a NUL in a
    /// well-formed file is reported with its byte offset.
    func testTheFirstErrorInFileOrderWins() throws {
        let broken = " <Record value=\"1\"></Workout>\n"
        let xml = Self.head + Self.steps(100, 6) + broken + String(repeating: Self.steps(1, 8), count: 40) + "\u{0}" + "</HealthData>\n"
        let dir = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("export.xml")
        try Data(xml.utf8).write(to: url)
        var errors: [String] = []
        for (threads, chunk) in Self.settings {
            var reader = AppleExportReader(path: url.path)
            reader.chunkSize = 256
            reader.threads = threads
            reader.parallelChunkBytes = chunk
            XCTAssertThrowsError(try reader.read(into: CollectingSink())) { errors.append("\($0)") }
        }
        XCTAssertEqual(Set(errors).count, 1, errors.joined(separator: "\n"))
        XCTAssertTrue(errors[0].contains("line 7"), errors[0])

        let nul = Self.head + String(repeating: Self.steps(1, 8), count: 40) + "\u{0}" + "</HealthData>\n"
        let offset = nul.utf8.count - "\u{0}</HealthData>\n".utf8.count
        for (threads, chunk) in Self.settings {
            let (_, result) = read(nul, threads: threads, chunk: chunk)
            XCTAssertThrowsError(try result.get()) {
                XCTAssertTrue("\($0)".contains("NUL") && "\($0)".contains("\(offset)"), "threads \(threads), chunk \(chunk): \($0)")
            }
        }
    }

    /// A document declared ISO-8859-1 is read by one parser that honours the declaration: the
    /// source name's bytes C3 A9 are the two characters "Ã©" in Latin-1 (they would be one "é"
    /// to a chunk's parser, which reads UTF-8).
    func testADocumentInAnotherEncodingIsReadAsDeclared() throws {
        var bytes = Array(Self.head.replacingOccurrences(of: "UTF-8", with: "ISO-8859-1").utf8)
        for hour in 6...9 { bytes += Array(Self.steps(hour, hour).utf8) }
        bytes += Array(Self.steps(10, 10).replacingOccurrences(of: "Phone", with: "Caf\u{E9}").utf8)  // é as UTF-8: C3 A9
        bytes += Array("</HealthData>\n".utf8)
        for (threads, chunk) in Self.settings {
            let sink = CollectingSink()
            try AppleExportReader.read(data: Data(bytes), name: "t.xml", into: sink, threads: threads, chunkBytes: chunk)
            XCTAssertEqual(sink.samples.last?.source, "Caf\u{C3}\u{A9}", "threads \(threads), chunk \(chunk)")
            XCTAssertEqual(sink.samples.count, 5)
        }
        XCTAssertTrue(ParallelSAXDriver.declaresUTF8(Array("<?xml version=\"1.0\" encoding='utf-8'?>".utf8)))
        XCTAssertTrue(ParallelSAXDriver.declaresUTF8(Array("<?xml version=\"1.0\"?>".utf8)))
        XCTAssertFalse(ParallelSAXDriver.declaresUTF8(Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>".utf8)))
    }
}
