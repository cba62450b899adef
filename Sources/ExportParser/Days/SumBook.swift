/// The `sum` rule across the days of one input: each sample split at local midnights in
/// proportion to time, its pieces kept per day and metric until the end of the input so
/// overlapping sources can be resolved exactly (`SumResolver`), whatever the file order.
///
/// Memory stays flat on any file size: past `budget` waiting pieces, the days each metric's
/// stream has left at least two days behind are resolved and freed. Health app exports list
/// records grouped by type and in date order within a type, so such days are complete; a piece
/// that still comes later is added without resolution and counted in `latePieces`.
struct SumBook {
    private final class Day {
        var pieces = MetricSlots<[SumPiece]>()
        /// Sums already resolved (their pieces freed) when memory ran over budget.
        var resolved = MetricSlots<Double>()
    }
    private var days: [Int: Day] = [:]
    private var lastDay = Int.min
    private var lastState: Day?
    /// Pieces waiting, and per metric the latest day its stream reached.
    private var buffered = 0
    private var watermark: [Int: Int] = [:]
    private(set) var latePieces = 0
    private var lastUnit: (String?, UInt64) = (nil, 0)
    /// How far behind its metric's stream a key must be to be resolved early: two days for a book
    /// keyed by day; the day book's fringe book keys by quarter-hour slot (`FringeKey`).
    private let lag: Int

    init(lag: Int = 2) { self.lag = lag }

    /// `explain`: hears every piece kept, with its sample.
    var attribution: DayAttribution?

    @inline(__always)
    private mutating func day(_ n: Int) -> Day {
        if n == lastDay, let d = lastState { return d }
        let d: Day
        if let existing = days[n] {
            d = existing
        } else {
            d = Day()
            days[n] = d
        }
        lastDay = n
        lastState = d
        return d
    }

    /// Pieces waiting in memory.
    var waiting: Int { buffered }

    /// The days that have pieces or resolved sums.
    var dayNumbers: [Int] { Array(days.keys) }

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
            return buffered
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
        return buffered
    }

    /// Keeps one piece under key `n` (a day, or a fringe slot); returns how many pieces now wait.
    mutating func add(_ piece: SumPiece, metric: Int, key n: Int) -> Int {
        if n > watermark[metric, default: Int.min] { watermark[metric] = n }
        keep(piece, metric: metric, day: n, of: nil)
        return buffered
    }

    private mutating func keep(_ piece: SumPiece, metric: Int, day n: Int, of s: Sample?) {
        if let s { attribution?.piece(piece, of: s, metric: metric, day: n) }
        let d = day(n)
        if d.resolved[metric] != nil, d.pieces[metric] == nil { latePieces += 1 }
        d.pieces[metric, default: []].append(piece)
        buffered += 1
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

    /// Resolves, for each metric, the days its stream has left at least two days behind, and
    /// frees their pieces. Returns how many pieces still wait.
    mutating func resolveLeftBehind(_ resolve: ([SumPiece]) -> Double) -> Int {
        for (n, d) in days where !d.pieces.isEmpty {
            // Removed in place: a day whose every metric is resolved frees its piece storage.
            d.pieces.removeAll { metric, pieces in
                guard let mark = watermark[metric], n <= mark - lag else { return false }
                d.resolved[metric, default: 0] += resolve(pieces)
                buffered -= pieces.count
                return true
            }
        }
        return buffered
    }

    /// Every day's totals by metric index.
    func totals(_ resolve: ([SumPiece]) -> Double) -> [Int: [Int: Double]] {
        var out: [Int: [Int: Double]] = [:]
        for (n, d) in days {
            var values: [Int: Double] = [:]
            for (i, pieces) in d.pieces { values[i] = resolve(pieces) }
            for (i, v) in d.resolved { values[i] = (values[i] ?? 0) + v }
            out[n] = values
        }
        return out
    }
}
