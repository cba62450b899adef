/// The nights of one input, each by the local date it ends on: sleep samples (the sleep rule,
/// `SleepNight`), nights an input already summarised (HAE), and the `night-avg` samples (wrist
/// temperature).
struct NightBook {
    private final class Night {
        var segments: [SleepSegment] = []
        var summaries: [SleepSummary] = []
        var sum: [Int: Double] = [:]
        var count: [Int: Int] = [:]
    }
    private var nights: [Int: Night] = [:]

    private mutating func night(_ day: Int) -> Night {
        if let n = nights[day] { return n }
        let n = Night()
        nights[day] = n
        return n
    }

    mutating func addSegment(_ segment: SleepSegment, night day: Int) { night(day).segments.append(segment) }
    mutating func addSummary(_ summary: SleepSummary, night day: Int) { night(day).summaries.append(summary) }
    mutating func addNightAvg(metric: Int, _ value: Double, night day: Int) {
        let n = night(day)
        n.sum[metric, default: 0] += value
        n.count[metric, default: 0] += 1
    }

    var days: [Int] { Array(nights.keys) }

    /// The recorded offset of the first sleep sample of the night, for a date's zone fallback.
    func firstSegmentOffset(_ day: Int) -> Int32? { nights[day]?.segments.first?.start.offset }

    /// Each night's `night-avg` means by metric index and its sleep: from the sleep samples when
    /// they give one, else from the nights an input summarised.
    func finish(priority: SourcePriority, clock: LocalClock, watches: Set<String>) -> [Int: (means: [Int: Double], sleep: SleepResult?)] {
        var out: [Int: (means: [Int: Double], sleep: SleepResult?)] = [:]
        let ranks = SourceRanks(priority: priority, watches: watches)
        for (day, n) in nights {
            var means: [Int: Double] = [:]
            for (i, sum) in n.sum { means[i] = sum / Double(n.count[i]!) }
            var sleep = SleepNight.resolve(n.segments, ranks: ranks, clock: clock)
            if sleep == nil, !n.summaries.isEmpty { sleep = Self.summarize(n.summaries, clock: clock) }
            out[day] = (means, sleep)
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
