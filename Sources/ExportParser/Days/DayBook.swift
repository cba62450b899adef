import Foundation
import Synchronization

/// Folds the sample stream into days (docs/rules.md): routes each sample to the accumulator of
/// its rule, then assembles the finished days. One accumulator a rule: `SumBook` (sum),
/// `DayAccumulators` (avg, latest, minmaxavg, the day's zone), `NightBook` (sleep, night-avg),
/// `RunningMechanics` (workout-avg) and `WorkoutBook` (workouts and their heart rate).
///
/// What it keeps is bounded by days and sources, except where a rule needs intervals: sum-rule
/// pieces (32 bytes) until their days are complete, heart-rate samples (8 bytes) for workouts
/// that state no heart rate, sleep and running samples, which are few.
final class DayBook: SampleSink {
    private(set) var options: DayOptions
    let clock: LocalClock
    // `@exclusivity(unchecked)` marks the state the book touches on every sample: it drops Swift's
    // dynamic exclusivity check (a thread-local access-set insert and removal per access), which was
    // part of about 15 % of a reader's decoding thread (bench/README.md). Safe because one thread at a
    // time feeds the book (`confinement`), and no method of it is re-entered while it modifies such a
    // property (the book calls out to no code that could reach it). The checks ran in every test and
    // fuzz run before they were dropped here and found no overlap.
    @exclusivity(unchecked) private var days: [Int: DayAccumulators] = [:]
    @exclusivity(unchecked) private var lastDay = Int.min
    @exclusivity(unchecked) private var lastState: DayAccumulators?
    @exclusivity(unchecked) private var sums = SumBook()
    @exclusivity(unchecked) private var nights = NightBook()
    @exclusivity(unchecked) private var running = RunningMechanics()
    @exclusivity(unchecked) private var workouts = WorkoutBook()
    @exclusivity(unchecked) private var sources = SourceTable()
    private var exportDate: Timestamp?
    /// One thread feeds the book (a reader's decoding thread), then `finish` runs on the caller's
    /// after the reader has waited for that thread (checked in debug builds).
    private let confinement = ThreadConfinement()
    /// Apple's own daily totals (`ActivitySummary`) by local day, in payload units.
    private var appleTotals: [Int: AppleDailyTotals.Figures] = [:]
    static let heartRateIndex = Catalog.metric(named: "heart_rate_samples").index
    /// Samples received, readable from another thread (progress displays): the export reader
    /// feeds the day book from its tape-player thread.
    var samplesSeen: Int { seen.load(ordering: .relaxed) }
    private let seen = Atomic<Int>(0)

    /// Sum samples that arrived for a day already resolved (a file not grouped by type and
    /// date, larger than the budget): added without source resolution, and reported.
    var lateSumPieces: Int { sums.latePieces }
    /// Running-mechanics samples and buckets no running workout took (after `finish`).
    var runningOutsideRuns: Int { running.outsideRuns }
    /// Workouts that repeated one already read but for their creation date (a sync's copies).
    var duplicateWorkouts: Int { workouts.duplicates }

    init(options: DayOptions = DayOptions()) {
        self.options = options
        self.clock = LocalClock(zone: options.timeZone)
    }

    @inline(__always)
    private func state(_ day: Int) -> DayAccumulators {
        if day == lastDay, let s = lastState { return s }
        let s: DayAccumulators
        if let existing = days[day] {
            s = existing
        } else {
            s = DayAccumulators()
            days[day] = s
        }
        lastDay = day
        lastState = s
        return s
    }

    // MARK: - SampleSink

    func exportDate(_ date: Timestamp) { exportDate = date }

    func sample(_ s: Sample) {
        seen.wrappingAdd(1, ordering: .relaxed)
        confinement.check("a day book")
        if s.deviceIsWatch { sources.markWatch(s.source) }
        guard let metric = s.metric else {
            if s.type == Catalog.sleepType, let text = s.valueText, let stage = SleepSegment.stage(for: text) {
                _ = sources.id(s.source)  // a source the priority ranks, for `ConvertOutcome.warnings`
                nights.addSegment(
                    SleepSegment(start: s.start, end: s.end, stage: stage, source: s.source), night: clock.night(endingAt: s.end))
                state(clock.day(s.start)).note(zone: s.timeZoneName, offset: s.start.offset)
            }
            return
        }
        guard let value = s.canonicalValue else { return }
        if metric.rule == .workoutAvg {
            running.add(metric: metric.index, s, value, clock: clock)
            return
        }
        let day = clock.day(s.start)
        let d = state(day)
        d.note(zone: s.timeZoneName, offset: s.start.offset)
        switch metric.rule {
        case .sum:
            let waiting = sums.add(metric: metric.index, s, value, source: sources.id(s.source), firstDay: day, clock: clock)
            if waiting > options.sumPieceBudget { resolveLeftBehindDays() }
        case .avg:
            d.addAverage(metric: metric.index, value)
        case .minMaxAvg:
            d.minMaxAvg[metric.index, default: MinMaxAvgAccumulator()]
                .add(value, bucketMinimum: s.bucketMinimum, bucketMaximum: s.bucketMaximum, isBucket: s.isBucket)
            // Heart rate alone also feeds the workouts that state no heart rate of their own.
            if metric.index == Self.heartRateIndex { workouts.addHeartRate(s.start.seconds, value) }
        case .latest:
            d.addLatest(metric: metric.index, value, end: s.end.seconds)
        case .nightAvg:
            nights.addNightAvg(metric: metric.index, value, night: clock.night(endingAt: s.end))
        case .workoutAvg:
            break  // kept above, before the day lookup
        }
    }

    func takeOver() { confinement.claim() }

    func workout(_ w: Workout) {
        confinement.check("a day book")
        guard workouts.add(w) else { return }
        state(clock.day(w.start)).note(zone: w.timeZoneName, offset: w.start.offset)
    }

    func sleepSummary(_ night: SleepSummary) {
        nights.addSummary(night, night: clock.day(night.sleepEnd))
    }

    func activitySummary(_ summary: ActivitySummary) {
        guard let day = CivilDate.parseISODate(summary.date), let figures = AppleDailyTotals.Figures(summary) else { return }
        appleTotals[day] = figures
    }

    /// The sources of the data the source priority ranks (sums and sleep; and any source of a
    /// watch device), and those known to be watches. Call after `finish`.
    var sourceNames: [String] { sources.names }
    var watchSources: Set<String> { sources.watches }

    /// Apple's daily totals beside this book's, for the days that have both. Call after `finish`.
    func appleTotalsCheck(_ days: [FinishedDay]) -> AppleDailyTotals {
        AppleDailyTotals(apple: appleTotals, days: days)
    }

    /// Frees the sum pieces of days the input has left behind; when nothing is left behind (one
    /// enormous day?), raises the budget instead.
    private func resolveLeftBehindDays() {
        let names = sources.names, priority = options.sourcePriority, watches = sources.watches
        let waiting = sums.resolveLeftBehind { SumResolver.resolve($0, sources: names, priority: priority, watches: watches) }
        if waiting > options.sumPieceBudget / 2 { options.sumPieceBudget = waiting * 2 }
    }

    // MARK: - Finishing

    /// Runs every rule and returns the days in date order. Call once, after the last input.
    func finish() -> [FinishedDay] {
        confinement.claim()
        let syncDate = exportDate ?? options.fallbackExportDate
        let syncText = syncDate.map { clock.iso($0) } ?? "1970-01-01T00:00:00+00:00"
        let names = sources.names, priority = options.sourcePriority, watches = sources.watches
        var out: [Int: FinishedDay] = [:]

        /// A date's zone: the run's, else the first zone name or offset seen that date, else the
        /// offset of its night's first sleep sample, else the export date's.
        func day(_ n: Int) -> FinishedDay {
            if let d = out[n] { return d }
            let st = days[n]
            let zone: String
            if let tz = options.timeZone {
                zone = tz.identifier
            } else if let name = st?.zoneName {
                zone = name
            } else if let off = st?.offset {
                zone = CivilDate.offsetString(off)
            } else if let off = nights.firstSegmentOffset(n) {
                zone = CivilDate.offsetString(off)
            } else {
                zone = CivilDate.offsetString(syncDate?.offset ?? 0)
            }
            return FinishedDay(dayNumber: n, timezone: zone, deviceSyncTimestamp: syncText)
        }

        for (n, st) in days {
            var d = day(n)
            st.finish(into: &d)
            out[n] = d
        }
        for (n, totals) in sums.totals({ SumResolver.resolve($0, sources: names, priority: priority, watches: watches) }) {
            var d = day(n)
            for (i, v) in totals { d.values[i] = v }
            out[n] = d
        }
        for (n, night) in nights.finish(priority: priority, clock: clock, watches: watches) {
            var d = day(n)
            for (i, v) in night.means { d.values[i] = v }
            if let sleep = night.sleep { d.sleep = sleep }
            out[n] = d
        }
        let (summaries, runs) = workouts.finish(clock: clock)
        for (n, w) in summaries {
            var d = day(n)
            d.workouts.append(w)
            out[n] = d
        }
        for (n, means) in running.finish(runs: runs) {
            var d = day(n)
            for (i, v) in means { d.values[i] = v }
            out[n] = d
        }
        return out.values.map(\.withFiniteValues).filter { $0.hasContent }.sorted { $0.dayNumber < $1.dayNumber }
    }
}

extension FinishedDay {
    /// The day without any value that is not a finite number. The readers skip non-finite and
    /// implausible samples, so no rule can produce one; this is the last guard before the
    /// writers, which must never see one (JSON has no infinity).
    var withFiniteValues: FinishedDay {
        var d = self
        for i in d.values.indices where d.values[i].map({ !$0.isFinite }) ?? false { d.values[i] = nil }
        for i in d.summaries.indices {
            if let m = d.summaries[i], ![m.average, m.minimum, m.maximum].allSatisfy(\.isFinite) { d.summaries[i] = nil }
        }
        if let s = d.sleep, ![s.totalHours, s.coreHours ?? 0, s.deepHours ?? 0, s.remHours ?? 0, s.awakeHours ?? 0].allSatisfy(\.isFinite) {
            d.sleep = nil
        }
        d.workouts = d.workouts.map { w in
            var w = w
            func finite(_ v: Double?) -> Double? { v.flatMap { $0.isFinite ? $0 : nil } }
            w.energyKcal = finite(w.energyKcal)
            w.distanceMetres = finite(w.distanceMetres)
            w.averageHeartRate = finite(w.averageHeartRate)
            w.maximumHeartRate = finite(w.maximumHeartRate)
            if !w.durationSeconds.isFinite { w.durationSeconds = 0 }
            return w
        }
        return d
    }

    /// A day is written when any rule produced something for it.
    var hasContent: Bool {
        sleep != nil || !workouts.isEmpty || values.contains { $0 != nil } || summaries.contains { $0 != nil }
    }
}
