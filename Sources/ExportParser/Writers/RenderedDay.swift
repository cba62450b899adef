import Dispatch

/// One finished day as `convert` writes it: its `payloads/DATE.json` file, its member of
/// `payloads.json` and its `daily.csv` row. Rendering is a pure function of the day, so days can
/// be rendered on two threads and still be written one after another in date order.
///
/// Why two threads: the days are rendered after the reading, on the critical path of every
/// convert (≈ 280 k instructions a date, 0.05–0.1 s of CPU on the benchmark's 1,395-date HAE
/// file), while the other core, busy with the decoder during the pass, then has room beside the
/// file writer's kernel work (docs/hae.md, "The reading thread and the writing").
struct RenderedDay {
    /// `payloads/DATE.json`: the payload and a line break.
    let file: [UInt8]
    /// The payload as a member of `payloads.json` (with its `,` or, for the last, the closing).
    let member: [UInt8]
    /// The `daily.csv` line, CRLF-terminated.
    let csvRow: [UInt8]

    /// Written straight into bytes (`PayloadEncoder.write`, `CSVWriter.row(_:into:)`): the
    /// same text as `PayloadEncoder.payload(day).bytes()` and `CSVWriter.row(day)`, without a
    /// `JSONValue` tree or a string a cell (docs/hae.md, "Rendering").
    init(_ day: FinishedDay, last: Bool) {
        let out = ExportBytes(capacity: 8192)
        PayloadEncoder.write(day, into: out)
        let text = out.array
        file = PayloadsFile.dayFile(text)
        member = PayloadsFile.member(text, last: last)
        out.clear()
        CSVWriter.row(day, into: out)
        csvRow = out.array
    }

    /// Days rendered at a time: memory holds at most this many rendered days (≈ 10 KB each).
    static let blockSize = 64

    /// Renders `days` and hands each to `body` in order, with its index. With `parallel`, the
    /// days of each block of `blockSize` are rendered by this thread and Dispatch's pool threads
    /// together (`concurrentPerform`: a day at a time, to whichever thread is free, so a pool
    /// thread slow to start costs nothing), then handed over here, on the caller's thread; the
    /// bytes are the same as rendered one after another (`RenderedDayTests`).
    static func inOrder(
        _ days: [FinishedDay], parallel: Bool = true, blockSize: Int = RenderedDay.blockSize,
        _ body: (Int, RenderedDay) throws -> Void
    ) rethrows {
        let count = days.count
        guard parallel, count > 1 else {
            for (i, day) in days.enumerated() { try body(i, RenderedDay(day, last: i + 1 == count)) }
            return
        }
        let step = Swift.max(2, blockSize)
        var start = 0
        while start < count {
            let end = Swift.min(start + step, count)
            let block = Block(days: days, range: start..<end)
            // A day an iteration; Dispatch returns when every iteration is done, which orders the
            // slots' writes before the reads below.
            DispatchQueue.concurrentPerform(iterations: end - start) { k in block.render(k) }
            for i in start..<end { try body(i, block.take(i)) }
            start = end
        }
    }

    /// One block's rendered days: each slot is written by exactly one iteration and read only
    /// after all have returned (`concurrentPerform`). Hence `@unchecked Sendable`.
    ///
    /// A slot is an object of its own, in an array made before the iterations start and never
    /// changed after: threads write disjoint slots and only read the array, so none touches a
    /// shared array's header or another's storage.
    // @unchecked Sendable: disjoint slots, written by one iteration each, read after all end.
    private final class Block: @unchecked Sendable {
        let days: [FinishedDay]
        let range: Range<Int>
        private let slots: [Slot]

        private final class Slot {
            var day: RenderedDay?
        }

        init(days: [FinishedDay], range: Range<Int>) {
            self.days = days
            self.range = range
            slots = range.map { _ in Slot() }
        }

        /// Renders the block's `k`-th day.
        func render(_ k: Int) {
            let i = range.lowerBound + k
            slots[k].day = RenderedDay(days[i], last: i + 1 == days.count)
        }

        func take(_ i: Int) -> RenderedDay {
            let slot = slots[i - range.lowerBound]
            defer { slot.day = nil }
            return slot.day!
        }
    }
}
