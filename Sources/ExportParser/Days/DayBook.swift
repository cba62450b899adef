import Foundation
import Synchronization

/// Folds the sample stream into days, one small accumulator per rule (docs/rules.md).
///
/// What it keeps is bounded by days and sources, except where a rule needs intervals: sum-rule
/// samples are kept compactly (32 bytes) per day until the end of the input so overlapping
/// sources can be resolved exactly whatever the file order; heart-rate samples (8 bytes) for
/// workouts that state no heart rate; sleep and running samples, which are few.
public final class DayBook: SampleSink {
    public private(set) var options: DayOptions
    let clock: LocalClock
    private var days: [Int: DayState] = [:]
    private var nights: [Int: NightState] = [:]
    private var sources: [String] = []
    private var sourceIDs: [String: Int32] = [:]
    private var exportDate: Timestamp?
    /// Running-mechanics samples by metric index, 12 bytes each: start (seconds since 2001) and
    /// value at full precision, in two arrays.
    private var runningTimes: [Int: [Int32]] = [:]
    private var runningValues: [Int: [Double]] = [:]
    /// Running-mechanics buckets (HAE's day or hour statistics) by metric and local day: a
    /// bucket has no time inside a run, so it counts for its day when that day has a run.
    private var runningBuckets: [Int: [Int: (sum: Double, count: Int)]] = [:]
    /// Running-mechanics samples and buckets no running workout took: not in any payload, and
    /// said so in the summary.
    public private(set) var runningOutsideRuns = 0
    /// Workouts seen, to count a synced copy once (`WorkoutIdentity`), and the copies left out.
    private var workoutIdentities: Set<WorkoutIdentity> = []
    public private(set) var duplicateWorkouts = 0
    /// Source ids whose records came from a watch (`Sample.deviceIsWatch`).
    private var watchSourceIDs: [Bool] = []
    private var lastUnit: (String?, UInt64) = (nil, 0)
    /// Apple's own daily totals (`ActivitySummary`) by local day, in payload units.
    private var appleTotals: [Int: AppleDailyTotals.Figures] = [:]
    /// Heart-rate samples for workouts without their own heart-rate statistics, 8 bytes each: the
    /// start (seconds since 2001-01-01, biased to unsigned) in the high half and the rate's Float
    /// bits in the low half, so the array sorts by time in place, with no copies.
    private var heartRates: [UInt64] = []
    static let heartRateEpoch: Int64 = 978_307_200
    static let heartRateIndex = Catalog.metric(named: "heart_rate_samples").index
    private var workouts: [Workout] = []
    /// Samples received, readable from another thread (progress displays): the export reader
    /// feeds the day book from its tape-player thread.
    public var samplesSeen: Int { seen.load(ordering: .relaxed) }
    private let seen = Atomic<Int>(0)
    private var lastDay = Int.min
    private var lastState: DayState?
    /// Pieces waiting for resolution, and per sum metric the latest day its stream reached.
    private var bufferedPieces = 0
    private var sumWatermark: [Int: Int] = [:]
    /// Sum samples that arrived for a day already resolved (a file not grouped by type and
    /// date, larger than the budget): added without source resolution, and reported.
    public private(set) var lateSumPieces = 0

    public init(options: DayOptions = DayOptions()) {
        self.options = options
        self.clock = LocalClock(zone: options.timeZone)
    }

    final class DayState {
        var sumPieces: [Int: [SumPiece]] = [:]
        /// Sums already resolved (their pieces freed) when memory ran over budget.
        var resolvedSums: [Int: Double] = [:]
        var avgSum: [Int: Double] = [:]
        var avgCount: [Int: Int] = [:]
        var latest: [Int: (end: Int64, value: Double)] = [:]
        var minMaxAvg: [Int: MinMaxAvgAccumulator] = [:]
        var zoneName: String?
        var offset: Int32?

        /// The first zone name and recorded offset seen on the day name the payload's `timezone`.
        @inline(__always)
        func note(zone: String?, offset recorded: Int32) {
            if offset == nil { offset = recorded }
            if zoneName == nil, let zone { zoneName = zone }
        }
    }

    final class NightState {
        var segments: [SleepSegment] = []
        var summaries: [SleepSummary] = []
        var nightSum: [Int: Double] = [:]
        var nightCount: [Int: Int] = [:]
    }

    @inline(__always)
    private func state(_ day: Int) -> DayState {
        if day == lastDay, let s = lastState { return s }
        let s: DayState
        if let existing = days[day] {
            s = existing
        } else {
            s = DayState()
            days[day] = s
        }
        lastDay = day
        lastState = s
        return s
    }

    private func night(_ day: Int) -> NightState {
        if let s = nights[day] { return s }
        let s = NightState()
        nights[day] = s
        return s
    }

    private var lastSource: (String, Int32)?

    @inline(__always)
    private func sourceID(_ name: String) -> Int32 {
        if let (n, id) = lastSource, n == name { return id } // interned: usually the same string
        let id = lookupSource(name)
        lastSource = (name, id)
        return id
    }

    private func lookupSource(_ name: String) -> Int32 {
        if let id = sourceIDs[name] { return id }
        let id = Int32(sources.count)
        sources.append(name)
        sourceIDs[name] = id
        watchSourceIDs.append(false)
        return id
    }

    /// The sources known to be watches by their records' device.
    private var watchNames: Set<String> {
        Set(sources.indices.filter { watchSourceIDs[$0] }.map { sources[$0] })
    }

    /// Tells copies of one record from different records with the same source, times and value:
    /// their unit and metadata (`SumPiece.fingerprint`).
    @inline(__always)
    private func fingerprint(_ s: Sample) -> UInt32 {
        if s.unit != lastUnit.0 {
            var h = FNV1a()
            if let u = s.unit { h.add(u) }
            lastUnit = (s.unit, h.value)
        }
        let d = s.metadataDigest &* 0x9E37_79B9_7F4A_7C15 ^ lastUnit.1
        return UInt32(truncatingIfNeeded: d ^ (d >> 32))
    }

    // MARK: - SampleSink

    public func exportDate(_ date: Timestamp) { exportDate = date }

    public func sample(_ s: Sample) {
        seen.wrappingAdd(1, ordering: .relaxed)
        if s.deviceIsWatch { watchSourceIDs[Int(sourceID(s.source))] = true }
        guard let metric = s.metric else {
            if s.type == Catalog.sleepType, let text = s.valueText, let stage = SleepSegment.stage(for: text) {
                night(clock.night(endingAt: s.end)).segments.append(SleepSegment(start: s.start, end: s.end, stage: stage, source: s.source))
                state(clock.day(s.start)).note(zone: s.timeZoneName, offset: s.start.offset)
            }
            return
        }
        guard let value = s.canonicalValue else { return }
        if metric.rule == .workoutAvg {
            if s.isBucket {
                let day = clock.day(s.start)
                runningBuckets[metric.index, default: [:]][day, default: (0, 0)].sum += value
                runningBuckets[metric.index]![day]!.count += 1
                return
            }
            runningTimes[metric.index, default: []].append(Int32(clamping: s.start.seconds - Self.heartRateEpoch))
            runningValues[metric.index, default: []].append(value)
            return
        }
        let day = clock.day(s.start)
        let d = state(day)
        d.note(zone: s.timeZoneName, offset: s.start.offset)
        switch metric.rule {
        case .sum:
            addSum(metric, s, value, firstDay: day)
        case .avg:
            d.avgSum[metric.index, default: 0] += value
            d.avgCount[metric.index, default: 0] += 1
        case .minMaxAvg:
            d.minMaxAvg[metric.index, default: MinMaxAvgAccumulator()]
                .add(value, bucketMinimum: s.bucketMinimum, bucketMaximum: s.bucketMaximum, isBucket: s.isBucket)
            // Heart rate alone also feeds the workouts that state no heart rate of their own.
            if metric.index == Self.heartRateIndex { heartRates.append(Self.packHeartRate(s.start.seconds, value)) }
        case .latest:
            // The latest end wins; on a tie the later record in the file.
            if d.latest[metric.index].map({ $0.end <= s.end.seconds }) ?? true {
                d.latest[metric.index] = (s.end.seconds, value)
            }
        case .nightAvg:
            let n = night(clock.night(endingAt: s.end))
            n.nightSum[metric.index, default: 0] += value
            n.nightCount[metric.index, default: 0] += 1
        case .workoutAvg:
            break // kept above, before the day lookup
        }
    }

    public func workout(_ w: Workout) {
        guard workoutIdentities.insert(WorkoutIdentity(w)).inserted else {
            duplicateWorkouts += 1
            return
        }
        workouts.append(w)
        state(clock.day(w.start)).note(zone: w.timeZoneName, offset: w.start.offset)
    }

    public func sleepSummary(_ night: SleepSummary) {
        self.night(clock.day(night.sleepEnd)).summaries.append(night)
    }

    public func activitySummary(_ summary: ActivitySummary) {
        guard let day = CivilDate.parseISODate(summary.date), let figures = AppleDailyTotals.Figures(summary) else { return }
        appleTotals[day] = figures
    }

    /// Apple's daily totals beside this book's, for the days that have both. Call after `finish`.
    public func appleTotalsCheck(_ days: [FinishedDay]) -> AppleDailyTotals {
        AppleDailyTotals(apple: appleTotals, days: days)
    }

    /// Splits a sum sample at local midnights in proportion to time, then keeps the pieces.
    private func addSum(_ metric: Metric, _ s: Sample, _ value: Double, firstDay: Int) {
        let source = sourceID(s.source)
        let print = fingerprint(s)
        if firstDay > sumWatermark[metric.index, default: Int.min] { sumWatermark[metric.index] = firstDay }
        let lastDay = clock.day(s.end)
        defer { if bufferedPieces > options.sumPieceBudget { resolveLeftBehindDays() } }
        if clock.day(s.end) == firstDay || s.end.seconds <= s.start.seconds {
            keep(SumPiece(start: s.start.seconds, end: s.end.seconds, value: value, source: source, fingerprint: print), metric: metric.index, day: firstDay)
            return
        }
        let length = Double(s.end.seconds - s.start.seconds)
        var pieceStart = s.start.seconds
        for day in firstDay...lastDay {
            let pieceEnd = day == lastDay ? s.end.seconds : clock.midnight(day: day + 1, recordedOffset: s.start.offset)
            if pieceEnd > pieceStart {
                let share = value * Double(pieceEnd - pieceStart) / length
                keep(SumPiece(start: pieceStart, end: pieceEnd, value: share, source: source, fingerprint: print), metric: metric.index, day: day)
            }
            pieceStart = max(pieceStart, pieceEnd)
        }
    }

    private func keep(_ piece: SumPiece, metric: Int, day: Int) {
        let d = state(day)
        if d.resolvedSums[metric] != nil, d.sumPieces[metric] == nil { lateSumPieces += 1 }
        d.sumPieces[metric, default: []].append(piece)
        bufferedPieces += 1
    }

    /// Resolves, for each sum metric, the days its stream has left at least two days behind, and
    /// frees their pieces. Exports list records grouped by type and in date order within a type,
    /// so such days are complete; a piece that still comes later is counted in `lateSumPieces`.
    private func resolveLeftBehindDays() {
        for (n, d) in days {
            for (metric, pieces) in d.sumPieces {
                guard let mark = sumWatermark[metric], n <= mark - 2 else { continue }
                let value = SumResolver.resolve(pieces, sources: sources, priority: options.sourcePriority, watches: watchNames)
                d.resolvedSums[metric, default: 0] += value
                d.sumPieces[metric] = nil
                bufferedPieces -= pieces.count
            }
        }
        // Still over budget with nothing left behind (one enormous day?): raise the bar.
        if bufferedPieces > options.sumPieceBudget / 2 { options.sumPieceBudget = bufferedPieces * 2 }
    }

    // MARK: - Finishing

    /// Runs every rule and returns the days in date order. Call once, after the last input.
    public func finish() -> [FinishedDay] {
        let syncDate = exportDate ?? options.fallbackExportDate
        let syncText = syncDate.map { clock.iso($0) } ?? "1970-01-01T00:00:00+00:00"
        var out: [Int: FinishedDay] = [:]
        let watches = watchNames

        func day(_ n: Int) -> FinishedDay {
            if let d = out[n] { return d }
            let st = days[n]
            let zone: String
            if let tz = options.timeZone { zone = tz.identifier }
            else if let name = st?.zoneName { zone = name }
            else if let off = st?.offset { zone = CivilDate.offsetString(off) }
            else if let tz = nights[n]?.segments.first?.start.offset { zone = CivilDate.offsetString(tz) }
            else { zone = CivilDate.offsetString(syncDate?.offset ?? 0) }
            return FinishedDay(dayNumber: n, timezone: zone, deviceSyncTimestamp: syncText)
        }

        for (n, st) in days {
            var d = day(n)
            for (i, pieces) in st.sumPieces {
                d.values[i] = SumResolver.resolve(pieces, sources: sources, priority: options.sourcePriority, watches: watches)
            }
            for (i, v) in st.resolvedSums { d.values[i] = (d.values[i] ?? 0) + v }
            for (i, sum) in st.avgSum { d.values[i] = sum / Double(st.avgCount[i]!) }
            for (i, l) in st.latest { d.values[i] = l.value }
            for (i, acc) in st.minMaxAvg { d.summaries[i] = acc.summary }
            out[n] = d
        }
        for (n, ns) in nights {
            var d = day(n)
            for (i, sum) in ns.nightSum { d.values[i] = sum / Double(ns.nightCount[i]!) }
            if let r = SleepNight.resolve(ns.segments, priority: options.sourcePriority, clock: clock, watches: watches) {
                d.sleep = r
            } else if !ns.summaries.isEmpty {
                d.sleep = summarize(ns.summaries)
            }
            out[n] = d
        }
        finishWorkouts(into: &out, day: day)
        return out.values.map(\.withFiniteValues).filter { $0.hasContent }.sorted { $0.dayNumber < $1.dayNumber }
    }

    private func summarize(_ list: [SleepSummary]) -> SleepResult {
        func total(_ k: KeyPath<SleepSummary, Double?>) -> Double? {
            let v = list.compactMap { $0[keyPath: k] }
            return v.isEmpty ? nil : v.reduce(0, +)
        }
        var r = SleepResult(totalHours: list.reduce(0) { $0 + $1.totalHours })
        r.coreHours = total(\.coreHours)
        r.deepHours = total(\.deepHours)
        r.remHours = total(\.remHours)
        r.awakeHours = total(\.awakeHours)
        // The in-bed window covers the sleep it frames.
        let starts = list.flatMap { [$0.inBedStart, $0.sleepStart].compactMap { $0 } }
        let ends = list.flatMap { [$0.inBedEnd, $0.sleepEnd].compactMap { $0 } }
        if let s = starts.min() { r.inBedStart = clock.iso(s) }
        if let e = ends.max() { r.inBedEnd = clock.iso(e) }
        r.source = list.compactMap(\.source).first
        return r
    }

    private func finishWorkouts(into out: inout [Int: FinishedDay], day: (Int) -> FinishedDay) {
        guard !workouts.isEmpty else {
            runningOutsideRuns = runningTimes.values.reduce(0) { $0 + $1.count }
                + runningBuckets.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } }
            return
        }
        // Heart-rate samples are needed only for workouts that state no heart rate of their own
        // (exports before iOS 16); sorted in place once if so, and freed either way.
        let needsSamples = workouts.contains { WorkoutFigures.needsHeartRateSamples($0) }
        if needsSamples { heartRates.sort() } else { heartRates = [] }
        let hr = heartRates
        heartRates = []
        var runIntervals: [Int: [(Int64, Int64)]] = [:]
        // Running samples sorted by time (seconds since 2001) once, for binary searches.
        var sortedRunning: [Int: ([Int32], [Double])] = [:]
        for (metric, times) in runningTimes {
            let values = runningValues[metric]!
            let order = times.indices.sorted { times[$0] < times[$1] }
            sortedRunning[metric] = (order.map { times[$0] }, order.map { values[$0] })
        }

        for w in workouts.sorted(by: { $0.start.seconds < $1.start.seconds }) {
            let n = clock.day(w.start)
            var d = out[n] ?? day(n)
            d.workouts.append(WorkoutFigures.summary(of: w, clock: clock, heartRate: hr))
            if w.activityType == "HKWorkoutActivityTypeRunning" { runIntervals[n, default: []].append((w.start.seconds, w.end.seconds)) }
            out[n] = d
        }
        var taken = 0
        for (n, intervals) in runIntervals {
            guard var d = out[n] else { continue }
            for metric in Catalog.metrics where metric.rule == .workoutAvg {
                var sum = 0.0, count = 0
                if let (times, values) = sortedRunning[metric.index] {
                    // Overlapping runs merged first, so a sample inside two of them counts once.
                    for (start, end) in Self.merged(intervals) {
                        var i = Self.lowerBound(times, Int64(start))
                        while i < times.count, Int64(times[i]) <= end {
                            sum += values[i]
                            count += 1
                            i += 1
                        }
                    }
                }
                // A bucket (HAE's day figure) counts for its day's runs, each bucket as one value.
                if let b = runningBuckets[metric.index]?.removeValue(forKey: n) {
                    sum += b.sum
                    count += b.count
                    taken -= b.count // counted below among the buckets
                }
                taken += count
                if count > 0 { d.values[metric.index] = sum / Double(count) }
            }
            out[n] = d
        }
        let heldSamples = runningTimes.values.reduce(0) { $0 + $1.count }
        let leftBuckets = runningBuckets.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } }
        runningOutsideRuns = max(0, heldSamples - taken) + leftBuckets
        runningBuckets = [:]
    }
}

extension DayBook {
    @inline(__always)
    static func packHeartRate(_ seconds: Int64, _ value: Double) -> UInt64 {
        let t = UInt32(truncatingIfNeeded: Int64(Int32(clamping: seconds - heartRateEpoch)) + 0x8000_0000)
        return UInt64(t) << 32 | UInt64(Float(value).bitPattern)
    }

    /// The packed sample's (start seconds since 1970, rate).
    @inline(__always)
    static func unpackHeartRate(_ packed: UInt64) -> (Int64, Double) {
        (Int64(UInt32(packed >> 32)) - 0x8000_0000 + heartRateEpoch, Double(Float(bitPattern: UInt32(truncatingIfNeeded: packed))))
    }

    /// Closed intervals, in seconds since 2001, merged where they overlap.
    static func merged(_ intervals: [(Int64, Int64)]) -> [(Int64, Int64)] {
        var out: [(Int64, Int64)] = []
        for (s, e) in intervals.map({ ($0.0 - heartRateEpoch, $0.1 - heartRateEpoch) }).sorted(by: { $0.0 < $1.0 }) {
            if let last = out.last, s <= last.1 { out[out.count - 1].1 = max(last.1, e) } else { out.append((s, e)) }
        }
        return out
    }

    /// First index whose time is at least `t`.
    static func lowerBound(_ times: [Int32], _ t: Int64) -> Int {
        var lo = 0, hi = times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int64(times[mid]) < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
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
