import Foundation

/// `DayBook.finish`: every rule's days, a step a rule, then put together in date order.
///
/// The steps run in this order, and the order is part of the result (several add floats into the
/// same day, and a day's values are set one rule after another): the sum rule's dates start
/// resolving on a thread of their own (`startSumTotals`); with the input's timeline to date by,
/// the samples that waited near a midnight join their dates (`placeFringes`); the sleep samples
/// are placed and the nights start on a thread of their own (`startNights`); then the days of
/// the per-day accumulators are made (`DayAccumulators.finish`), workouts and running finish in
/// their books (`WorkoutBook.finish`, `RunningMechanics.finish`), and the sums, the fringe sums,
/// the nights, the workouts and the running means are put into the days.
extension DayBook {
    /// What the finish's sum resolutions share, taken from the book before it lets go of its
    /// sums.
    struct SumResolution {
        let names: [String]
        let priority: SourcePriority
        let watches: Set<String>
        /// `SourceTable.watchCount`, the context a settled date was resolved in.
        let context: Int
    }

    /// `FreedMemory.giveBack` between the finish's phases, for a book that read enough for it to
    /// matter (a trim walks the whole heap: a few milliseconds each time a test's book finishes).
    private func giveBackIfLarge() {
        if samplesSeen > 100_000 { FreedMemory.giveBack() }
    }

    /// Runs every rule and returns the days in date order. Call once, after the last input.
    ///
    /// With `parallel` (the default) the sum rule's dates ("day-sums") and, once the waiting sleep
    /// samples are placed, the nights ("day-nights") are resolved on threads of their own
    /// (`FinishingWork`) while this one makes the other rules' days and finishes workouts and
    /// running: nothing they use is written any more (the books are only read from here on; the
    /// nights get a clock of their own, as a clock caches), and their results are put together here in the same
    /// order as `parallel: false` does, so the days are the same bit for bit
    /// (`DayBookParallelFinishTests`). This runs after the reading, on the
    /// critical path of every convert (docs/performance.md, "Finishing the days").
    func finish(parallel: Bool = true) -> [FinishedDay] {
        confinement.claim()
        let resolution = SumResolution(
            names: sources.names, priority: options.sourcePriority, watches: sources.watches, context: sources.watchCount)
        // Optional, and emptied once its value is taken: a finished part holds its value, and the
        // list of every date's sums (4.4 MB at 12,205 dates) or nights would otherwise live to the
        // end of the finish, beside the days made (issue 24).
        var sumTotals: FinishingWork<[SumTotal]>? = startSumTotals(resolution, parallel: parallel)
        // The clock the waiting samples, the nights and the workouts are dated with.
        var clock = self.clock
        var fringeTotals: [Int: [Int: Double]] = [:]
        if dating {
            (clock, fringeTotals) = placeFringes(resolution)
        } else {
            datedBy = options.timeZone != nil ? .runZone : .timeline
        }
        var finishedNights: FinishingWork<[Int: NightResult]>? = startNights(resolution, clock: clock, parallel: parallel)
        let syncDate = exportDate ?? (latestData.seconds == .min ? nil : latestData)
        let syncText = syncDate.map { clock.iso($0) } ?? "1970-01-01T00:00:00+00:00"
        // The days made, in the order they were made, and where each date's is: one list that is
        // filtered and sorted in place at the end. A dictionary of the days themselves (16,384
        // slots at 12,205 dates, each day inline) was held beside the list made from it at the
        // end of a 33-year export's finish (issue 24).
        var made: [FinishedDay] = []
        made.reserveCapacity(days.count)
        var position: [Int: Int] = [:]
        position.reserveCapacity(days.count)
        let wanted = options.finishedDays
        /// Whether the day of `n` is made (`DayOptions.finishedDays`).
        func wants(_ n: Int) -> Bool { wanted?.contains(n) ?? true }
        func put(_ n: Int, _ d: FinishedDay) {
            if let i = position[n] {
                made[i] = d
            } else {
                position[n] = made.count
                made.append(d)
            }
        }

        /// A date's zone: the run's, else the timeline's at the date's start, else the first zone
        /// name or offset seen that date, else the offset of its night's first sleep sample, else
        /// the export date's.
        func day(_ n: Int, state: DayAccumulators? = nil) -> FinishedDay {
            if let i = position[n] { return made[i] }
            let st = state ?? days[n]
            let zone: String
            if let name = clock.zoneName(day: n) {
                zone = name
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

        // Each date's accumulators are freed as its day is made (memory peaks here at the end of a
        // long export); every later lookup of such a date finds its day in `out`.
        // The nights are awaited before the days are made, not after: the `day-nights` thread
        // holds every sleep sample (8.3 MB and an 8-byte index each in 33 years) until it is
        // done, and the days made hold a slot for each metric (about 10 MB at 12,205 dates); made
        // side by side they were the peak of a 6.4 GB export with the store (issue 24: 104 →
        // 98 MB). What it costs is the overlap: the nights' time (about 0.1 s there) is no
        // longer spent beside the days' loop. Their results are merged where they were.
        func takeNights() -> [Int: NightResult] {
            defer { finishedNights = nil }
            return finishedNights?.value() ?? [:]
        }
        var nightsByDate = options.nightsBesideDays ? [:] : takeNights()
        lastState = nil
        while let (n, st) = days.popFirst() {
            guard wants(n) else { continue }
            var d = day(n, state: st)
            st.finish(into: &d)
            put(n, d)
        }
        giveBackIfLarge()  // the accumulators just freed (as above)
        // The other rules are finished before the sums are awaited (they read no day made here), and
        // put in after them as before.
        let (summaries, runs) = workouts.finish(clock: clock)
        let runningMeans = running.finish(runs: runs)
        finishedRuns = runs
        // With `nightsBesideDays` the nights are taken now, the days above made meanwhile; they
        // are merged below as in the other order (the merge's order is what makes the days).
        if options.nightsBesideDays { nightsByDate = takeNights() }
        // In day order, a day's metrics together: each day is taken out and put back once.
        do {
            let totals = sumTotals?.value() ?? []
            sumTotals = nil
            var t = 0
            while t < totals.count {
                let n = totals[t].day
                guard wants(n) else {
                    t += 1
                    continue
                }
                var d = day(n)
                while t < totals.count, totals[t].day == n {
                    d.values[totals[t].metric] = totals[t].value
                    t += 1
                }
                put(n, d)
            }
        }
        for (n, totals) in fringeTotals where wants(n) {
            var d = day(n)
            for (i, v) in totals { d.values[i] = (d.values[i] ?? 0) + v }
            put(n, d)
        }
        fringeTotals = [:]
        for (n, night) in nightsByDate where wants(n) {
            var d = day(n)
            for (i, v) in night.means { d.values[i] = v }
            if let sleep = night.sleep { d.sleep = sleep }
            put(n, d)
        }
        for (n, w) in summaries where wants(n) {
            var d = day(n)
            d.workouts.append(w)
            put(n, d)
        }
        for (n, means) in runningMeans where wants(n) {
            var d = day(n)
            for (i, v) in means { d.values[i] = v }
            put(n, d)
        }
        // Made finite, filtered and sorted in place (day numbers are unique: the order they were
        // made in does not show): every date of a long export is held here, and a second list
        // built from the first would hold them twice.
        position = [:]
        for i in made.indices { made[i] = made[i].withFiniteValues }
        made.removeAll { !$0.hasContent }
        // Through an index of positions: a sort of the days themselves held half of them again
        // in its merge buffer (`IndexSort`).
        IndexSort.sort(&made) { $0.dayNumber }
        return made
    }

    /// A night's means (night-avg) and sleep, as the nights' thread gives them.
    typealias NightResult = NightBook.NightResult

    /// The sum rule: its dates resolve on their own thread from here (the book is not touched
    /// again until their value is taken), with ranks of its own (`SourceRanks` caches).
    private func startSumTotals(_ r: SumResolution, parallel: Bool) -> FinishingWork<[SumTotal]> {
        let sumBook = Box(sums), context = r.context, names = r.names, priority = r.priority, watches = r.watches
        // The box's copy is the pieces' last holder from here: the thread frees them once their
        // totals are made (issue 24: 12 MB of a 6.4 GB export's finish peak held them to the end).
        latePiecesOfFinishedSums += sums.latePieces
        sums = SumBook()
        return FinishingWork("day-sums", parallel: parallel) { [sumBook] in
            let ranks = SourceRanks(priority: priority, watches: watches)
            defer { sumBook.value = nil }
            return sumBook.value?.totals(context: context) { SumResolver.resolve($0, sources: names, ranks: ranks) } ?? []
        }
    }

    /// Dating by the input's timeline (no `--timezone`): the clock of that timeline (or this
    /// book's, when the input named no zone), the fringe slots merged into their dates' days and
    /// the fringe sums' totals by date, to be added to the sum rule's. Sets `datedBy` and, when
    /// the timeline is far from the recorded offsets somewhere, `rereadTimeline`.
    private func placeFringes(_ r: SumResolution) -> (LocalClock, [Int: [Int: Double]]) {
        var clock = self.clock
        let names = r.names, priority = r.priority, watches = r.watches, context = r.context
        var fringeTotals: [Int: [Int: Double]] = [:]
        let timeline = zoneNotes.timeline
        if let timeline {
            clock = LocalClock(timeline: timeline)
            datedBy = .timeline
            if offsets.least <= offsets.greatest, dayRange.first <= dayRange.last {
                let span = (Int64(dayRange.first) - 1) * 86_400...(Int64(dayRange.last) + 2) * 86_400
                let shift = timeline.largestShift(over: span, recorded: offsets.least...offsets.greatest)
                if shift > FringeKey.width || oddOffset { rereadTimeline = timeline }
            }
        }
        let slotClock = timeline == nil ? nil : clock
        // In key (time) order too: a date's averages and extremes add slot by slot, and a tie of
        // latest values keeps the first merged, so a Dictionary's order (seeded per process)
        // could change a value's last bits from one run to the next.
        fringeSlots.mergeAll(into: { state(FringeKey.day($0, clock: slotClock)) }, isLatest: { Catalog.metrics[$0].rule == .latest })
        // Slots in key (time) order (`totals` gives them so): several slots add into one day,
        // and an unsorted walk (a Dictionary's order is seeded per process) made the float sum
        // differ by run.
        let ranks = SourceRanks(priority: priority, watches: watches)
        for t in fringeSums.totals(context: context, { SumResolver.resolve($0, sources: names, ranks: ranks) }) {
            fringeTotals[FringeKey.day(t.day, clock: slotClock), default: [:]][t.metric, default: 0] += t.value
        }
        latePiecesOfFinishedSums += fringeSums.latePieces
        fringeSums = SumBook(lag: FringeKey.lag)
        // The slots are merged: freed, and with what the merge left, handed back to the kernel
        // before the waiting samples are placed (the finish allocates on this thread and two
        // others, each from its own arena; peak RSS is the sum of such phases: issue 24).
        giveBackIfLarge()
        return (clock, fringeTotals)
    }

    /// The nights: the sleep samples waiting for the timeline are placed (and, dating by it, the
    /// night-avg samples), then the nights resolve on their own thread, with a clock of their own
    /// (a clock caches); this thread only reads them from here on (a date's zone).
    private func startNights(_ r: SumResolution, clock: LocalClock, parallel: Bool) -> FinishingWork<[Int: NightResult]> {
        let priority = r.priority, watches = r.watches, names = r.names
        if dating {
            pendingNightAvg.drain { p in nights.addNightAvg(metric: p.metric, p.value, night: clock.night(endingAt: p.end)) }
        }
        nights.place(clock: clock)
        if let a = attribution { a.keepSleepSamples(nights.positions(night: a.day)) }
        let nightBook = Box(nights), nightClock = Box(parallel ? clock.twin() : clock), wanted = options.finishedDays
        // The window read's nights in two halves, one more thread (`NightBook.finish`).
        let halves = parallel && options.nightsBesideDays
        let work = FinishingWork<[Int: NightResult]>("day-nights", parallel: parallel) { [nightBook, nightClock] in
            // The box's copy holds the sleep samples from here, freed once the nights are made.
            defer { nightBook.value = nil }
            let nights = nightClock.value.flatMap { c in
                nightBook.value?.finish(priority: priority, clock: c, watches: watches, names: names, days: wanted, halves: halves)
            }
            return nights ?? [:]
        }
        nights.releaseSamples()
        return work
    }
}
