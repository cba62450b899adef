import Foundation
import XCTest

@testable import ExportParser

/// `compare --from D` reads an HAE file through the window in place (docs/hae.md, "The window
/// read", "In place"): the file is mapped, nothing is stripped, and the recogniser passes over
/// Health Auto Export's own indentation. The days and errors stay a full read's.
final class HAEWindowInPlaceTests: XCTestCase {
    /// Step datums as Health Auto Export writes them: every key on a line of its own, a datum
    /// indented by 10 spaces and its keys by 12; one a day from 03-01 at 10:00–10:30 +0100,
    /// `100 + day` steps. `edit` may change a datum's text (by its index).
    private func file(days: ClosedRange<Int>, _ name: String = #function, edit: (Int, String) -> String = { $1 }) throws -> String {
        let ten = String(repeating: " ", count: 10), twelve = String(repeating: " ", count: 12)
        let datums = days.enumerated().map { (index, day) -> String in
            let date = String(format: "2026-03-%02d", day)
            let keys = [
                "\"startDate\": \"\(date) 10:00:00 +0100\"", "\"endDate\": \"\(date) 10:30:00 +0100\"", "\"qty\": \(100 + day)",
                "\"source\": \"Anna’s Apple Watch\"",
            ]
            return edit(index, ten + "{\n" + keys.map { twelve + $0 }.joined(separator: ",\n") + "\n" + ten + "}")
        }
        let text =
            "{\n  \"data\": {\n    \"metrics\": [\n      {\n        \"name\": \"step_count\",\n        \"units\": \"count\",\n"
            + "        \"data\": [\n" + datums.joined(separator: ",\n") + "\n        ]\n      }\n    ]\n  }\n}\n"
        let path = try TestPaths.temporaryDirectory("hae-in-place").appendingPathComponent("\(name).json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private let day = CivilDate.parseISODate("2026-03-15")!

    /// One read: the days, or the error as it reads, and how many datums a window of `day`
    /// skipped (`HAEWindowReadTests` reads its chunk edges so too).
    static func read(_ path: String, day: Int, window: Bool, strip: Bool = true, step: Int? = nil) -> (
        days: [FinishedDay]?, error: String?, skipped: Int
    ) {
        var reader = HAEReader(path: path)
        reader.stripIndentation = strip
        if let step {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            reader.splits = stride(from: step, to: size, by: step).map { Int64($0) }
        }
        let skipper = HAEWindowSkipper(days: day...day)
        if window { reader.window = skipper }
        do {
            let book = DayBook(options: try DayOptions(timeZoneName: nil))
            _ = try reader.read(into: book)
            return (book.finish(), nil, skipper.skipped)
        } catch {
            return (nil, "\(error)", skipper.skipped)
        }
    }

    /// 20 datums, a window of 03-15: its margin is 03-13 00:00 … 03-18 00:00 UTC, so the datums
    /// at 09:00 UTC of 03-02 … 03-12 (11; 03-01's is the array's first, always read) and 03-18 …
    /// 03-20 (3) are skipped, 14 in all, from the indented bytes as written. 03-15 has its 115
    /// steps; the other dates the fields of a full read. With chunk edges anywhere the values stay
    /// (a unit cut by an edge is read, so fewer are skipped: none with edges 7 or 100 bytes
    /// apart, since an indented datum is about 200 bytes).
    func testTheIndentedLayoutIsSkippedWhereItLies() throws {
        let path = try file(days: 1...20)
        let full = Self.read(path, day: day, window: false), windowed = Self.read(path, day: day, window: true)
        XCTAssertEqual(windowed.skipped, 14)
        let fullDays = try XCTUnwrap(full.days), windowDays = try XCTUnwrap(windowed.days)
        let window = try XCTUnwrap(windowDays.first { $0.date == "2026-03-15" })
        XCTAssertEqual(ComparableDay(window).values["metrics.step_count"], .number(115))
        // Skipped dates have no day in the window read's own book (the census stands for them).
        XCTAssertEqual(fullDays.count, 20)
        XCTAssertEqual(windowDays.map(\.date), ["2026-03-01"] + (13...17).map { String(format: "2026-03-%02d", $0) })
        for step in [7, 100, 1000] {
            let cut = Self.read(path, day: day, window: true, step: step)
            let w = try XCTUnwrap(cut.days?.first { $0.date == "2026-03-15" }, "step \(step)")
            XCTAssertEqual(ComparableDay(w).values, ComparableDay(window).values, "step \(step)")
            XCTAssertEqual(cut.skipped > 0, step == 1000, "step \(step)")
            XCTAssertLessThanOrEqual(cut.skipped, 14, "step \(step)")
        }
    }

    /// A byte JSON does not take (an `x`) in a datum's indentation: after the
    /// skipped datums (03-18, index 17: 03-02 … 03-12 skipped, 11), and inside what would have
    /// been a run (03-05, index 4: 03-02 … 03-04 skipped, 3). Either way the window read reports
    /// the full read's sentence (offset, JSON path, excerpt), stripped or not, chunk edges or not
    /// (then the full read's with the same edges: the excerpt is the chunk's).
    /// (Not a vertical tab or a form feed: yajl takes both as white space, and the recogniser,
    /// which takes JSON's four only, leaves them to it.)
    func testAStrayByteInTheIndentationIsAFullReadsError() throws {
        for (index, skipped) in [(17, 11), (4, 3)] {
            let path = try file(days: 1...20, "vt-\(index)") { i, text in
                i == index ? text.replacingOccurrences(of: "            \"qty\"", with: "           x\"qty\"") : text
            }
            let full = try XCTUnwrap(Self.read(path, day: day, window: false).error)
            XCTAssertTrue(full.contains("data.metrics[0].data[\(index)]"), full)
            XCTAssertEqual(Self.read(path, day: day, window: false, strip: false).error, full)
            let windowed = Self.read(path, day: day, window: true)
            XCTAssertEqual(windowed.error, full, "index \(index)")
            XCTAssertEqual(windowed.skipped, skipped, "index \(index)")
            for step in [7, 100, 1000] {
                // The excerpt is the chunk's: the full read with the same edges.
                let cutFull = try XCTUnwrap(Self.read(path, day: day, window: false, step: step).error)
                XCTAssertEqual(Self.read(path, day: day, window: true, step: step).error, cutFull, "index \(index) step \(step)")
            }
        }
    }

    /// Equal heart-rate datums at whole minutes wait for their metric object's choice
    /// (`HAEWindowCensus.Kind.decidedBy`); the census keeps the object met last apart and puts
    /// it away when another comes. Objects A (offset 100) and B (200) in turn, A, B, A, on
    /// 03-01, 03-02, 03-03 at noon UTC: A chose buckets and B readings, so 03-01 and 03-03 are
    /// bucket dates and 03-02 a reading date. Without B's choice there is no census.
    func testUndecidedHeartRateOfObjectsInTurnGoesWhereEachChose() throws {
        var census = HAEWindowCensus()
        let hr = DayBook.heartRateIndex
        let first = try XCTUnwrap(CivilDate.parseISODate("2026-03-01"))
        for (i, object) in [100, 200, 100].enumerated() {
            let noon = Timestamp(seconds: Int64(first + i) * 86_400 + 43_200, offset: 0)
            census.add(metric: hr, start: noon, heartRate: .decidedBy(Int64(object)))
        }
        let resolved = try XCTUnwrap(census.resolved([100: true, 200: false]))
        let clock = LocalClock(zone: TimeZone(identifier: "UTC"))
        XCTAssertEqual(try XCTUnwrap(resolved.buckets.dates(clock: clock)), [first: [hr], first + 2: [hr]])
        XCTAssertEqual(try XCTUnwrap(resolved.plain.dates(clock: clock)), [first + 1: [hr]])
        XCTAssertNil(census.resolved([100: true]))
    }
}
