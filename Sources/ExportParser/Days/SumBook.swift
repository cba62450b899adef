/// The `sum` rule across the days of one input: each sample split at local midnights in
/// proportion to time, its pieces kept per day and metric until the end of the input so
/// overlapping sources can be resolved exactly (`SumResolver`), whatever the file order.
///
/// Memory stays flat on any file size: past `budget` waiting pieces, the days each metric's
/// stream has left at least two days behind are resolved and freed. Health app exports list
/// records grouped by type and in date order within a type, so such days are complete; a piece
/// that still comes later is added without resolution and counted in `latePieces`. The pieces
/// wait in one `SumPieceLog` (24 bytes each, in fixed blocks).
///
/// An input that lists each metric whole (HAE: a metric's datums are one array) lets the reader
/// say so (`settle`): what came since is resolved then, on the reading side's thread, and kept
/// beside the pieces, so `totals` at the end only collects it. A later piece for such a day and
/// metric drops that sum, and the day is resolved at the end from all its pieces, as it would
/// have been without settling: the totals are the same bit for bit either way.
struct SumBook {
    private var log = SumPieceLog()
    /// Sums already resolved (their pieces freed) when memory ran over budget.
    private var resolved = ResolvedSums()
    /// Days and metrics with a resolved sum that pieces came for again since (`latePieces`).
    private var reopened: Set<SumPieceLog.Key> = []
    /// Sums resolved by `settle`, by key and metric: each is the resolution of every piece its key
    /// and metric holds, pieces still kept (it is dropped when another piece comes for them).
    private var settled: [SumPieceLog.Key: Double] = [:]
    /// Keys and metrics whose pieces came both before and after a `settle`: resolved at the end.
    private var unsettled: Set<SumPieceLog.Key> = []
    /// What else the settled sums depend on (the caller's count of sources known to be watches,
    /// which ranks sources): a sum settled under another value is not used.
    private var settledContext = 0
    /// The key and metric of the last piece kept, already checked against `resolved` and `settled`.
    private var lastChecked: SumPieceLog.Key?
    /// Per metric, the latest day its stream reached.
    private var watermark: [Int: Int] = [:]
    private(set) var latePieces = 0
    private var lastUnit: (String?, UInt64) = (nil, 0)
    /// How far behind its metric's stream a key must be to be resolved early: two days for a book
    /// keyed by day; the day book's fringe book keys by quarter-hour slot (`FringeKey`).
    private let lag: Int
    /// Keys never resolved early (`resolveLeftBehind`): their sums are made at the end from all
    /// their pieces, whatever the budget or the input's order (`DayOptions.exactDays`).
    var keptToTheEnd: ClosedRange<Int>?

    init(lag: Int = 2) { self.lag = lag }

    /// `explain`: hears every piece kept, with its sample.
    var attribution: DayAttribution?

    /// Pieces waiting in memory.
    var waiting: Int { log.count }

    /// Keeps the sample's pieces; returns how many pieces now wait (the caller resolves the days
    /// left behind when that is over its budget).
    mutating func add(metric: Int, _ s: Sample, _ value: Double, source: Int32, firstDay: Int, clock: LocalClock) -> Int {
        add(metric: metric, s, value, source: source, fingerprint: fingerprint(s), firstDay: firstDay, clock: clock)
    }

    /// `add` with the sample's fingerprint already taken.
    mutating func add(metric: Int, _ s: Sample, _ value: Double, source: Int32, fingerprint print: UInt32, firstDay: Int, clock: LocalClock)
        -> Int
    {
        if firstDay > watermark[metric, default: Int.min] { watermark[metric] = firstDay }
        // Days and midnights are taken in the start's offset (docs/rules.md, "sum"): an end
        // recorded in another offset (a flight west) can name an earlier local date than the
        // start, and must not end the sample before it began.
        let lastDay = max(firstDay, clock.day(Timestamp(seconds: s.end.seconds, offset: s.start.offset)))
        if lastDay == firstDay || s.end.seconds <= s.start.seconds {
            keep(
                SumPiece(start: s.start.seconds, end: s.end.seconds, value: value, source: source, fingerprint: print), metric: metric,
                day: firstDay, of: s)
            return log.count
        }
        let length = Double(s.end.seconds - s.start.seconds)
        var pieceStart = s.start.seconds
        for n in firstDay...lastDay {
            let pieceEnd = n == lastDay ? s.end.seconds : clock.midnight(day: n + 1, recordedOffset: s.start.offset)
            if pieceEnd > pieceStart {
                let share = value * Double(pieceEnd - pieceStart) / length
                keep(
                    SumPiece(start: pieceStart, end: pieceEnd, value: share, source: source, fingerprint: print), metric: metric, day: n,
                    of: s)
            }
            pieceStart = max(pieceStart, pieceEnd)
        }
        return log.count
    }

    /// Keeps one piece under key `n` (a day, or a fringe slot); returns how many pieces now wait.
    mutating func add(_ piece: SumPiece, metric: Int, key n: Int) -> Int {
        if n > watermark[metric, default: Int.min] { watermark[metric] = n }
        keep(piece, metric: metric, day: n, of: nil)
        return log.count
    }

    @inline(__always)
    private mutating func keep(_ piece: SumPiece, metric: Int, day n: Int, of s: Sample?) {
        if let s { attribution?.piece(piece, of: s, metric: metric, day: n) }
        let key = SumPieceLog.Key(key: n, metric: Int32(metric))
        if key != lastChecked, !resolved.isEmpty || !settled.isEmpty {
            lastChecked = key
            // A piece for a day and metric resolved early, with none waiting since: late.
            if !resolved.isEmpty, resolved.contains(key), reopened.insert(key).inserted { latePieces += 1 }
            // A piece for a settled day and metric: its sum no longer covers all its pieces.
            if !settled.isEmpty, settled.removeValue(forKey: key) != nil { unsettled.insert(key) }
        }
        log.append(piece, key: key)
    }

    /// Tells copies of one record from different records with the same source, times and value:
    /// their unit and metadata, and an HAE datum's number (`SumPiece.fingerprint`).
    @inline(__always)
    mutating func fingerprint(_ s: Sample) -> UInt32 {
        if s.unit != lastUnit.0 {
            var h = FNV1a()
            if let u = s.unit { h.add(u) }
            lastUnit = (s.unit, h.value)
        }
        let d = s.metadataDigest &* 0x9E37_79B9_7F4A_7C15 ^ lastUnit.1
        // An HAE datum's number within its body (`Sample.occurrence`) keeps alike datums apart.
        return UInt32(truncatingIfNeeded: d ^ (d >> 32)) ^ s.occurrence
    }

    /// Resolves the keys and metrics whose pieces all came since the last call (the input has
    /// listed their metric whole) and keeps their sums beside the pieces for `totals`. One that
    /// had pieces before the last call too is left for the end. `context` is what else the
    /// resolution depends on (the count of sources known to be watches); when it changed, the sums
    /// settled before are left for the end as well.
    mutating func settle(context: Int, _ resolve: ([SumPiece]) -> Double) {
        // Moved out while the log hands its groups over (one value each: no copy).
        var (done, open) = (settled, unsettled)
        (settled, unsettled) = ([:], [])
        if context != settledContext {
            open.formUnion(done.keys)
            done = [:]
            settledContext = context
        }
        log.forEachNewGroup { k, pieces in
            if open.contains(k) { return }
            // Pieces from before as well (a run the log began anew): only the end sees them all.
            if done.removeValue(forKey: k) != nil {
                open.insert(k)
                return
            }
            done[k] = resolve(pieces)
        }
        (settled, unsettled) = (done, open)
        lastChecked = nil
    }

    /// Resolves, for each metric, the days its stream has left at least two days behind (but
    /// those `keptToTheEnd`), and frees their pieces (a sum `settle` kept under the same
    /// `context` is taken as it is). Returns how many pieces still wait.
    mutating func resolveLeftBehind(context: Int = 0, _ resolve: ([SumPiece]) -> Double) -> Int {
        let (lag, watermark, kept) = (lag, watermark, keptToTheEnd)
        // Moved out while the log hands its groups over (one value each: no copy).
        var (open, done, mixed) = (reopened, settled, unsettled)
        (reopened, settled, unsettled) = ([], [:], [])
        let useSettled = context == settledContext
        // The log hands its groups over in key order, each key once: each sum goes into the
        // resolved ones as it is made, with no list of them beside the pieces (`beginMerge`).
        var merge = resolved.beginMerge()
        let behind = { (k: SumPieceLog.Key) in watermark[Int(k.metric)].map { k.key <= $0 - lag } ?? false }
        log.removeGroups(where: { k in behind(k) && !(kept?.contains(k.key) ?? false) }) { k, pieces in
            let sum = done.removeValue(forKey: k).flatMap { useSettled ? $0 : nil } ?? resolve(pieces)
            merge.put(ResolvedSums.Entry(key: k, value: sum))
            open.remove(k)
            mixed.remove(k)
        }
        resolved.endMerge(merge)
        (reopened, settled, unsettled) = (open, done, mixed)
        lastChecked = nil
        return log.count
    }

    /// Every day's total per metric, in day and metric order: its waiting pieces resolved (or
    /// their sum settled under the same `context`), plus what was resolved early (`0 + v` when
    /// nothing waits, as a sum from nothing).
    func totals(context: Int = 0, _ resolve: ([SumPiece]) -> Double) -> [SumTotal] {
        let settled = context == settledContext ? settled : [:]
        // Both in key and metric order: merged as they come.
        var early = resolved.entries.makeIterator()
        var next = early.next()
        // Reserved for the most there can be (each early sum and each group a total at most), not
        // grown by doubling: at the end of a 33-year export these are about 180,000 totals
        // (4.4 MB), and the last doubling held 3 and 6 MB together in the finish (issue 24).
        var out: [SumTotal] = []
        out.reserveCapacity(resolved.count + log.runCount)
        log.forEachGroup(wantsPieces: { settled[$0] == nil }) { k, pieces in
            let t = SumTotal(day: k.key, metric: Int(k.metric), value: settled[k] ?? resolve(pieces))
            while let x = next, x.key < k {
                out.append(SumTotal(day: x.key.key, metric: Int(x.key.metric), value: 0 + x.value))
                next = early.next()
            }
            if let x = next, x.key == k {
                out.append(SumTotal(day: t.day, metric: t.metric, value: t.value + x.value))
                next = early.next()
            } else {
                out.append(t)
            }
        }
        while let x = next {
            out.append(SumTotal(day: x.key.key, metric: Int(x.key.metric), value: 0 + x.value))
            next = early.next()
        }
        return out
    }
}

/// One day's (or fringe slot's) total of one sum metric (`SumBook.totals`).
struct SumTotal: Sendable {
    var day: Int
    var metric: Int
    var value: Double
}
