import Foundation
import Synchronization

/// Folds the sample stream into days (docs/rules.md): routes each sample to the accumulator of
/// its rule, then assembles the finished days. One accumulator a rule: `SumBook` (sum),
/// `DayAccumulators` (avg, latest, minmaxavg, the day's zone), `NightBook` (sleep, night-avg),
/// `RunningMechanics` (workout-avg) and `WorkoutBook` (workouts and their heart rate).
///
/// What it keeps is bounded by days and sources, except where a rule needs intervals: sum-rule
/// pieces (32 bytes) until their days are complete (at most `DayOptions.sumPieceBudget`),
/// heart-rate samples (8 bytes) for workouts that state no heart rate, spilled to a temporary
/// file a chunk at a time (`HeartRateSamples`), sleep samples (32 bytes), spilled the same way
/// until the finish (`SpilledList`), and running samples, which are few.
///
/// Without `--timezone` the book dates samples in the person's zone as the input's `HKTimeZone`
/// entries show it (`ZoneTimeline`), which is known only at the end of the pass (export.xml lists
/// the records that carry it last). A sample recorded more than `FringeKey.width` from a local
/// midnight keeps its recorded date when the zone is at most that far from the recorded offset;
/// one nearer is kept under its quarter-hour (`FringeKey`) and joins its date in `finish`. Sleep
/// and wrist-temperature samples are dated in `finish`. When the timeline is further from the
/// recorded offsets somewhere (a trip), `rereadTimeline` asks the caller for a second pass.
///
/// This file routes the samples; `finish`, a step a rule, is in `DayBook+Finish.swift`. The state
/// that step reads is internal rather than private only so that that file reaches it.
final class DayBook: SampleSink {
    private(set) var options: DayOptions
    let clock: LocalClock
    // `@exclusivity(unchecked)`: the state the book touches on every sample (one thread at a time:
    // `confinement`); why that is safe is the promise written on `SampleSink`.
    @exclusivity(unchecked) var days: [Int: DayAccumulators] = [:]
    @exclusivity(unchecked) private var lastDay = Int.min
    @exclusivity(unchecked) var lastState: DayAccumulators?
    @exclusivity(unchecked) var sums = SumBook()
    @exclusivity(unchecked) var nights = NightBook()
    @exclusivity(unchecked) var running = RunningMechanics()
    @exclusivity(unchecked) var workouts = WorkoutBook()
    @exclusivity(unchecked) var sources = SourceTable()
    /// Dating by the input's `HKTimeZone` timeline, known at the end (no `--timezone`, no timeline
    /// given): near-midnight samples wait in fringe slots, sleep and night-avg samples in lists.
    let dating: Bool
    @exclusivity(unchecked) var zoneNotes = ZoneNotes()
    @exclusivity(unchecked) var fringeSlots = FringeSlots()
    @exclusivity(unchecked) var fringeSums = SumBook(lag: FringeKey.lag)
    var pendingNightAvg = BlockList<(metric: Int, value: Double, end: Timestamp)>()
    /// The recorded offsets seen, the dates they gave, and whether one was not whole quarter-hours
    /// (its samples were dated at once): what `finish` checks the timeline against.
    @exclusivity(unchecked) private var lastOffset = Int32.min
    var offsets = (least: Int32.max, greatest: Int32.min)
    var dayRange = (first: Int.max, last: Int.min)
    var oddOffset = false
    var exportDate: Timestamp?
    /// How many `ExportDate` elements the input held: the reader skips a record after the one
    /// read last before it, so `compare`'s census trusts only one (`CompareWindowSide`).
    private(set) var exportDates = 0
    /// The latest instant the data reaches (a sample's or workout's end, a night's wake-up): the
    /// `device_sync_timestamp` of an input that states no export date (HAE, a trimmed export).
    /// It comes from the data, never from the file's modification time, so reading unchanged
    /// data again gives the same payloads byte for byte.
    @exclusivity(unchecked) var latestData = Timestamp(seconds: .min, offset: 0)
    /// One thread feeds the book (a reader's decoding thread), then `finish` runs on the caller's
    /// after the reader has waited for that thread (checked in debug builds).
    let confinement = ThreadConfinement()
    /// Apple's own daily totals (`ActivitySummary`) by local day, in payload units.
    private var appleTotals: [Int: AppleDailyTotals.Figures] = [:]
    static let heartRateIndex = Catalog.metric(named: "heart_rate_samples").index
    /// Samples received, readable from another thread (progress displays): the export reader
    /// feeds the day book from its tape-player thread.
    var samplesSeen: Int { seen.load(ordering: .relaxed) }
    private let seen = Atomic<Int>(0)

    /// Sum samples that arrived for a day already resolved (a file not grouped by type and
    /// date, larger than the budget): added without source resolution, and reported.
    var lateSumPieces: Int { sums.latePieces + fringeSums.latePieces + latePiecesOfFinishedSums }
    /// The late pieces of the sum books `finish` let go of.
    var latePiecesOfFinishedSums = 0
    /// Running-mechanics samples and buckets no running workout took (after `finish`).
    var runningOutsideRuns: Int { running.outsideRuns }
    /// The running workouts' intervals (seconds since 1970) by the local date they start on, as
    /// `finish` gave them to the running mechanics: `compare`'s census dates the running samples
    /// it cut by them (`CompareWindowSide`).
    var finishedRuns: [Int: [(Int64, Int64)]] = [:]
    /// Workouts that repeated one already read but for their creation date or app version (a sync's
    /// copies).
    var duplicateWorkouts: Int { workouts.duplicates }
    /// The starts of the workouts heard, and of the walked ones among them (`walkedWorkout`).
    private var workoutStarts = Set<Int64>(), walkedStarts = Set<Int64>()
    /// A walked workout shares its start with another, and which counts once (which the full
    /// read's identities tell) changes what the book holds: `compare` reads the side in full.
    private(set) var walkedWorkoutUnsure = false
    /// Heart-rate samples held in memory for the workouts now (at most a chunk; the rest are
    /// spilled): what tests read to see that memory stays bounded, not the process's RSS.
    var heartRatesInMemory: Int { workouts.heartRatesInMemory }
    /// Sum-rule pieces waiting for their dates now (tests read it to see them freed).
    var sumPiecesWaiting: Int { sums.waiting + fringeSums.waiting }
    /// How `finish` dated the samples.
    var datedBy: DayDating = .recordedOffsets
    /// Set by `finish` when the timeline is further than `FringeKey.width` from the recorded
    /// offsets somewhere: the days are exact only from a second pass with this timeline given
    /// (`DayOptions.timeline`).
    var rereadTimeline: ZoneTimeline?

    /// The sources of the data the source priority ranks (sums and sleep; and any source of a
    /// watch device): what `compare` says a side holds and `convert` checks `--source-priority`
    /// against (not read on the hot path).
    var sourceNames: [String] { sources.names }

    /// `explain`: hears where this book places the samples of one date and metric (nil: none).
    /// Read on every sample, hence unchecked like the state above.
    @exclusivity(unchecked) private(set) var attribution: DayAttribution?

    /// Lets `a` hear where this book places its date's samples. Call before the first sample.
    func attribute(to a: DayAttribution) {
        attribution = a
        sums.attribution = a
    }
    /// Marks sources as watches before any sample (`explain` replays a date's window of an input
    /// whose watches showed anywhere in it: `DateWindowRecorder`).
    func knowWatches(_ names: Set<String>) {
        for name in names.sorted() { sources.markWatch(name) }
    }
    /// The `HKTimeZone` timeline the input showed, when this book dated by it (after `finish`):
    /// `explain` reads again with it given, so that every sample is placed on arrival where its
    /// attribution can hear it.
    var timelineSeen: ZoneTimeline? { dating ? zoneNotes.timeline : nil }
    /// Whether this book waited for a timeline (no `--timezone`, none given): some of its samples
    /// were placed only in `finish`.
    var datedAtTheEnd: Bool { dating }
    /// The sources known to be watches: what the sum rule ranked first (`explain`).
    var watchSources: Set<String> { sources.watches }

    init(options: DayOptions = DayOptions()) {
        self.options = options
        if let timeline = options.timeline, options.timeZone == nil {
            clock = LocalClock(timeline: timeline)
        } else {
            clock = LocalClock(zone: options.timeZone)
        }
        dating = options.timeZone == nil && options.timeline == nil && !options.recordedOffsetsOnly
        sums.keptToTheEnd = options.exactDays
        fringeSums.keptToTheEnd = options.exactDays.map(FringeKey.keys(near:))
    }

    @inline(__always)
    func state(_ day: Int) -> DayAccumulators {
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
        if day < dayRange.first { dayRange.first = day }
        if day > dayRange.last { dayRange.last = day }
        return s
    }

    private func noteOffset(_ off: Int32) {
        lastOffset = off
        offsets = (min(offsets.least, off), max(offsets.greatest, off))
        if off % 900 != 0 { oddOffset = true }
    }

    // MARK: - SampleSink

    func exportDate(_ date: Timestamp) {
        exportDate = date
        exportDates += 1
    }

    func sample(_ s: Sample) {
        seen.wrappingAdd(1, ordering: .relaxed)
        confinement.check("a day book")
        if s.end.seconds > latestData.seconds { latestData = s.end }
        if s.deviceIsWatch { sources.markWatch(s.source) }
        if dating, let zone = s.timeZoneName { zoneNotes.note(zone, at: s.start.seconds) }
        guard let metric = s.metric else {
            if s.type == Catalog.sleepType, let text = s.valueText, let stage = SleepSegment.stage(for: text) {
                // A source the priority ranks (`ConvertOutcome.warnings`), and the waiting sample's.
                let source = sources.id(s.source)
                let segment = SleepSegment(start: s.start, end: s.end, stage: stage, source: s.source)
                // Dated in `finish` (`NightBook.place`), by the timeline's clock or this one.
                nights.addSample(WaitingSleepSample(segment, source: source))
                if !dating {
                    attribution?.sleepSample(s, position: Int32(nights.sleepSampleCount - 1), endDay: clock.day(s.end))
                    state(clock.day(s.start)).note(zone: s.timeZoneName, offset: s.start.offset)
                }
            }
            return
        }
        guard let value = s.canonicalValue else { return }
        if metric.rule == .workoutAvg {
            running.add(metric: metric.index, s, value, clock: clock)
            attribution?.runningSample(s, metric: metric.index, day: clock.day(s.start))
            return
        }
        let day = clock.day(s.start)
        if dating {
            let off = s.start.offset
            if off != lastOffset { noteOffset(off) }
            if metric.rule == .nightAvg {
                pendingNightAvg.append((metric.index, value, s.end))
                return
            }
            if off % 900 == 0 {
                let local = s.start.seconds + Int64(off), dayStart = Int64(day) * 86_400
                if FringeKey.isFringe(timeOfDay: local - dayStart)
                    || (metric.rule == .sum && s.end.seconds + Int64(off) > dayStart + 86_400 - FringeKey.width)
                {
                    fringe(metric, s, value, offset: off)
                    return
                }
            }
        }
        let d = state(day)
        d.note(zone: s.timeZoneName, offset: s.start.offset, order: dating ? samplesSeen : 0)
        switch metric.rule {
        case .sum:
            let waiting = sums.add(metric: metric.index, s, value, source: sources.id(s.source), firstDay: day, clock: clock)
            if waiting > options.sumPieceBudget { resolveLeftBehindDays() }
        case .avg:
            d.addAverage(metric: metric.index, value)
            attribution?.sample(s, metric: metric.index, day: day)
        case .minMaxAvg:
            d.minMaxAvg[metric.index, default: MinMaxAvgAccumulator()]
                .add(value, bucketMinimum: s.bucketMinimum, bucketMaximum: s.bucketMaximum, isBucket: s.isBucket)
            attribution?.sample(s, metric: metric.index, day: day)
            // Heart rate alone also feeds the workouts that state no heart rate of their own.
            if metric.index == Self.heartRateIndex { workouts.addHeartRate(s.start.seconds, value) }
        case .latest:
            d.addLatest(metric: metric.index, value, end: s.end.seconds)
            attribution?.sample(s, metric: metric.index, day: day)
        case .nightAvg:
            let night = clock.night(endingAt: s.end)
            nights.addNightAvg(metric: metric.index, value, night: night)
            attribution?.sample(s, metric: metric.index, day: night)
        case .workoutAvg:
            break  // kept above, before the day lookup
        }
    }

    /// A sample near a midnight (or a sum reaching one) while the timeline is not known yet: kept
    /// under its quarter-hour (`FringeKey`); a sum is cut at the quarter-hours of the fringe and
    /// at its edges, each piece under its slot or its date (`SumResolver` resolves overlap over
    /// time, so pieces resolved apart add up to what they give together).
    private func fringe(_ metric: Metric, _ s: Sample, _ value: Double, offset off: Int32) {
        let key = FringeKey.key(s.start.seconds, offset: off)
        // The slot's first zone and offset, for a date that the timeline does not name.
        let slot = fringeSlots.slot(key, zone: s.timeZoneName, offset: off, order: samplesSeen)
        switch metric.rule {
        case .sum:
            let source = sources.id(s.source), print = sums.fingerprint(s)
            let start = s.start.seconds, end = s.end.seconds
            let length = Double(end - start)
            var t = start
            var waiting = 0
            repeat {
                let local = t + Int64(off)
                let day = LocalClock.floorDiv(local, 86_400)
                let timeOfDay = local - Int64(day) * 86_400
                let inFringe = FringeKey.isFringe(timeOfDay: timeOfDay)
                let next = inFringe ? Int64(LocalClock.floorDiv(t, 900) + 1) * 900 : t + 86_400 - FringeKey.width - timeOfDay
                let pieceEnd = min(next, end)
                let share = length > 0 ? value * Double(pieceEnd - t) / length : value
                let piece = SumPiece(start: t, end: pieceEnd, value: share, source: source, fingerprint: print)
                if inFringe {
                    waiting = fringeSums.add(piece, metric: metric.index, key: FringeKey.key(t, offset: off)) + sums.waiting
                } else {
                    if day < dayRange.first { dayRange.first = day }
                    if day > dayRange.last { dayRange.last = day }
                    waiting = sums.add(piece, metric: metric.index, key: day) + fringeSums.waiting
                }
                t = pieceEnd
            } while t < end
            if waiting > options.sumPieceBudget { resolveLeftBehindDays() }
        case .avg:
            fringeSlots.addAverage(slot, metric: metric.index, value)
        case .minMaxAvg:
            fringeSlots.addMinMax(
                slot, metric: metric.index, value, bucketMinimum: s.bucketMinimum, bucketMaximum: s.bucketMaximum, isBucket: s.isBucket)
            if metric.index == Self.heartRateIndex { workouts.addHeartRate(s.start.seconds, value) }
        case .latest:
            fringeSlots.addLatest(slot, metric: metric.index, value, end: s.end.seconds)
        case .nightAvg, .workoutAvg:
            break  // kept before the fringe test
        }
        let day = LocalClock.floorDiv(s.start.seconds + Int64(off), 86_400)
        if day < dayRange.first { dayRange.first = day }
        if day > dayRange.last { dayRange.last = day }
    }

    func takeOver() { confinement.claim() }

    /// The input listed a metric whole (an HAE metric's array): the sum rule's dates and slots
    /// whose pieces all came since the last such call are resolved now, on the thread that feeds
    /// the book, and kept for `finish` (`SumBook.settle`), which then only collects them: the
    /// decoding thread has time to spare during the pass, the finish is on the critical path.
    /// A later piece for such a date drops its sum, so the days are those of a resolution at
    /// the end bit for bit.
    func metricEnded() {
        confinement.check("a day book")
        guard sums.waiting > 0 || fringeSums.waiting > 0 else { return }
        let names = sources.names, ranks = SourceRanks(priority: options.sourcePriority, watches: sources.watches)
        let context = sources.watchCount
        sums.settle(context: context) { SumResolver.resolve($0, sources: names, ranks: ranks) }
        fringeSums.settle(context: context) { SumResolver.resolve($0, sources: names, ranks: ranks) }
    }

    /// export.xml's records are over: the sum pieces of the dates every metric's stream has left
    /// two days behind are resolved and freed now (`resolveLeftBehindDays`, as when the budget is
    /// reached), not held through the workouts and the finish. Issue 24: up to 12 MB at the
    /// read's end, where memory peaks. Exact for an export grouped by type, as Apple writes it; a
    /// later piece of such a date is counted as late (`lateSumPieces`), as after a budget.
    func recordsEnded() {
        confinement.check("a day book")
        if sums.waiting > 0 || fringeSums.waiting > 0 { resolveLeftBehindDays() }
    }

    func workout(_ w: Workout) {
        confinement.check("a day book")
        if w.end.seconds > latestData.seconds { latestData = w.end }
        // A copy of a walked workout counts once in a full read, here twice: the same only if
        // its zone is noted to no effect.
        workoutStarts.insert(w.start.seconds)
        if walkedStarts.contains(w.start.seconds), !notesIdly(w) { walkedWorkoutUnsure = true }
        guard workouts.add(w) else { return }
        place(w)
    }

    /// `compare`'s window read: a workout outside the window read from its bytes (its type, source,
    /// dates and zone: `ExportWindow.walkWorkout`). Its date, source, run and zone are a full
    /// read's, unless it is a copy the full read counts once (`WorkoutIdentity`, which needs its
    /// children): a workout starting when another did is taken only when noting its zone changes
    /// nothing (a sync's copies follow each other with one zone), else the book is unsure.
    /// Its figures are not (never compared outside the window).
    func walkedWorkout(_ w: Workout) {
        confinement.check("a day book")
        if w.end.seconds > latestData.seconds { latestData = w.end }
        if !workoutStarts.insert(w.start.seconds).inserted, !notesIdly(w) { walkedWorkoutUnsure = true }
        walkedStarts.insert(w.start.seconds)
        workouts.addWalked(w)
        place(w)
    }

    /// Whether placing `w`, which starts when a workout placed before did, changes nothing the
    /// book holds: dating by the timeline, its zone's note (`ZoneNotes.isIdle`); else its date's
    /// zone and offset, the first noted kept (the other workout noted an offset, and a zone if
    /// it had one).
    private func notesIdly(_ w: Workout) -> Bool {
        guard let zone = w.timeZoneName else { return true }
        if dating { return zoneNotes.isIdle(zone, at: w.start.seconds) }
        return state(clock.day(w.start)).zoneName != nil
    }

    /// A workout counted: its zone noted (the timeline's, or its date's).
    private func place(_ w: Workout) {
        if dating, let zone = w.timeZoneName { zoneNotes.note(zone, at: w.start.seconds) }
        if !dating {
            let day = clock.day(w.start)
            state(day).note(zone: w.timeZoneName, offset: w.start.offset)
            attribution?.workout(w, day: day)
        }
    }

    func sleepSummary(_ night: SleepSummary) {
        if night.sleepEnd.seconds > latestData.seconds { latestData = night.sleepEnd }
        let day = clock.day(night.sleepEnd)
        nights.addSummary(night, night: day)
        attribution?.summary(night, night: day)
    }

    func activitySummary(_ summary: ActivitySummary) {
        guard let day = CivilDate.parseISODate(summary.date), let figures = AppleDailyTotals.Figures(summary) else { return }
        appleTotals[day] = figures
    }

    /// Apple's daily totals beside this book's, for the days that have both. Call after `finish`.
    func appleTotalsCheck(_ days: [FinishedDay]) -> AppleDailyTotals {
        AppleDailyTotals(apple: appleTotals, days: days)
    }

    /// Frees the sum pieces of days the input has left behind; when nothing is left behind (one
    /// enormous day?), raises the budget instead.
    private func resolveLeftBehindDays() {
        let names = sources.names, ranks = SourceRanks(priority: options.sourcePriority, watches: sources.watches)
        let context = sources.watchCount
        let waiting =
            sums.resolveLeftBehind(context: context) { SumResolver.resolve($0, sources: names, ranks: ranks) }
            + fringeSums.resolveLeftBehind(context: context) { SumResolver.resolve($0, sources: names, ranks: ranks) }
        if waiting > options.sumPieceBudget / 2 { options.sumPieceBudget = waiting * 2 }
        // The freed blocks and the days' groups go back now: the read is not over, and what it
        // allocates next comes from whichever thread's arena (`FreedMemory`).
        FreedMemory.giveBack()
    }
}
