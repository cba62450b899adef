/// Half-open intervals of seconds, merged: the coverage of a source, or a sleep stage's union.
struct IntervalSet {
    private(set) var spans: [(Int64, Int64)] = []

    init() {}

    /// Builds the union of `items` (overlaps and touching spans merged).
    init(_ items: [(Int64, Int64)]) {
        var sorted = items.filter { $0.1 > $0.0 }
        sorted.sort { $0.0 < $1.0 }
        for (s, e) in sorted {
            if let lastEnd = spans.last?.1, s <= lastEnd {
                spans[spans.count - 1].1 = max(lastEnd, e)
            } else {
                spans.append((s, e))
            }
        }
    }

    var total: Int64 { spans.reduce(0) { $0 + ($1.1 - $1.0) } }

    mutating func formUnion(_ items: [(Int64, Int64)]) {
        self = IntervalSet(spans + items)
    }

    /// Seconds of [s, e) covered.
    func covered(_ s: Int64, _ e: Int64) -> Int64 {
        guard e > s, !spans.isEmpty else { return 0 }
        var lo = 0, hi = spans.count
        while lo < hi {  // first span ending after s
            let mid = (lo + hi) / 2
            if spans[mid].1 <= s { lo = mid + 1 } else { hi = mid }
        }
        var total: Int64 = 0
        var i = lo
        while i < spans.count, spans[i].0 < e {
            total += min(e, spans[i].1) - max(s, spans[i].0)
            i += 1
        }
        return total
    }

    /// Whether the instant lies inside a span [s, e).
    func contains(_ t: Int64) -> Bool { covered(t, t + 1) > 0 && spans.contains { $0.0 <= t && t < $0.1 } }
}
