import Foundation
import XCTest

@testable import ExportParser

/// The window read of export.xml maps the file (`MappedFile`) once the prolog is behind, and its
/// workers copy only what they keep (docs/export-xml.md, "The window read", "The map"). What it reads is
/// what the window read through `read` reads: every fixture profile, chunk cuts on a page's
/// edge, a file whose size is no multiple of a page, an error; and what cannot be mapped is read.
final class MappedWindowReadTests: ParseThreadsTestCase {
    /// Everything a window read hands its sink, as text, and the report's mapped bytes; or the
    /// error. Of the samples outside the window only the sleep and zone ones are kept whatever
    /// chunk they are in; a record kept as its watch source's first is each worker's first, which
    /// depends on the chunks a worker happened to get, so of those only the sources are compared.
    private func read(_ path: String, window: ExportWindow, maps: Bool, chunkBytes: Int, readSize: Int) -> (String, Int64) {
        var reader = AppleExportReader(path: path)
        reader.threads = 2
        reader.parallelChunkBytes = chunkBytes
        reader.chunkSize = readSize
        reader.window = window
        reader.mapsFile = maps
        let sink = CollectingSink()
        do {
            let report = try reader.read(into: sink)
            let inWindow = sink.samples.filter {
                $0.start.seconds < window.to && $0.end.seconds >= window.from || $0.type == Catalog.sleepType || $0.timeZoneName != nil
            }
            let watches = Set(sink.samples.filter(\.deviceIsWatch).map(\.source)).sorted()
            let text = [
                inWindow.map { "\($0)" }.joined(separator: "\n"), "\(watches)", sink.workouts.map { "\($0)" }.joined(separator: "\n"),
                sink.summaries.map { "\($0)" }.joined(separator: "\n"), sink.sleepSummaries.map { "\($0)" }.joined(separator: "\n"),
                "\(report.skips.sorted { $0.key < $1.key }) \(report.bytesRead)",
                "\(report.controlCharactersDropped)",
            ]
            return (text.joined(separator: "\n--\n"), report.bytesMapped)
        } catch {
            return ("error: \(error)", -1)
        }
    }

    /// Mapped and read, the same; the mapped one took every byte after its first chunk from the map.
    private func assertMappedIsRead(
        _ path: String, days: ClosedRange<Int>, chunkBytes: Int, readSize: Int, _ label: String, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> Int64 {
        let window = ExportWindow(days: days)
        let (read, readMapped) = self.read(path, window: window, maps: false, chunkBytes: chunkBytes, readSize: readSize)
        let (mapped, bytesMapped) = self.read(path, window: window, maps: true, chunkBytes: chunkBytes, readSize: readSize)
        XCTAssertFalse(read.hasPrefix("error"), "\(label): \(read)", file: file, line: line)
        XCTAssertEqual(readMapped, 0, label, file: file, line: line)
        XCTAssertEqual(mapped, read, label, file: file, line: line)
        return bytesMapped
    }

    /// Every profile's ten dates over the change to summer time, one date's window each at the
    /// first, the change and the last date, with chunks of 4 kB (read 1 kB at a time); and at the
    /// change with chunks of 64 bytes too (read 37 at a time: cuts everywhere, a chunk's hand-over
    /// every few records, which made this test one of the suite's longest at every date).
    func testTheMappedWindowReadIsTheReadOneOnEveryProfile() throws {
        for profile in ["runner", "sedentary", "shift-worker", "traveller"] {
            let dir = try FixtureCheck.make(days: 10, start: "2026-03-24", seed: 2, profile: profile, name: "mapped-\(profile)")
            let xml = dir.appendingPathComponent("export.xml").path
            guard FileManager.default.fileExists(atPath: xml) else { continue }
            let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: xml)[.size] as? Int)
            let first = try XCTUnwrap(CivilDate.parseISODate("2026-03-24"))
            for day in [first, first + 5, first + 9] {
                let big = try assertMappedIsRead(xml, days: day...day, chunkBytes: 4096, readSize: 1024, "\(profile) \(day) 4096")
                let small =
                    day == first + 5
                    ? try assertMappedIsRead(xml, days: day...day, chunkBytes: 64, readSize: 37, "\(profile) \(day) 64") : nil
                guard Self.mapsFiles(in: xml) else { continue }
                // Mapped from the first chunk's cut (the prolog's DTD is a few kB).
                XCTAssertGreaterThan(big, Int64(size * 9 / 10), "\(profile) \(day)")
                if let small { XCTAssertGreaterThan(small, 0, "\(profile) \(day)") }
            }
        }
    }

    /// Every line of this export is one page long (its tag padded with spaces), and so is the
    /// prolog: every top-level element starts on a page's edge, so every cut is on one, and the
    /// file ends 14 bytes into a page (`</HealthData>\n`). 40 step records, 2024-03-01 … 03-20,
    /// two a day, values 1 … 40: the window of 03-10 (UTC 03-08 00:00 to 03-13 00:00, margins
    /// included) holds the records of 03-08 … 03-12 = 10 records, values 15 … 24, summing to
    /// (15 + 24) × 10 / 2 = 195; mapped and read alike.
    func testCutsOnAPageEdgeAndAFileEndingInsideAPage() throws {
        let page = Int(getpagesize())
        func padded(_ line: String) -> String {
            line + String(repeating: " ", count: page - line.utf8.count - 3) + "/>\n"
        }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
        xml += String(repeating: " ", count: page - xml.utf8.count - 1) + "\n"
        XCTAssertEqual(xml.utf8.count, page)
        for i in 0..<40 {
            let day = 1 + i / 2
            let d = day < 10 ? "0\(day)" : "\(day)"
            let hour = i % 2 == 0 ? "09" : "15"
            xml += padded(
                " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" "
                    + "startDate=\"2024-03-\(d) \(hour):00:00 +0000\" endDate=\"2024-03-\(d) \(hour):10:00 +0000\" value=\"\(i + 1)\"")
        }
        xml += "</HealthData>\n"
        XCTAssertEqual(xml.utf8.count, 41 * page + 14)
        let url = try TestPaths.temporaryDirectory("mapped-page-edge").appendingPathComponent("export.xml")
        try Data(xml.utf8).write(to: url)
        let day = try XCTUnwrap(CivilDate.parseISODate("2024-03-10"))
        for (chunk, readSize) in [(2 * page, page), (page, 3 * page), (3 * page, 1000)] {
            let mapped = try assertMappedIsRead(url.path, days: day...day, chunkBytes: chunk, readSize: readSize, "\(chunk) \(readSize)")
            if Self.mapsFiles(in: url.path) { XCTAssertGreaterThan(mapped, Int64(30 * page), "\(chunk) \(readSize)") }
        }
        var reader = AppleExportReader(path: url.path)
        reader.threads = 2
        reader.parallelChunkBytes = 2 * page
        reader.window = ExportWindow(days: day...day)
        let sink = CollectingSink()
        try reader.read(into: sink)
        XCTAssertEqual(sink.samples.compactMap(\.value), (15...24).map(Double.init))
        XCTAssertEqual(sink.samples.compactMap(\.value).reduce(0, +), 195)
    }

    /// A broken element inside the window, after the first chunk: the mapped read stops with the
    /// read one's error (`explain` then reads in full, whose error is the one reported).
    func testAnErrorInTheMappedPartIsTheReadOnes() throws {
        var body = ""
        for i in 0..<200 {
            let day = 1 + i / 10
            let d = day < 10 ? "0\(day)" : "\(day)"
            body += record(
                "HKQuantityTypeIdentifierStepCount", "\(i)", unit: "count", source: "Phone", start: "2024-03-\(d) 09:00:00 +0000",
                end: "2024-03-\(d) 09:10:00 +0000")
            if i == 150 { body += " <Record type=\"HKQuantityTypeIdentifierStepCount\" startDate=\"2024-03-16 09:00:00 +0000\"\n" }
        }
        let url = try TestPaths.temporaryDirectory("mapped-error").appendingPathComponent("export.xml")
        try Data(export(body).utf8).write(to: url)
        let day = try XCTUnwrap(CivilDate.parseISODate("2024-03-16"))
        let window = ExportWindow(days: day...day)
        let (read, _) = self.read(url.path, window: window, maps: false, chunkBytes: 2048, readSize: 512)
        let (mapped, _) = self.read(url.path, window: window, maps: true, chunkBytes: 2048, readSize: 512)
        XCTAssertTrue(read.hasPrefix("error"), read)
        XCTAssertEqual(mapped, read)
    }

    /// What is not a regular file with bytes is not mapped: an empty file, a FIFO, a device.
    func testOnlyARegularFileWithBytesIsMapped() throws {
        let dir = try TestPaths.temporaryDirectory("mapped-kinds")
        let empty = dir.appendingPathComponent("empty.xml")
        try Data().write(to: empty)
        let fifo = dir.appendingPathComponent("fifo.xml").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let small = dir.appendingPathComponent("small.xml")
        try Data("<HealthData/>\n".utf8).write(to: small)
        for (path, mapped) in [(empty.path, false), (fifo, false), ("/dev/null", false), (small.path, Self.mapsFiles(in: small.path))] {
            let fd = open(path, O_RDONLY | O_NONBLOCK)
            XCTAssertGreaterThanOrEqual(fd, 0, path)
            defer { close(fd) }
            let file = MappedFile(fd: fd)
            XCTAssertEqual(file != nil, mapped, path)
            XCTAssertEqual(file?.count, mapped ? 14 : nil, path)
        }
        // The read of an empty export says what it said before, mapped or not.
        let window = ExportWindow(days: 19787...19787)
        let (read, _) = self.read(empty.path, window: window, maps: false, chunkBytes: 4096, readSize: 1024)
        let (mapped, _) = self.read(empty.path, window: window, maps: true, chunkBytes: 4096, readSize: 1024)
        XCTAssertTrue(read.hasPrefix("error"), read)
        XCTAssertEqual(mapped, read)
    }

    /// Whether the test's temporary folder is on a file system the reader maps (`MappedFile.isLocal`:
    /// not a network or FUSE mount, which a container's may be); where it is not, what is read is
    /// still compared, only the bytes mapped are not.
    static func mapsFiles(in path: String) -> Bool {
        let fd = open(path, O_RDONLY)
        defer { if fd >= 0 { close(fd) } }
        return fd >= 0 && MappedFile.isLocal(fd)
    }

    /// Linux's file-system types (`statfs.f_type`, linux/magic.h): the network and user-space ones
    /// are read, not mapped, since a page they fail to read would end the process (`SIGBUS`)
    /// where `read` returns an error; local ones and an unknown one not on the list are mapped.
    /// CIFS's 0xFF534D42 as a 32-bit `long` is −11,317,950; masked to 32 bits it is the same type.
    func testANetworkFileSystemIsReadNotMapped() {
        for (type, network) in [
            (Int64(0x6969), true),  // NFS
            (Int64(0xFF53_4D42), true),  // CIFS
            (Int64(-11_317_950), true),  // CIFS, sign-extended
            (Int64(0x6573_5546), true),  // FUSE (sshfs)
            (Int64(0x0102_1997), true),  // 9P
            (Int64(0xEF53), false),  // ext4
            (Int64(0x5846_5342), false),  // XFS
            (Int64(0x0102_1994), false),  // tmpfs
            (Int64(0x794C_7630), false),  // overlayfs
            (Int64(0x9123_683E), false),  // Btrfs
        ] {
            XCTAssertEqual(MappedFile.isNetworkFileSystem(type: type), network, String(type, radix: 16))
        }
    }

    /// A file smaller than one chunk is read in one piece: never mapped, the same samples.
    func testAFileOfLessThanAChunkIsRead() throws {
        let body = record(
            "HKQuantityTypeIdentifierStepCount", "5", unit: "count", source: "Phone", start: "2024-03-05 09:00:00 +0000",
            end: "2024-03-05 09:10:00 +0000")
        let url = try TestPaths.temporaryDirectory("mapped-small").appendingPathComponent("export.xml")
        try Data(export(body).utf8).write(to: url)
        let mapped = try assertMappedIsRead(url.path, days: 19787...19787, chunkBytes: 1 << 19, readSize: 1 << 18, "small")
        XCTAssertEqual(mapped, 0)
    }
}
