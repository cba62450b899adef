/// The `sum` rule for one metric and one day: overlapping sources resolved the way HealthKit's
/// statistics do. For each stretch of time the highest-priority source with samples there wins;
/// a lower source's sample counts only for the fraction of its interval that no higher source
/// covers. Exact duplicates (same source, interval and value, as re-syncs produce) count once.
struct SumPiece {
    var start: Int64
    var length: Int32
    var source: Int32
    var value: Double

    init(start: Int64, end: Int64, value: Double, source: Int32) {
        self.start = start
        self.length = Int32(clamping: end - start)
        self.source = source
        self.value = value
    }

    var end: Int64 { start + Int64(length) }
}

enum SumResolver {
    /// `sources[i]` names source id i; `priority` orders them.
    static func resolve(_ pieces: [SumPiece], sources: [String], priority: SourcePriority) -> Double {
        guard !pieces.isEmpty else { return 0 }
        var bySource: [Int32: [SumPiece]] = [:]
        for p in pieces { bySource[p.source, default: []].append(p) }
        if bySource.count == 1 { return dedupedTotal(bySource.first!.value) }
        let ordered = priority.order(bySource.keys.map { sources[Int($0)] })
        let idByName = Dictionary(bySource.keys.map { (sources[Int($0)], $0) }, uniquingKeysWith: { a, _ in a })
        var covered = IntervalSet()
        var total = 0.0
        for name in ordered {
            let group = dedupe(bySource[idByName[name]!]!)
            for p in group {
                if p.end > p.start {
                    let free = (p.end - p.start) - covered.covered(p.start, p.end)
                    total += p.value * Double(free) / Double(p.end - p.start)
                } else if !covered.contains(p.start) {
                    total += p.value
                }
            }
            covered.formUnion(group.map { ($0.start, $0.end) })
        }
        return total
    }

    private static func dedupedTotal(_ pieces: [SumPiece]) -> Double {
        dedupe(pieces).reduce(0) { $0 + $1.value }
    }

    private static func dedupe(_ pieces: [SumPiece]) -> [SumPiece] {
        var seen = Set<Key>()
        var out: [SumPiece] = []
        out.reserveCapacity(pieces.count)
        for p in pieces where seen.insert(Key(p)).inserted { out.append(p) }
        return out
    }

    private struct Key: Hashable {
        let start: Int64, end: Int64, value: UInt64
        init(_ p: SumPiece) {
            start = p.start
            end = p.end
            value = p.value.bitPattern
        }
    }
}
