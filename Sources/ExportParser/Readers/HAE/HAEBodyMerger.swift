import Foundation

/// Makes the Health Auto Export bodies of one run one person's HAE data (docs/hae.md, "Several
/// bodies"; docs/rules.md, "Several inputs in one run"), between the HAE reader and the day book.
///
/// HAE's REST automation POSTs overlapping bodies: with the default period each holds the
/// previous day and today so far, so every datum arrives about four to eight times; with
/// "Since Last Sync" each holds what is new. Folding each body into days on its own and letting
/// a later body win whole fields loses or repeats data; this layer passes each datum on once:
///
/// - A sample-level datum (Summarize off) is keyed by everything the reader read of it (type,
///   source, start and end as instants, value, unit, bucket extremes). Copies within one body are separate
///   HealthKit samples (HAE writes one datum per sample: two foods logged in one minute with
///   the same protein); across bodies a datum counts as many times as the body holding it most
///   often (the multiset union). The k-th copy in a body goes on as `occurrence` k, only when no
///   earlier body passed on a k-th copy.
/// - An aggregated bucket (Summarize on: `date` only) is a figure of its interval so far. Per
///   type and bucket start the buckets of the body that reaches furthest win (the latest `end`
///   of any datum, sleep night or workout in it: a later sync's window ends later, its view of
///   a date is the most complete); ties: the later body.
/// - An aggregated night (`sleep_analysis` with Summarize on) likewise, per night (the local
///   date of its `sleepEnd`).
/// - One granularity per metric and date: a bucket of a type and local date to which the day book
///   gives sample-level datums of that type under its rule (`noteSampleDays`) is set aside (`bucketsSetAside`): a manual export with
///   Summarize on beside REST bodies with Summarize off holds the same day twice, once summed
///   and once sample by sample, and the samples hold more (sources, times). docs/rules.md, "HAE
///   bodies".
/// - A workout with an `id` (version 2) once, the latest body's copy (a later body may state more
///   of it); one without passes on, and the day book keeps identical copies once.
///
/// Memory: a key per distinct datum of the set, the buckets and nights (a few per day) and the
/// identified workouts. Bodies are many and small; a single HAE file is read without this layer.
final class HAEBodyMerger: SampleSink {
    let downstream: SampleSink
    let wantsDetails: Bool

    /// What makes two sample-level datums copies of one. Times are compared as instants: a body
    /// written after a change of offset (daylight saving, travel) may write the same instant in
    /// another offset.
    private struct DatumKey: Hashable {
        var type: String
        var source: String
        var start: Int64
        var end: Int64
        var value: UInt64
        var valueText: String?
        var unit: String?
        var minimum: UInt64
        var maximum: UInt64

        init(_ s: Sample) {
            type = s.type
            source = s.source
            start = s.start.seconds
            end = s.end.seconds
            value = (s.value ?? .nan).bitPattern
            valueText = s.valueText
            unit = s.unit
            minimum = (s.bucketMinimum ?? .nan).bitPattern
            maximum = (s.bucketMaximum ?? .nan).bitPattern
        }
    }

    /// Per type and bucket start.
    private struct BucketKey: Hashable {
        var type: String
        var start: Int64
    }

    private var body = -1
    /// Dates buckets and samples by the day book's clock (the run's zone, else each instant's
    /// recorded offset), so "the same date" is the date the day book will file both under.
    private let clock: LocalClock
    /// Per type, the local dates on which sample-level datums were passed on.
    private var sampleDays: [String: Set<Int>] = [:]
    private var copiesInBody: [DatumKey: UInt32] = [:]
    private var passedOn: [DatumKey: UInt32] = [:]
    /// Per body, the latest instant its data reaches (epoch seconds).
    private var reach: [Int64] = []
    private var buckets: [(body: Int, sample: Sample)] = []
    private var nights: [(body: Int, night: SleepSummary)] = []
    private var identified: [String: (body: Int, workout: Workout)] = [:]
    private var identifiedOrder: [String] = []

    /// Sample-level datums another body had already passed on (the overlap of windows).
    private(set) var repeatedDatums = 0
    /// Buckets and nights that a more complete body's replaced.
    private(set) var supersededBuckets = 0
    /// Buckets set aside because samples of the same type and date were given.
    private(set) var bucketsSetAside = 0
    /// Workouts with an `id` seen again in a later body.
    private(set) var repeatedWorkouts = 0
    /// Bodies read.
    var bodies: Int { reach.count }

    init(downstream: SampleSink, zone: TimeZone? = nil) {
        self.downstream = downstream
        clock = LocalClock(zone: zone)
        wantsDetails = downstream.wantsDetails
    }

    /// The next body begins (its datums are counted anew).
    func beginBody() {
        body += 1
        reach.append(Int64.min)
        copiesInBody.removeAll(keepingCapacity: true)
    }

    private func reached(_ t: Timestamp) {
        if t.seconds > reach[body] { reach[body] = t.seconds }
    }

    // MARK: - SampleSink

    func sample(_ s: Sample) {
        reached(s.end)
        if s.isBucket {
            buckets.append((body, s))
            return
        }
        let key = DatumKey(s)
        let k = copiesInBody[key, default: 0]
        copiesInBody[key] = k + 1
        guard k >= passedOn[key, default: 0] else {
            repeatedDatums += 1
            return
        }
        passedOn[key] = k + 1
        noteSampleDays(s)
        var copy = s
        copy.occurrence = k
        downstream.sample(copy)
    }

    /// The local dates the day book gives a sample-level datum to under its metric's rule
    /// (docs/rules.md): a `sum` every date it crosses, from its start's to its end's (one that
    /// ends exactly at midnight gives the next date nothing, "sum"); a `night-avg` only the date
    /// its night ends on ("night-avg": a wrist temperature of 23:10–06:40 is the next date's, and
    /// leaves the evening's date its bucket); the other rules the date of its start. A type
    /// outside the catalog is given to no date by the book; its span is noted all the same.
    private func noteSampleDays(_ s: Sample) {
        guard s.type != Catalog.sleepType else { return }  // nights: docs/rules.md, "Sleep"
        switch s.metric?.rule {
        case .nightAvg?:
            sampleDays[s.type, default: []].insert(clock.night(endingAt: s.end))
        case .avg?, .minMaxAvg?, .latest?, .workoutAvg?:
            sampleDays[s.type, default: []].insert(clock.day(s.start))
        case .sum?, nil:
            let first = clock.day(s.start)
            var last = first
            if s.end.seconds > s.start.seconds {
                last = max(first, clock.day(Timestamp(seconds: s.end.seconds - 1, offset: s.end.offset)))
            }
            if let known = sampleDays[s.type], known.contains(first), known.contains(last) { return }
            for d in first...min(last, first + 400) { sampleDays[s.type, default: []].insert(d) }
        }
    }

    /// The date the day book files a bucket under: a `night-avg` bucket's night (the mapper moved
    /// it to its wake-up midnight, `HAEDatumMapper.wristTemperatureInstant`), else its start's date.
    private func bucketDay(_ s: Sample) -> Int {
        s.metric?.rule == .nightAvg ? clock.night(endingAt: s.end) : clock.day(s.start)
    }

    func workout(_ w: Workout) {
        reached(w.end)
        guard let id = w.haeID else {
            downstream.workout(w)
            return
        }
        if identified[id] == nil {
            identifiedOrder.append(id)
        } else {
            repeatedWorkouts += 1
        }
        identified[id] = (body, w)
    }

    func sleepSummary(_ night: SleepSummary) {
        reached(night.sleepEnd)
        nights.append((body, night))
    }

    func me(_ me: Me) { downstream.me(me) }
    func correlation(_ c: Correlation) { downstream.correlation(c) }
    func activitySummary(_ a: ActivitySummary) { downstream.activitySummary(a) }
    func extra(_ item: ExtraItem) { downstream.extra(item) }
    func takeOver() { downstream.takeOver() }
    /// Passed on: what a body held back (buckets, nights) comes later, and the day book drops a
    /// sum it settled when more comes for its date (`SumBook.settle`).
    func metricEnded() { downstream.metricEnded() }

    /// Passes on what waited for every body to be read: per bucket and night the most complete
    /// body's, and the identified workouts. Call once, on the thread that then finishes the book.
    func finishSet() {
        downstream.takeOver()
        /// Whether body `a` is more complete than body `b`: it reaches further, or as far and later.
        func better(_ a: Int, than b: Int) -> Bool { reach[a] != reach[b] ? reach[a] > reach[b] : a > b }

        var bucketWinner: [BucketKey: Int] = [:]
        for (b, s) in buckets {
            let key = BucketKey(type: s.type, start: s.start.seconds)
            if let cur = bucketWinner[key], !better(b, than: cur) { continue }
            bucketWinner[key] = b
        }
        for (b, s) in buckets {
            if bucketWinner[BucketKey(type: s.type, start: s.start.seconds)] != b {
                supersededBuckets += 1
            } else if sampleDays[s.type]?.contains(bucketDay(s)) == true {
                bucketsSetAside += 1
            } else {
                downstream.sample(s)
            }
        }
        var nightWinner: [Int64: Int] = [:]
        func night(_ n: SleepSummary) -> Int64 { (n.sleepEnd.seconds + Int64(n.sleepEnd.offset)).floorDiv(86_400) }
        for (b, n) in nights {
            if let cur = nightWinner[night(n)], !better(b, than: cur) { continue }
            nightWinner[night(n)] = b
        }
        for (b, n) in nights {
            if nightWinner[night(n)] == b {
                downstream.sleepSummary(n)
            } else {
                supersededBuckets += 1
            }
        }
        for id in identifiedOrder { if let w = identified[id]?.workout { downstream.workout(w) } }
        buckets = []
        sampleDays = [:]
        nights = []
        identified = [:]
    }
}

extension Int64 {
    /// Division rounding toward minus infinity (a local day number before 1970 stays right).
    fileprivate func floorDiv(_ d: Int64) -> Int64 { self >= 0 ? self / d : -((-self + d - 1) / d) }
}
