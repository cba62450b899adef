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
    }

    private var waiting: [[Waiting]]
    private var text: [[UInt8]]
    let spools: [FixtureSpool]
    /// Items written to each section's spool.
    private(set) var counts: [Int]
    /// Written between two items of a section (`,\n` between JSON datums; nothing in XML).
    private let separator: [UInt8]
    /// Items that start before this have all been written; none may arrive any more.
    private var released = Int64.min
    private var sequence = 0

    init(count: Int, place: FixtureSpool.Place, firstSpoolNumber: Int = 0, separator: String = "") throws {
        waiting = Array(repeating: [], count: count)
        text = Array(repeating: [], count: count)
        counts = Array(repeating: 0, count: count)
        spools = try (0..<count).map { try FixtureSpool(place, number: firstSpoolNumber + $0) }
        self.separator = Array(separator.utf8)
    }

    /// Adds one item's text to `section`; `start` orders it within the section.
    mutating func add(_ section: Int, start: Int64, _ bytes: [UInt8]) {
        // A planner wrote a sample too long before its date (see `release(before:)`): the file
        // would no longer be in time order, so this is a fault in the generator, not the input.
        precondition(start >= released, "a fixture item starts before items already written")
        let from = text[section].count
        text[section].append(contentsOf: bytes)
        waiting[section].append(Waiting(start: start, sequence: sequence, range: from..<text[section].count))
        sequence += 1
    }

    /// Writes, in order, every waiting item that starts before `bound`; the caller promises that
    /// no item starting before it will be added later.
    mutating func release(before bound: Int64) throws {
        precondition(bound >= released)
        released = bound
        for s in waiting.indices where !waiting[s].isEmpty {
            var items = waiting[s]
            items.sort { ($0.start, $0.sequence) < ($1.start, $1.sequence) }
            let due = items.prefix { $0.start < bound }
            guard !due.isEmpty else { continue }
            let spool = spools[s]
            try text[s].withUnsafeBytes { raw in
                for item in due {
                    if counts[s] > 0, !separator.isEmpty { try spool.append(separator) }
                    try spool.append(UnsafeRawBufferPointer(rebasing: raw[item.range]))
                    counts[s] += 1
                }
            }
            // Keep the rest, moved to the front of the section's text.
            var kept: [UInt8] = []
            var rest: [Waiting] = []
            for item in items.dropFirst(due.count) {
                let from = kept.count
                kept.append(contentsOf: text[s][item.range])
                rest.append(Waiting(start: item.start, sequence: item.sequence, range: from..<kept.count))
            }
            text[s] = kept
            waiting[s] = rest
        }
    }

    /// Writes everything still waiting (the last date is done).
    mutating func releaseAll() throws { try release(before: Int64.max) }
}
