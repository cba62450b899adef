/// The `sum` rule for one metric and one day: overlapping sources resolved the way HealthKit's
/// statistics do. For each stretch of time the highest-priority source with samples there wins;
/// a lower source's sample counts only for the fraction of its interval that no higher source
/// covers. Exact duplicates count once: the same source, interval, value, unit and metadata, as
/// re-syncs produce (they differ only in their creation date). Records that differ in metadata
/// (two foods logged at one instant with the same protein) are different readings and both count.
struct SumPiece {
    var start: Int64
    var length: Int32
    var source: Int32
    var value: Double
    /// Unit and metadata digest (`DayBook.fingerprint`): equal for copies of one record.
    var fingerprint: UInt32

    init(start: Int64, end: Int64, value: Double, source: Int32, fingerprint: UInt32 = 0) {
        self.init(start: start, length: Int32(clamping: end - start), value: value, source: source, fingerprint: fingerprint)
    }

    /// A piece as `SumPieceLog` stored it.
    init(start: Int64, length: Int32, value: Double, source: Int32, fingerprint: UInt32) {
        self.start = start
        self.length = length
        self.source = source
        self.value = value
        self.fingerprint = fingerprint
    }

    var end: Int64 { start + Int64(length) }
}

enum SumResolver {
    /// `sources[i]` names source id i; `priority` orders them, `watches` names the sources known to
    /// be watches by their device.
    static func resolve(_ pieces: [SumPiece], sources: [String], priority: SourcePriority, watches: Set<String> = []) -> Double {
        resolve(pieces, sources: sources, ranks: SourceRanks(priority: priority, watches: watches))
    }

    /// The same, with the sources' ranks of a pass over many dates (each source's worked out once).
    static func resolve(_ pieces: [SumPiece], sources: [String], ranks: SourceRanks) -> Double {
        walk(pieces, piece: { $0 }, sources: sources, ranks: ranks) { _, _ in }
    }

    /// The same resolution, saying what each piece counted (`explain`): `counted[i]` is the part
    /// of `pieces[i].value` the day's total took, 0 for a duplicate or a stretch a higher source
    /// covers. The parts add up to `resolve`'s total because they are the very terms it adds.
    static func attribute(_ pieces: [SumPiece], sources: [String], priority: SourcePriority, watches: Set<String> = []) -> (
        total: Double, counted: [Double]
    ) {
        var counted = Array(repeating: 0.0, count: pieces.count)
        let ranks = SourceRanks(priority: priority, watches: watches)
        let total = walk(Array(pieces.enumerated()), piece: \.element, sources: sources, ranks: ranks) {
            counted[$0.offset] = $1
        }
        return (total, counted)
    }

    /// The one implementation of the rule, over pieces that may carry a tag (an index for
    /// `attribute`); `count` hears each term added to the total. For `resolve` the tag is the
    /// piece itself and `count` does nothing, which the optimiser specialises away.
    @inline(__always)
    private static func walk<P>(
        _ pieces: [P], piece: (P) -> SumPiece, sources: [String], ranks: SourceRanks, count: (P, Double) -> Void
    ) -> Double {
        guard !pieces.isEmpty else { return 0 }
        // Sorted by source, then interval and value: duplicates become neighbours, and each
        // source's pieces a contiguous run.
        let sorted = pieces.sorted { x, y in
            let a = piece(x), b = piece(y)
            if a.source != b.source { return a.source < b.source }
            if a.start != b.start { return a.start < b.start }
            if a.length != b.length { return a.length < b.length }
            if a.value != b.value { return a.value < b.value }
            return a.fingerprint < b.fingerprint
        }
        var runs: [(source: Int32, range: Range<Int>)] = []
        var unique: [P] = []
        unique.reserveCapacity(sorted.count)
        for x in sorted {
            let p = piece(x)
            if let l = unique.last {
                let last = piece(l)
                if last.source == p.source, last.start == p.start, last.length == p.length, last.value == p.value,
                    last.fingerprint == p.fingerprint
                {
                    count(x, 0)
                    continue  // an exact duplicate (re-sync): counted once
                }
            }
            if runs.last?.source != p.source { runs.append((p.source, unique.count..<unique.count)) }
            unique.append(x)
            runs[runs.count - 1].range = runs[runs.count - 1].range.lowerBound..<unique.count
        }
        if runs.count == 1 {
            return unique.reduce(0) { total, x in
                let v = piece(x).value
                count(x, v)
                return total + v
            }
        }
        let rank = Dictionary(
            uniqueKeysWithValues: ranks.order(runs.map { sources[Int($0.source)] }).enumerated().map { ($1, $0) })
        runs.sort { rank[sources[Int($0.source)]]! < rank[sources[Int($1.source)]]! }
        var covered = IntervalSet()
        var total = 0.0
        for run in runs {
            let group = unique[run.range].map(piece)
            for (x, p) in zip(unique[run.range], group) {
                var term = 0.0
                if p.length > 0 {
                    let free = Int64(p.length) - covered.covered(p.start, p.end)
                    term = p.value * Double(free) / Double(p.length)
                } else if !covered.contains(p.start) {
                    term = p.value
                }
                total += term
                count(x, term)
            }
            covered.formUnion(group.map { ($0.start, $0.end) })
        }
        return total
    }
}
