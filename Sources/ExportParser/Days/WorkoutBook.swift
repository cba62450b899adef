/// The workouts of one input: each kept once (`WorkoutIdentity.syncCopy`: a sync's copies, and an
/// app's rewrite after an update, count once), and
/// the heart-rate samples that workouts stating no heart rate of their own (exports before
/// iOS 16) take theirs from.
struct WorkoutBook {
    /// What the payload needs of each workout (`KeptWorkout`), not the whole workout.
    private var workouts: [KeptWorkout] = []
    /// The identities of the workouts kept, as 64-bit digests (`WorkoutIdentity.syncCopyKey`:
    /// equal when the store's natural key, `digest`, of their sync copies is), so that what is
    /// held a workout is a number, not a second copy of its statistics, activities and device
    /// text (a `Set<WorkoutIdentity>` was 4.2 MB of the 3 GB export's heap peak, the workouts
    /// themselves 20 MB: issue 24). Two different workouts count as one only if their digests
    /// collide (about one chance in 2^64 a pair).
    private var identities: Set<UInt64> = []
    private(set) var duplicates = 0
    /// Heart-rate samples, 8 bytes each: the start (seconds since 2001-01-01, biased to unsigned)
    /// in the high half and the rate's Float bits in the low half, so they sort by time in place,
    /// with no copies. Spilled to a temporary file a chunk at a time (`HeartRateSamples`).
    private var heartRates = HeartRateSamples()
    /// Samples read back a group at a time at the finish (`HeartRateSamples.forEachGroup`).
    var heartRateGroupBudget = HeartRateSamples.groupBudget
    /// Samples the book holds in memory now (bounded by a chunk, however long the input).
    var heartRatesInMemory: Int { heartRates.inMemory }

    /// Seconds from 1970 to 2001-01-01, the epoch of the packed times (they fit 32 bits).
    static let epoch: Int64 = 978_307_200

    /// Whether the workout is new (a copy of one already kept is counted and dropped).
    mutating func add(_ w: Workout) -> Bool {
        guard identities.insert(WorkoutIdentity.syncCopyKey(w)).inserted else {
            duplicates += 1
            return false
        }
        workouts.append(WorkoutFigures.kept(w))
        return true
    }

    /// A walked workout (`DayBook.walkedWorkout`): no identity to count it once by, and no
    /// figures, so no heart-rate samples wanted for it (it is outside the window read's reach,
    /// where they were cut).
    mutating func addWalked(_ w: Workout) {
        var kept = WorkoutFigures.kept(w)
        kept.needsHeartRateSamples = false
        workouts.append(kept)
    }

    /// The latest end (seconds since 1970) of the workouts starting in `starts` that take their
    /// heart rate from the samples (they state none of their own); nil when there are none. A
    /// window read holds the heart rate of its window and margin only: such a workout ending
    /// after them would lack samples a full read gives it.
    /// `orRunning`: runs too, whose running mechanics are the samples inside them (`explain`).
    func latestEndTakingSamples(startingIn starts: ClosedRange<Int64>, orRunning: Bool = false) -> Int64? {
        workouts.filter { ($0.needsHeartRateSamples || (orRunning && $0.isRunning)) && starts.contains($0.start.seconds) }
            .map(\.end.seconds).max()
    }

    @inline(__always)
    mutating func addHeartRate(_ seconds: Int64, _ value: Double) { heartRates.append(Self.pack(seconds, value)) }

    /// The workouts in start order with their payload figures, each with the local day it starts
    /// on, and the running workouts' intervals by day (for the running mechanics).
    mutating func finish(clock: LocalClock) -> (summaries: [(day: Int, summary: WorkoutSummary)], runs: [Int: [(Int64, Int64)]]) {
        guard !workouts.isEmpty else { return ([], [:]) }
        let sorted = workouts.sorted(by: { $0.start.seconds < $1.start.seconds })
        // Heart-rate samples are needed only for workouts that state no heart rate of their own:
        // those inside their intervals are read back a group of intervals at a time (sorted), and
        // each such workout's figures made from its group, which holds every sample inside it in
        // the order the whole sorted array would (`HeartRateSamples.forEachGroup`). A workout that
        // ends before it starts has none either way.
        let needing = sorted.indices.filter { sorted[$0].needsHeartRateSamples && sorted[$0].start.seconds <= sorted[$0].end.seconds }
        var made = [WorkoutSummary?](repeating: nil, count: sorted.count)
        let intervals = needing.map { (sorted[$0].start.seconds, sorted[$0].end.seconds) }
        heartRates.forEachGroup(within: intervals, budget: heartRateGroupBudget) { range, hr in
            for i in needing where range.contains(sorted[i].start.seconds) {
                made[i] = WorkoutFigures.summary(of: sorted[i], clock: clock, heartRate: hr)
            }
        }
        var summaries: [(day: Int, summary: WorkoutSummary)] = []
        var runs: [Int: [(Int64, Int64)]] = [:]
        for (i, w) in sorted.enumerated() {
            let n = clock.day(w.start)
            summaries.append((n, made[i] ?? WorkoutFigures.summary(of: w, clock: clock, heartRate: [])))
            if w.isRunning { runs[n, default: []].append((w.start.seconds, w.end.seconds)) }
        }
        return (summaries, runs)
    }

    @inline(__always)
    static func pack(_ seconds: Int64, _ value: Double) -> UInt64 {
        let t = UInt32(truncatingIfNeeded: Int64(Int32(clamping: seconds - epoch)) + 0x8000_0000)
        return UInt64(t) << 32 | UInt64(Float(value).bitPattern)
    }

    /// The packed sample's (start seconds since 1970, rate).
    @inline(__always)
    static func unpack(_ packed: UInt64) -> (Int64, Double) {
        (Int64(UInt32(packed >> 32)) - 0x8000_0000 + epoch, Double(Float(bitPattern: UInt32(truncatingIfNeeded: packed))))
    }
}
