/// The nights of one input, each by the local date it ends on: sleep samples chained into
/// sessions (`SleepSessions`, each session resolved by the sleep rule, `SleepNight`), nights an
/// input already summarised (HAE), and the `night-avg` samples (wrist temperature).
///
/// Memory (issue 24): the sleep samples are kept as they came, 32 bytes each in fixed blocks
/// (`WaitingSleepSample`, the source as the day book's id), and are placed in their sessions only
/// when the book finishes (`place`): an order of 4 bytes a sample sorted by start (chaining needs
/// it), then an index of 8 bytes a sample sorted by session, and 4 bytes a session for its date.
/// A night's own array of 48-byte `SleepSegment`s, each growing by doubling, held 19 MB of a 6 GB
/// export's 12,205 nights at the finish's peak; the samples themselves are 8 MB, the index 2 MB.
struct NightBook {
    /// What a night holds besides its sleep samples.
    private final class Night {
        var summaries: [SleepSummary] = []
        /// The `night-avg` samples' sum and count by metric index.
        var nightAvg = MetricSlots<(sum: Double, count: Int)>()
    }
    private var nights: [Int: Night] = [:]
    /// Every sleep sample, in the order added: in a temporary file during the read, in memory
    /// from `place` on.
    private var arriving = SpilledList<WaitingSleepSample>()
    private var samples = BlockList<WaitingSleepSample>()
    /// After `place`: each sample's session and position in `samples`, in session order (sessions
    /// are numbered by date, then start) and, within a session, in the order added (the order `SleepNight.resolve`
    /// has always been given).
    private var placed: [Placed] = []
    /// After `place`: each session's date (days since 1970-01-01), by session number.
    private var sessionNights: [Int32] = []
    /// After `place`: each night's first sample's recorded start offset, in night order.
    private var firsts: [(night: Int32, offset: Int32)] = []

    private struct Placed: Comparable {
        var session: Int32
        var position: Int32
        static func < (a: Placed, b: Placed) -> Bool { (a.session, a.position) < (b.session, b.position) }
    }

    /// How many sleep samples were added: the next one's position (`explain` names them so).
    var sleepSampleCount: Int { arriving.count }

    private mutating func night(_ day: Int) -> Night {
        if let n = nights[day] { return n }
        let n = Night()
        nights[day] = n
        return n
    }

    /// Keeps a sleep sample; its night is the date `place` gives the end of its session.
    mutating func addSample(_ sample: WaitingSleepSample) { arriving.append(sample) }
    mutating func addSummary(_ summary: SleepSummary, night day: Int) { night(day).summaries.append(summary) }
    mutating func addNightAvg(metric: Int, _ value: Double, night day: Int) {
        night(day).nightAvg[metric, default: (0, 0)].sum += value
        night(day).nightAvg[metric]!.count += 1
    }

    /// Chains the sleep samples into sessions and dates each session by the local date `clock`
    /// gives its end (`LocalClock.night(endingAt:)`). Call once, after the last sample and before
    /// `firstSegmentOffset`, `positions` and `finish`.
    mutating func place(clock: LocalClock) {
        samples = arriving.restore()
        let all = samples
        // In order of start (the order added on a tie): most inputs add them nearly so.
        var order = [Int32](0..<Int32(all.count))
        order.sort { a, b in
            let (x, y) = (all[Int(a)].start, all[Int(b)].start)
            return x != y ? x < y : a < b
        }
        let sessions = SleepSessions.split(count: order.count, start: { all[Int(order[$0])].start }, end: { all[Int(order[$0])].end })
        var index: [Placed] = []
        index.reserveCapacity(all.count)
        sessionNights = []
        sessionNights.reserveCapacity(sessions.count)
        for (number, range) in sessions.enumerated() {
            // The session's end: its latest sample end, in that sample's recorded offset.
            var last = all[Int(order[range.lowerBound])]
            for i in range {
                let p = order[i]
                if all[Int(p)].end > last.end { last = all[Int(p)] }
                index.append(Placed(session: Int32(number), position: p))
            }
            sessionNights.append(Int32(clock.night(endingAt: Timestamp(seconds: last.end, offset: last.endOffset))))
        }
        order = []
        // Sessions are numbered by start, which is not date order: after a flight west a later
        // session can end on an earlier local date. Renumbered by (date, start) so that a date's
        // sessions are consecutive (`finish` resolves them together) and `firsts` is sorted for
        // `firstSegmentOffset`; 4 bytes a session, none more a sample.
        var byNight = [Int32](0..<Int32(sessionNights.count))
        byNight.sort { a, b in (sessionNights[Int(a)], a) < (sessionNights[Int(b)], b) }
        var renumbered = [Int32](repeating: 0, count: byNight.count)
        for (new, old) in byNight.enumerated() { renumbered[Int(old)] = Int32(new) }
        for i in index.indices { index[i].session = renumbered[Int(index[i].session)] }
        sessionNights = byNight.map { sessionNights[Int($0)] }
        byNight = []
        renumbered = []
        index.sort()
        placed = index
        // Each night's first sample's offset (the index is in session order, which is date order,
        // and within a session in the order added), so that a date's zone can be looked up once
        // the samples are gone.
        firsts = []
        var lastNight: Int32?
        for p in index where sessionNights[Int(p.session)] != lastNight {
            lastNight = sessionNights[Int(p.session)]
            firsts.append((lastNight!, all[Int(p.position)].startOffset))
        }
    }

    /// The positions (in the order added, from 0) of the sleep samples of the sessions dated
    /// `day`, for `explain`. Only after `place` and before `releaseSamples`.
    func positions(night day: Int) -> Set<Int32> {
        var out = Set<Int32>()
        for p in placed where Int(sessionNights[Int(p.session)]) == day { out.insert(p.position) }
        return out
    }

    /// Lets go of the sleep samples and their index once a copy of this book that finishes the
    /// nights holds them (`DayBook.finish`): that copy frees them when it is done, while this one
    /// still answers `firstSegmentOffset`. Issue 24: otherwise the finish's peak held them to the
    /// end (10 MB of a 6.4 GB export).
    mutating func releaseSamples() {
        samples = BlockList()
        placed = []
        sessionNights = []
    }

    /// The recorded offset of the night's first sleep sample (the first added of its first
    /// session), for a date's zone fallback. Only after `place`.
    func firstSegmentOffset(_ day: Int) -> Int32? {
        var (lo, hi) = (0, firsts.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(firsts[mid].night) < day { lo = mid + 1 } else { hi = mid }
        }
        guard lo < firsts.count, Int(firsts[lo].night) == day else { return nil }
        return firsts[lo].offset
    }

    /// A night's `night-avg` means by metric index, and its sleep.
    typealias NightResult = (means: [Int: Double], sleep: SleepResult?)

    /// Each night's `night-avg` means by metric index and its sleep: from the sleep samples when
    /// they give one, else from the nights an input summarised. `names` are the day book's
    /// sources by id (`SourceTable.names`). Only after `place`. `days`: only those nights
    /// (`DayOptions.finishedDays`); nil, every one.
    ///
    /// With `halves`, the earlier half of the placed sessions (cut between two nights) resolves on
    /// a thread of its own with its own clock and ranks (both cache), the later one here: each
    /// night is resolved from its own sessions alone, so the nights are those of one pass
    /// (`DayBookParallelFinishTests`). 5,600 nights of a 15-year export took 50–100 ms on one thread, the
    /// longest piece of `compare --from`'s end (docs/performance.md, "The seventh pass").
    func finish(
        priority: SourcePriority, clock: LocalClock, watches: Set<String>, names: [String], days: ClosedRange<Int>? = nil,
        halves: Bool = false
    ) -> [Int: NightResult] {
        // The cut: the first placed session of a night, from the middle on (none: one pass).
        var cut = halves ? placed.count / 2 : 0
        while cut > 0, cut < placed.count, sessionNights[Int(placed[cut].session)] == sessionNights[Int(placed[cut - 1].session)] {
            cut += 1
        }
        if cut == placed.count { cut = 0 }
        var early: FinishingWork<[Int: NightResult]>?
        if cut > 0 {
            let book = Box(self), twin = Box(clock.twin()), earlier = cut
            early = FinishingWork("nights-early", parallel: true) { [book, twin] in
                guard let nights = book.value, let clock = twin.value else { return [:] }
                return nights.resolveNights(
                    0..<earlier, ranks: SourceRanks(priority: priority, watches: watches), clock: clock, names: names, days: days)
            }
        }
        var out = resolveNights(
            cut..<placed.count, ranks: SourceRanks(priority: priority, watches: watches), clock: clock, names: names, days: days)
        // A night in both halves (its sessions not together: none are) keeps the later, as one pass does.
        if let early { out.merge(early.value()) { later, _ in later } }
        for (day, n) in nights where days?.contains(day) ?? true {
            var means: [Int: Double] = [:]
            for (i, avg) in n.nightAvg { means[i] = avg.sum / Double(avg.count) }
            var sleep = out[day]?.sleep ?? nil
            if sleep == nil, !n.summaries.isEmpty { sleep = Self.summarize(n.summaries, clock: clock) }
            out[day] = (means, sleep)
        }
        return out
    }

    /// The sleep of the nights whose placed sessions are `range` (whole nights: it starts and
    /// ends between two).
    private func resolveNights(
        _ range: Range<Int>, ranks: SourceRanks, clock: LocalClock, names: [String], days: ClosedRange<Int>?
    ) -> [Int: NightResult] {
        var out: [Int: NightResult] = [:]
        var sessions: [[SleepSegment]] = []
        let placed = self.placed[range]
        var i = range.lowerBound
        // Sessions in date order: a date's are consecutive, resolved one by one and combined.
        while i < placed.endIndex {
            let day = sessionNights[Int(placed[i].session)]
            if let days, !days.contains(Int(day)) {
                // A night not asked for (`DayOptions.finishedDays`): its sessions are passed over.
                while i < placed.endIndex, sessionNights[Int(placed[i].session)] == day { i += 1 }
                continue
            }
            sessions.removeAll(keepingCapacity: true)
            while i < placed.endIndex, sessionNights[Int(placed[i].session)] == day {
                let session = placed[i].session
                var segments: [SleepSegment] = []
                while i < placed.endIndex, placed[i].session == session {
                    segments.append(samples[Int(placed[i].position)].segment(names: names))
                    i += 1
                }
                sessions.append(segments)
            }
            out[Int(day)] = ([:], SleepNight.resolve(sessions: sessions, ranks: ranks, clock: clock))
        }
        return out
    }
    /// Nights an input summarised (HAE), added: hours summed, the in-bed window covering the sleep
    /// it frames, the first named source.
    static func summarize(_ list: [SleepSummary], clock: LocalClock) -> SleepResult {
        func total(_ k: KeyPath<SleepSummary, Double?>) -> Double? {
            let v = list.compactMap { $0[keyPath: k] }
            return v.isEmpty ? nil : v.reduce(0, +)
        }
        var r = SleepResult(totalHours: list.reduce(0) { $0 + $1.totalHours })
        r.coreHours = total(\.coreHours)
        r.deepHours = total(\.deepHours)
        r.remHours = total(\.remHours)
        r.awakeHours = total(\.awakeHours)
        let starts = list.flatMap { [$0.inBedStart, $0.sleepStart].compactMap { $0 } }
        let ends = list.flatMap { [$0.inBedEnd, $0.sleepEnd].compactMap { $0 } }
        if let s = starts.min() { r.inBedStart = clock.iso(s) }
        if let e = ends.max() { r.inBedEnd = clock.iso(e) }
        r.source = list.compactMap(\.source).first
        return r
    }
}
