/// Explains a `sum` field: the pieces the day book kept for the date, resolved by the same
/// `SumResolver` that made the payload's total, each with the part it counted, and the stretches
/// of time each source won.
enum SumExplainer {
    static func rule(_ order: [String]) -> String {
        let ranked = order.isEmpty ? "" : " (here: " + order.joined(separator: " > ") + ")"
        return "sum: samples split at local midnight in proportion to time; where sources overlap only the highest-priority "
            + "source counts\(ranked); exact duplicates count once"
    }

    static func explain(_ d: AttributedDay, metric: Int, into e: inout Explanation) {
        let pieces = d.attribution.pieces[metric] ?? []
        let pieceSamples = d.attribution.pieceSamples[metric] ?? []
        let (_, counted) = SumResolver.attribute(pieces, sources: d.sources, priority: d.priority, watches: d.watches)
        func name(_ p: SumPiece) -> String { d.sources[Int(p.source)] }
        let order = d.priority.order(Array(Set(pieces.map(name))), watches: d.watches)
        e.rule = rule(order)

        // What each source won: its own time less what the sources above it cover.
        var unions: [String: IntervalSet] = [:]
        var covered = IntervalSet()
        for (rank, source) in order.enumerated() {
            let own = IntervalSet(pieces.filter { name($0) == source }.map { ($0.start, $0.end) })
            unions[source] = own
            let won = own.subtracting(covered)
            let offset = pieceSamples.first { $0.source == source }?.start.offset ?? 0
            e.stretches.append(
                SourceStretch(
                    source: source, rank: rank + 1,
                    spans: won.map { (d.iso(Timestamp(seconds: $0.0, offset: offset)), d.iso(Timestamp(seconds: $0.1, offset: offset))) },
                    seconds: won.reduce(0) { $0 + ($1.1 - $1.0) }))
            covered.formUnion(own.spans)
        }

        // Copies of one record: the one the resolver counted (the largest part) stands, the
        // others are duplicates.
        struct Key: Hashable {
            var source: Int32, start: Int64, length: Int32, value: UInt64, fingerprint: UInt32
        }
        var groups: [Key: [Int]] = [:]
        for (i, p) in pieces.enumerated() {
            groups[
                Key(source: p.source, start: p.start, length: p.length, value: p.value.bitPattern, fingerprint: p.fingerprint), default: []
            ]
            .append(i)
        }
        var duplicate = Set<Int>()
        for list in groups.values where list.count > 1 {
            let kept = list.max { counted[$0] < counted[$1] }!
            duplicate.formUnion(list.filter { $0 != kept })
        }

        let rank = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        var rows: [(Int64, ExplainedSample)] = []
        for (i, p) in pieces.enumerated() {
            let s = pieceSamples[i]
            var note: String?
            if duplicate.contains(i) {
                note = "duplicate of another sample: counted once"
            } else if counted[i] < p.value * (1 - 1e-9) {
                let above = order.prefix(rank[name(p)]!).filter { (unions[$0]?.covered(p.start, max(p.end, p.start + 1)) ?? 0) > 0 }
                let share = p.value > 0 ? Int(((1 - counted[i] / p.value) * 100).rounded()) : 100
                note = "\(share) % under " + above.joined(separator: ", ")
            }
            if p.value != s.canonicalValue, let whole = s.canonicalValue, whole > 0 {
                let part = "split at midnight: \(Int((p.value / whole * 100).rounded())) % on this date"
                note = note.map { part + "; " + $0 } ?? part
            }
            rows.append(
                (
                    s.start.seconds,
                    ExplainedSample(
                        start: d.iso(s.start), end: d.iso(s.end), value: s.canonicalValue, source: s.source,
                        device: ExplainedSample.deviceName(s.device), onDate: p.value, counted: counted[i], used: counted[i] > 0, note: note
                    )
                ))
        }
        e.samples = rows.sorted { ($0.0, $0.1.source) < ($1.0, $1.1.source) }.map(\.1)
    }
}
