/// `compare --from D`'s window read of one HAE file, on the reading thread (issue 42, docs/hae.md
/// "The window read"): decides which runs of datums yajl never sees, and puts them into a census.
///
/// It keeps the little of the document's structure a skip needs, from yajl's own events (the
/// player calls it before recording them), with the walker's rules for roles
/// (`HAEDocumentWalker.startMap`/`startArray`): the open containers' roles, and for the metric
/// object open now its `name` and `units` when both came before its `data`. A run of datums is
/// skipped only when yajl has just read the `}` of a datum of such a metric's `data` array
/// (`canSkip`), so the walker, told how many were skipped, stands where a full read leaves it.
///
/// A datum joins a run (`run`) only when its part in what `compare` reports of the dates outside
/// the window is certain (`HAEWindowCensus`): a catalogued metric of the sum, average, min-max or
/// latest rule (or heart rate), its unit converted, its values plausible, both dates more than
/// two days outside the window (as `ExportWindow`'s margin), not after the file's time, in one
/// whole-quarter-hour offset, and a sum at most a day long.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): the yajl boundary's
/// bytes, a key's or string's valid only during the callback that lends them (copied when kept),
/// and the chunk's bytes a run is recognised in, read below the `to` the reader gives.
final class HAEWindowSkipper {
    /// The window in UTC seconds, margins included (`ExportWindow.margin`).
    let from: Int64
    let to: Int64
    /// The file's modification time: a later datum is one the mapper skips and counts.
    var moment: Int64 = .max
    private(set) var census = HAEWindowCensus()
    /// Datums skipped (tests and the docs' numbers).
    private(set) var skipped = 0
    /// Set by the reader after the read: the walker's `heartRateDecisions`.
    var heartRateDecisions: [Int64: Bool] = [:]

    enum Role: UInt8 { case other, bodies, body, metrics, metric, datums, datum }
    /// The role of each open container; `depth` of them.
    private var roles: [Role] = []
    /// The key last met in the innermost body or metric object, as the walker tells them apart.
    private var key = HAEKey.unknown
    private var name: String?
    private var units: String?
    /// Whether the open metric's `name`/`units` came each once and before its `data`.
    private var metricClean = true
    /// The open metric's start (the walker's `metricStart`) and, once its `data` opens, its shape
    /// when its datums may be skipped at all.
    private var metricStart: Int64 = 0
    private(set) var shape: HAEMetricShape?
    /// What the recogniser learnt from the datums before (`HAEDatumRecogniser.Memo`), and what
    /// the census last took (`Last`): kept from run to run.
    private var memo = HAEDatumRecogniser.Memo()
    private var last = Last()

    init(days: ClosedRange<Int>) {
        from = Int64(days.lowerBound) * 86_400 - ExportWindow.margin
        to = Int64(days.upperBound + 1) * 86_400 + ExportWindow.margin
        roles.reserveCapacity(16)
    }

    // MARK: - Structure, from yajl's events

    /// A container opens; `offset` is the file offset yajl reached at its event.
    func open(isArray: Bool, offset: Int64) {
        let parent = roles.last
        let role: Role
        switch parent {
        case nil: role = isArray ? .bodies : .body
        case .bodies?: role = isArray ? .bodies : .body
        case .body?:
            if isArray {
                role = key == .metrics ? .metrics : key == .data ? .bodies : .other
            } else {
                role = key == .data ? .body : .other
            }
        case .metrics?: role = isArray ? .other : .metric
        case .metric?:
            role = isArray && key == .data ? .datums : .other
            if role == .datums { shape = metricClean ? Self.skippable(name, units) : nil }
        case .datums?: role = isArray ? .other : .datum
        default: role = .other
        }
        roles.append(role)
        key = .unknown
        if role == .metric {
            name = nil
            units = nil
            metricClean = true
            shape = nil
            metricStart = offset - 1
        }
    }

    func close() {
        if roles.popLast() == .datums { shape = nil }
        key = .unknown
    }

    /// Whether keys and strings at this depth matter (a body's or a metric's members).
    @inline(__always)
    var wantsKeys: Bool {
        let r = roles.last
        return r == .body || r == .metric
    }

    func mapKey(_ p: UnsafePointer<UInt8>, _ n: Int) {
        key = HAEKey.lookup(p, n)
        guard roles.last == .metric else { return }
        switch key {
        case .name: if name != nil { metricClean = false }
        case .units: if units != nil { metricClean = false }
        case .data: if name == nil || units == nil { metricClean = false }
        default: break
        }
    }

    func string(_ p: UnsafePointer<UInt8>, _ n: Int) {
        guard roles.last == .metric else { return }
        let text = String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
        switch key {
        case .name: name = text
        case .units: units = text
        default: break
        }
    }

    /// The shape of a metric whose datums may be skipped: a catalogued metric of the sum,
    /// average, min-max or latest rule whose unit converts, or heart rate; not sleep, wrist
    /// temperature (its buckets move to their night), night or workout averages.
    static func skippable(_ name: String?, _ units: String?) -> HAEMetricShape? {
        guard let name, let units else { return nil }
        let shape = HAEMetricShape(name: name, units: units, path: "")
        guard shape.unitConverts, let metric = shape.metric else { return nil }
        switch shape.kind {
        case .quantity, .heartRate: break
        default: return nil
        }
        switch metric.rule {
        case .sum, .avg, .minMaxAvg, .latest: return shape
        default: return nil
        }
    }

    /// Whether yajl stands just after a datum of a skippable metric's `data` array.
    var canSkip: Bool { shape != nil && roles.last == .datums }

    // MARK: - Runs

    /// What the walker needs to know of a run of skipped datums: how many, the last key it would
    /// have held, and for heart rate what the mapper's choice between readings and buckets
    /// (`HAEDatumMapper.heartRateBucket`) would have learnt from them.
    struct Run {
        var count: Int32 = 0
        var lastKey = HAEKey.unknown
        /// Equal buckets at whole minutes before the first sign (each would be held).
        var holds: Int32 = 0
        /// The index among those of the first one not at local midnight; −1: none.
        var firstNotMidnight: Int32 = -1
        /// The first sign: 0 none, 1 readings, 2 buckets.
        var sign: Int32 = 0
        /// Where the run ends, in the buffer.
        var end = 0
    }

    /// The run of skippable units `,{datum}` starting at `from` in `p[..<to]`, added to the census.
    /// Call only when `canSkip`. A run of no datum ends at `from`.
    func run(_ p: UnsafePointer<UInt8>, from: Int, to: Int) -> Run {
        var r = Run()
        r.end = from
        guard let shape, let metric = shape.metric else { return r }
        // The census and the memo are this run's locals until it ends: a property of a class
        // costs an exclusivity check at each use, and a run is hundreds of datums.
        var census = HAEWindowCensus(), memo = HAEDatumRecogniser.Memo(), last = Last()
        swap(&census, &self.census)
        swap(&memo, &self.memo)
        swap(&last, &self.last)
        defer {
            swap(&census, &self.census)
            swap(&memo, &self.memo)
            swap(&last, &self.last)
        }
        let limits = Limits(moment: moment, plausible: metric.plausible)
        while let (d, end) = HAEDatumRecogniser.unit(p, from: r.end, to: to, memo: &memo),
            take(d, p, shape: shape, metric: metric, limits: limits, run: &r, census: &census, last: &last)
        {
            r.count += 1
            r.lastKey = d.lastKey
            r.end = end
        }
        skipped += Int(r.count)
        return r
    }

    /// Whether `p[from..<to]` starts with a unit `,{datum}` the recogniser takes (with the runs'
    /// memo).
    func recognises(_ p: UnsafePointer<UInt8>, from: Int, to: Int) -> Bool {
        HAEDatumRecogniser.unit(p, from: from, to: to, memo: &memo) != nil
    }

    /// The file's time, and the metric's plausible values (`Metric.implausibility` is nil for
    /// exactly the finite values inside them), read once a run.
    struct Limits {
        let moment: Int64
        let plausible: ClosedRange<Double>

        @inline(__always)
        func isPlausible(_ v: Double) -> Bool { v.isFinite && plausible.contains(v) }
    }

    /// What the last datum taken into the census left that the next is likely to share.
    struct Last {
        /// Its source's bytes (a sum's: the census's names).
        var source: [UInt8] = []
        /// The heart-rate metric object whose decision it waited for, and the census kept for
        /// that object until another comes (`HAEWindowCensus.add(undecided:of:)`).
        var object: Int64 = -1
    }

    /// Whether datum `d` may be skipped; if so, adds it to the census and the run's signs.
    private func take(
        _ d: HAEDatumRecogniser.Datum, _ p: UnsafePointer<UInt8>, shape: HAEMetricShape, metric: Metric, limits: Limits, run r: inout Run,
        census: inout HAEWindowCensus, last: inout Last
    ) -> Bool {
        let start = d.start, end = d.end
        guard start.offset == end.offset, start.offset % 900 == 0, end.seconds >= start.seconds,
            end.seconds < from || start.seconds >= to, start.seconds <= limits.moment
        else { return false }
        guard let value = shape.canonical(d.value), limits.isPlausible(value) else { return false }
        if d.isBucket {
            guard shape.kind == .heartRate, let low = shape.canonical(d.minimum), limits.isPlausible(low),
                let high = shape.canonical(d.maximum), limits.isPlausible(high)
            else { return false }
            // As `HAEDatumMapper.emitQuantity` and `heartRateBucket` decide.
            let equal = d.minimum == d.value && d.maximum == d.value
            let local = start.seconds + Int64(start.offset)
            if local % 60 != 0 {
                if r.sign == 0 { r.sign = 1 }
                census.add(metric: metric.index, start: start, heartRate: equal ? .reading : .bucket)
            } else if !equal {
                if r.sign == 0 { r.sign = 2 }
                census.add(metric: metric.index, start: start, heartRate: .bucket)
            } else {
                if r.sign == 0 {
                    if r.firstNotMidnight < 0, local % 86_400 != 0 { r.firstNotMidnight = r.holds }
                    r.holds += 1
                }
                census.add(metric: metric.index, start: start, heartRate: .decidedBy(metricStart))
            }
            return true
        }
        // A `date`-and-`qty` bucket of a min-max metric other than heart rate would take its
        // date's count away (`HAEDatumMapper.instants`): read. Heart rate's is one reading.
        if d.isDated, metric.rule == .minMaxAvg, shape.kind != .heartRate { return false }
        if metric.rule == .sum {
            guard end.seconds - start.seconds <= 86_400 else { return false }
            census.add(metric: metric.index, start: start, end: end.seconds)
            // Mostly the last datum's source: compared in place, copied only when it changes.
            let n = d.source.count
            let same =
                last.source.count == n
                && (n == 0
                    || last.source.withUnsafeBufferPointer {
                        WordBytes.equal($0.baseAddress!, p + d.source.lowerBound, n)
                    })
            if !same {
                last.source = Array(UnsafeBufferPointer(start: p + d.source.lowerBound, count: n))
                census.addSource(last.source)
            }
        } else {
            guard end.seconds - start.seconds <= Sample.longestSpan else { return false }
            census.add(metric: metric.index, start: start, heartRate: .reading)
        }
        return true
    }
}
