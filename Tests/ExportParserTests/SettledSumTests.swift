import Foundation
import XCTest

@testable import ExportParser

/// The sum rule's dates resolved when an input has listed a metric whole (`SumBook.settle`,
/// `DayBook.metricEnded`, issue 24): the sums are kept beside the pieces and taken as they are at
/// the end; a piece that comes later for a settled date and metric drops its sum, and the end
/// resolves all its pieces at once, as it would have without settling.
final class SettledSumTests: XCTestCase {
    private func piece(_ start: Int64, _ length: Int64, _ value: Double, source: Int32 = 0) -> SumPiece {
        SumPiece(start: start, end: start + length, value: value, source: source)
    }

    /// A plain sum that counts its calls.
    private final class CountingResolve {
        var calls = 0
        func callAsFunction(_ pieces: [SumPiece]) -> Double {
            calls += 1
            return pieces.reduce(0) { $0 + $1.value }
        }
    }

    func testASettledSumIsTakenAsItIsAtTheEnd() {
        var book = SumBook()
        let resolve = CountingResolve()
        // Metric 0: day 1 gets 10 + 20, day 2 gets 5. Settled: two groups, two resolutions.
        _ = book.add(piece(86_400, 60, 10), metric: 0, key: 1)
        _ = book.add(piece(86_400 + 60, 60, 20), metric: 0, key: 1)
        _ = book.add(piece(2 * 86_400, 60, 5), metric: 0, key: 2)
        book.settle(context: 0) { resolve($0) }
        XCTAssertEqual(resolve.calls, 2)
        // Metric 1, after the settling: day 1 gets 7, resolved at the end (one call more).
        _ = book.add(piece(86_400, 60, 7), metric: 1, key: 1)
        let totals = book.totals(context: 0) { resolve($0) }
        XCTAssertEqual(resolve.calls, 3)
        XCTAssertEqual(totals.map(\.day), [1, 1, 2])
        XCTAssertEqual(totals.map(\.metric), [0, 1, 0])
        XCTAssertEqual(totals.map(\.value), [30, 7, 5])  // 10 + 20, 7, 5
        // Settling again with nothing new resolves nothing.
        book.settle(context: 0) { resolve($0) }
        XCTAssertEqual(resolve.calls, 4)  // metric 1's day 1, new since the first settling
        book.settle(context: 0) { resolve($0) }
        XCTAssertEqual(resolve.calls, 4)
    }

    func testAPieceAfterSettlingIsResolvedWithTheEarlierOnesOnce() {
        // Sources 0 ("Ann’s Apple Watch") and 1 ("Ann’s iPhone"): the watch ranks first.
        let names = ["Ann’s Apple Watch", "Ann’s iPhone"]
        let resolve = { (p: [SumPiece]) in SumResolver.resolve(p, sources: names, priority: SourcePriority()) }
        var book = SumBook()
        // First listing of the metric: the watch's 100 over 0–600 s of day 1; settled: 100.
        _ = book.add(piece(86_400, 600, 100, source: 0), metric: 0, key: 1)
        book.settle(context: 0, resolve)
        // A second listing (another body) brings the phone's 60 over 300–900 s of day 1. One
        // resolution of both: the phone counts only for 600–900 s, the part the watch leaves:
        // 60 × 300 / 600 = 30 → 100 + 30 = 130. Two resolutions added would give 100 + 60 = 160.
        _ = book.add(piece(86_400 + 300, 600, 60, source: 1), metric: 0, key: 1)
        // At the end with no settling since (what a set's day buckets, passed on after every
        // body, do), and after one.
        XCTAssertEqual(book.totals(context: 0, resolve).map(\.value), [130])
        book.settle(context: 0, resolve)
        XCTAssertEqual(book.totals(context: 0, resolve).map(\.value), [130])
        // An exact copy of the watch's piece (a re-sync) after a further settling counts once.
        _ = book.add(piece(86_400, 600, 100, source: 0), metric: 0, key: 1)
        book.settle(context: 0, resolve)
        XCTAssertEqual(book.totals(context: 0, resolve).map(\.value), [130])
    }

    func testASumSettledUnderOtherWatchesIsResolvedAgain() {
        var book = SumBook()
        let resolve = CountingResolve()
        _ = book.add(piece(86_400, 60, 10), metric: 0, key: 1)
        book.settle(context: 0) { resolve($0) }
        XCTAssertEqual(resolve.calls, 1)
        // One source more is known to be a watch now (context 1): the settled sum is not used.
        XCTAssertEqual(book.totals(context: 1) { resolve($0) }.map(\.value), [10])
        XCTAssertEqual(resolve.calls, 2)
        // Nor after a settling under the new context, which cannot tell what the old sum covered.
        _ = book.add(piece(2 * 86_400, 60, 3), metric: 0, key: 2)
        book.settle(context: 1) { resolve($0) }
        XCTAssertEqual(resolve.calls, 3)  // day 2 only
        XCTAssertEqual(book.totals(context: 1) { resolve($0) }.map(\.value), [10, 3])
        XCTAssertEqual(resolve.calls, 4)  // day 1 again, day 2 settled
    }

    func testResolvingLeftBehindDaysTakesTheSettledSums() {
        var book = SumBook()
        let resolve = CountingResolve()
        // Metric 0: day 1 (10 + 20) and day 5 (7); settled: two resolutions.
        _ = book.add(piece(86_400, 60, 10), metric: 0, key: 1)
        _ = book.add(piece(86_400 + 60, 60, 20), metric: 0, key: 1)
        _ = book.add(piece(5 * 86_400, 60, 7), metric: 0, key: 5)
        book.settle(context: 0) { resolve($0) }
        XCTAssertEqual(resolve.calls, 2)
        // Day 1 is left behind (day 5 − 2 ≥ 1): freed with its settled sum, no resolution more.
        XCTAssertEqual(book.resolveLeftBehind(context: 0) { resolve($0) }, 1)
        XCTAssertEqual(resolve.calls, 2)
        XCTAssertEqual(book.totals(context: 0) { resolve($0) }.map(\.value), [30, 7])
        XCTAssertEqual(resolve.calls, 2)
        // A late piece for day 1 (4): the early 30 plus the late piece's own resolution, 34.
        _ = book.add(piece(86_400 + 200, 60, 4), metric: 0, key: 1)
        XCTAssertEqual(book.latePieces, 1)
        book.settle(context: 0) { resolve($0) }
        XCTAssertEqual(book.totals(context: 0) { resolve($0) }.map(\.value), [34, 7])
    }

    // MARK: - Through the HAE reader and the day book

    /// One datum of `step_count`, on 2026-03-02 at -0600 (no `--timezone`: the datums' offset).
    private func steps(_ start: String, _ end: String, _ qty: Int, _ source: String) -> String {
        "{\"startDate\": \"2026-03-\(start):00 -0600\", \"endDate\": \"2026-03-\(end):00 -0600\", \"qty\": \(qty), \"source\": \"\(source)\"}"
    }

    private func metric(_ data: [String]) -> String {
        "{\"name\": \"step_count\", \"units\": \"count\", \"data\": [" + data.joined(separator: ", ") + "]}"
    }

    private func write(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("settled-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    /// `step_count` listed twice in one file: the watch's datums, then the phone's. The first
    /// array's dates are settled when it ends; the second brings pieces for 03-02 again.
    private var twoListings: String {
        let watch = "Ann’s Apple Watch", phone = "Ann’s iPhone"
        return "{\"data\": {\"metrics\": ["
            + metric([
                steps("02 10:00", "02 10:10", 100, watch), steps("02 23:20", "02 23:40", 20, watch),
                steps("03 09:00", "03 09:10", 40, watch),
            ]) + ", "
            + metric([steps("02 10:05", "02 10:15", 60, phone), steps("02 23:30", "02 23:50", 40, phone)]) + "]}}"
    }

    func testTheWalkerSaysWhenEachMetricEnds() throws {
        let (sink, _) = try HAEFixtures.read(try write(twoListings))
        XCTAssertEqual(sink.metricsEnded, 2)
        XCTAssertEqual(sink.samples.count, 5)
    }

    func testASecondListingOfAMetricGivesTheDaysOfOneResolution() throws {
        let path = try write(twoListings)
        let book = DayBook()
        _ = try HAEReader(path: path).read(into: book)
        let days = Dictionary(uniqueKeysWithValues: book.finish().map { ($0.date, $0) })
        // 03-02, daytime: watch 100 over 10:00–10:10, phone 60 over 10:05–10:15 → the phone
        //   counts for 10:10–10:15 only: 60 × 5 / 10 = 30 → 130.
        // 03-02, near midnight (fringe quarter-hours): watch 20 over 23:20–23:40, phone 40 over
        //   23:30–23:50 → the phone counts for 23:40–23:50 only: 40 × 10 / 20 = 20 → 20 + 20 = 40.
        // 03-02: 130 + 40 = 170 (two resolutions added would give 160 + 60 = 220).
        // 03-03: the watch's 40 alone, settled when the first listing ended.
        XCTAssertEqual(days["2026-03-02"]?.value("step_count") ?? 0, 170, accuracy: 1e-9)
        XCTAssertEqual(days["2026-03-03"]?.value("step_count") ?? 0, 40, accuracy: 1e-9)

        // The phone's datums after the watch's metric ended, with no end after them: 170 too.
        let (sink, _) = try HAEFixtures.read(path)
        let lastEnd = DayBook()
        for s in sink.samples.prefix(3) { lastEnd.sample(s) }
        lastEnd.metricEnded()
        for s in sink.samples.dropFirst(3) { lastEnd.sample(s) }
        let unended = Dictionary(uniqueKeysWithValues: lastEnd.finish().map { ($0.date, $0) })
        XCTAssertEqual(unended["2026-03-02"]?.value("step_count") ?? 0, 170, accuracy: 1e-9)
        XCTAssertEqual(unended["2026-03-03"]?.value("step_count") ?? 0, 40, accuracy: 1e-9)

        // Bit for bit the days of a book that never settles (the same samples, no metric's end).
        let plain = DayBook()
        for s in sink.samples { plain.sample(s) }
        let expected = Dictionary(uniqueKeysWithValues: plain.finish().map { ($0.date, $0) })
        XCTAssertEqual(days.keys.sorted(), expected.keys.sorted())
        for (date, d) in days {
            XCTAssertEqual(d.values.map { $0?.bitPattern }, expected[date]?.values.map { $0?.bitPattern }, date)
        }
    }

    func testBodiesOfOneSetGiveTheDaysOfOneResolution() throws {
        // The same two listings as two bodies (files) of one run: the merger passes the first
        // body's end of `step_count` on, then the second body's datums. 03-02: 130 + 40 = 170 as
        // above; 03-03: 40.
        let watch = "Ann’s Apple Watch", phone = "Ann’s iPhone"
        let first = try write(
            "{\"data\": {\"metrics\": ["
                + metric([
                    steps("02 10:00", "02 10:10", 100, watch), steps("02 23:20", "02 23:40", 20, watch),
                    steps("03 09:00", "03 09:10", 40, watch),
                ]) + "]}}")
        let second = try write(
            "{\"data\": {\"metrics\": [" + metric([steps("02 10:05", "02 10:15", 60, phone), steps("02 23:30", "02 23:50", 40, phone)])
                + "]}}")
        let book = DayBook()
        _ = try HAESetReader(bodies: [HAEBody(path: first), HAEBody(path: second)]).read(into: book)
        let days = Dictionary(uniqueKeysWithValues: book.finish().map { ($0.date, $0) })
        XCTAssertEqual(days["2026-03-02"]?.value("step_count") ?? 0, 170, accuracy: 1e-9)
        XCTAssertEqual(days["2026-03-03"]?.value("step_count") ?? 0, 40, accuracy: 1e-9)
    }
}
