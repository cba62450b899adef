/// The heart-rate samples a day book keeps for workouts that state no heart rate of their own
/// (exports before iOS 16), packed 8 bytes each (`WorkoutBook.pack`).
///
/// Why they are spilled: export.xml lists every `Record` before the first `Workout`, so which
/// samples a workout needs is known only after all of them were read, and heart rate is about
/// three quarters of an export's records (4.8 M in a 3 GB, 15-year export: 38 MB, and one array
/// doubling its way there held up to 96 MB while it copied itself). Here memory holds one chunk of
/// `chunkCount` samples (512 kB); each full chunk is written to an unnamed temporary file (mode
/// 0600, removed from its folder as soon as it is created, so nothing is left behind even when
/// the process is killed). `take(within:)` reads the chunks back one at a time and keeps only
/// the samples inside the intervals of the workouts that need them. When no temporary file can
/// be written (a read-only or full disk), the chunks stay in memory, as before.
struct HeartRateSamples {
    /// Samples a chunk holds: 64 Ki × 8 bytes = 512 kB in memory, and per write.
    static let chunkCount = 1 << 16

    private var samples = SpilledList<UInt64>(blockSize: chunkCount)

    /// Samples appended so far.
    var count: Int { samples.count }
    /// Samples in memory now (the current chunk and chunks that could not be spilled): what stays
    /// bounded however many samples the input holds.
    var inMemory: Int { samples.inMemory }

    @inline(__always)
    mutating func append(_ packed: UInt64) { samples.append(packed) }

    /// The samples whose time lies inside one of `intervals` (start and end seconds since 1970,
    /// both inclusive, as `WorkoutFigures.summary` reads them), sorted; frees everything kept.
    /// For each interval it holds exactly the samples a sorted array of all of them holds there,
    /// in the same order, so the workouts' figures are those of the whole array.
    mutating func take(within intervals: [(start: Int64, end: Int64)]) -> [UInt64] {
        var all: [UInt64] = []
        forEachGroup(within: intervals, budget: .max) { _, samples in all = samples }
        return all
    }

    /// Samples a group of spans holds (`forEachGroup`): 2 MiB.
    static let groupBudget = 1 << 18

    /// Hands `body` the samples inside `intervals` (as `take`), sorted, a group of whole spans
    /// (`disjoint(intervals)`) at a time, in time order, with the time range the group's spans
    /// cover: at most `budget` samples a group, unless one span alone holds more. An interval
    /// lies in exactly one group, which holds every sample inside it, in the order the whole
    /// sorted array has them there. Frees everything kept.
    ///
    /// Why groups (issue 24): the samples inside the workouts of a 33-year export that state no
    /// heart rate are about 750,000; kept in one array and sorted, they were 9 MB of RSS at the
    /// finish, the 6.4 GB export's peak. A group costs one more pass over the spilled chunks
    /// (read back from the OS's file cache); an export whose samples fit one group is read twice
    /// as before (once to count, once to keep).
    mutating func forEachGroup(
        within intervals: [(start: Int64, end: Int64)], budget: Int = groupBudget, _ body: (ClosedRange<Int64>, [UInt64]) -> Void
    ) {
        defer { self = HeartRateSamples() }
        let spans = Self.disjoint(intervals)
        guard !spans.isEmpty else { return }
        // The first pass counts each span's samples, so that spans are grouped under the budget
        // and each group's samples are one array of exactly their size.
        var counts = [Int](repeating: 0, count: spans.count)
        samples.forEachBlock { part in
            for packed in part {
                if let s = Self.span(spans, WorkoutBook.unpack(packed).0) { counts[s] += 1 }
            }
        }
        var first = 0
        while first < spans.count {
            var last = first, matching = counts[first]
            while last + 1 < spans.count, matching + counts[last + 1] <= budget {
                last += 1
                matching += counts[last]
            }
            let range = spans[first].start...spans[last].end
            var kept: [UInt64] = []
            kept.reserveCapacity(matching)
            samples.forEachBlock { part in
                for packed in part {
                    let t = WorkoutBook.unpack(packed).0
                    // Inside the group's range, a sample in a span is in one of the group's.
                    if range.contains(t), Self.contains(spans, t) { kept.append(packed) }
                }
            }
            kept.sort()
            body(range, kept)
            first = last + 1
        }
    }

    /// The intervals sorted and merged where they overlap or touch; empty ones (end before start)
    /// dropped, as no sample lies in them.
    static func disjoint(_ intervals: [(start: Int64, end: Int64)]) -> [(start: Int64, end: Int64)] {
        var out: [(start: Int64, end: Int64)] = []
        for i in intervals.filter({ $0.start <= $0.end }).sorted(by: { $0.start < $1.start }) {
            if let last = out.last, i.start <= last.end {
                out[out.count - 1].end = max(last.end, i.end)
            } else {
                out.append(i)
            }
        }
        return out
    }

    /// Whether `t` lies in one of `spans` (disjoint, sorted): the last span starting at or before
    /// it, found by bisection, reaches it.
    @inline(__always)
    static func contains(_ spans: [(start: Int64, end: Int64)], _ t: Int64) -> Bool { span(spans, t) != nil }

    /// The index of the span `t` lies in (`spans` disjoint and sorted), if any.
    @inline(__always)
    static func span(_ spans: [(start: Int64, end: Int64)], _ t: Int64) -> Int? {
        var lo = 0, hi = spans.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if spans[mid].start <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo > 0 && t <= spans[lo - 1].end ? lo - 1 : nil
    }
}
