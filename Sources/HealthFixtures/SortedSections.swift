import ExportParser

/// The items of a fixture file that are grouped (records by type, HAE datums by metric) and in
/// time order within their group, as the Health app and Health Auto Export list them, written
/// while the dates are generated one at a time. An item waits in its section until no later date
/// can bring an earlier one (`release(before:)`), then goes to the section's spool in order of
/// start and, for equal starts, of generation: what one sort of the whole file would give, with
/// only the last few dates in memory.
struct SortedSections {
    private struct Waiting {
        var start: Int64
        var sequence: Int
        var range: Range<Int>
        var written = false
    }

    /// One section's waiting items, in the order they were added, and their text.
    private struct Queue {
        var items: [Waiting] = []
        var text: [UInt8] = []
    }

    private var queues: [Queue]
    let spools: [FixtureSpool]
    /// Items written to each section's spool.
    private(set) var counts: [Int]
    /// Written between two items of a section (`,\n` between JSON datums; nothing in XML).
    private let separator: [UInt8]
    /// Items that start before this have all been written; none may arrive any more.
    private var released = Int64.min
    private var sequence = 0

    init(count: Int, place: FixtureSpool.Place, firstSpoolNumber: Int = 0, separator: String = "") throws {
        queues = Array(repeating: Queue(), count: count)
        counts = Array(repeating: 0, count: count)
        spools = try (0..<count).map { try FixtureSpool(place, number: firstSpoolNumber + $0) }
        self.separator = Array(separator.utf8)
    }

    /// Adds one item's text to `section`; `start` orders it within the section.
    mutating func add(_ section: Int, start: Int64, _ bytes: [UInt8]) {
        // A planner wrote a sample too long before its date (see `release(before:)`): the file
        // would no longer be in time order, so this is a fault in the generator, not the input.
        precondition(start >= released, "a fixture item starts before items already written")
        let from = queues[section].text.count
        queues[section].text.append(contentsOf: bytes)
        queues[section].items.append(Waiting(start: start, sequence: sequence, range: from..<(from + bytes.count)))
        sequence += 1
    }

    /// Writes, in order, every waiting item that starts before `bound`; the caller promises that
    /// no item starting before it will be added later.
    mutating func release(before bound: Int64) throws {
        precondition(bound >= released)
        released = bound
        for s in queues.indices where !queues[s].items.isEmpty {
            try write(s, before: bound)
            trim(s)
        }
    }

    private mutating func write(_ s: Int, before bound: Int64) throws {
        var due = queues[s].items.indices.filter { !queues[s].items[$0].written && queues[s].items[$0].start < bound }
        guard !due.isEmpty else { return }
        due.sort { a, b in
            let x = queues[s].items[a], y = queues[s].items[b]
            return (x.start, x.sequence) < (y.start, y.sequence)
        }
        let spool = spools[s]
        for i in due {
            if counts[s] > 0, !separator.isEmpty { try spool.append(separator) }
            try spool.append(queues[s].text[queues[s].items[i].range])
            counts[s] += 1
        }
        for i in due { queues[s].items[i].written = true }
    }

    /// Drops the written items at the front of a section's queue, and their text once it is
    /// more than half of what the queue holds (one move of what is left, not one per item).
    private mutating func trim(_ s: Int) {
        let front = queues[s].items.prefix { $0.written }.count
        guard front > 0 else { return }
        if front == queues[s].items.count {
            queues[s].items.removeAll(keepingCapacity: true)
            queues[s].text.removeAll(keepingCapacity: true)
            return
        }
        queues[s].items.removeFirst(front)
        let cut = queues[s].items[0].range.lowerBound
        guard cut * 2 > queues[s].text.count else { return }
        queues[s].text.removeFirst(cut)
        for i in queues[s].items.indices {
            let r = queues[s].items[i].range
            queues[s].items[i].range = (r.lowerBound - cut)..<(r.upperBound - cut)
        }
    }

    /// Bytes written and waiting, the separators of waiting items counted as if written: what
    /// the sections will hold if nothing more is added.
    var size: Int64 {
        var n = spools.reduce(Int64(0)) { $0 + $1.count }
        for q in queues {
            let waiting = q.items.filter { !$0.written }
            n += Int64(waiting.reduce(0) { $0 + $1.range.count + separator.count })
        }
        return n
    }

    /// Writes everything still waiting (the last date is done).
    mutating func releaseAll() throws { try release(before: Int64.max) }
}
