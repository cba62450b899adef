/// The workouts of one input: each kept once (`WorkoutIdentity.syncCopy`: a sync's copies, and an
/// app's rewrite after an update, count once), and
/// the heart-rate samples that workouts stating no heart rate of their own (exports before
/// iOS 16) take theirs from.
struct WorkoutBook {
    private var workouts: [Workout] = []
    /// Where each kept workout is, by its identity's hash (`WorkoutIdentity.syncCopy`). A new
    /// workout is compared with the kept ones of the same hash through identities rebuilt for
    /// the comparison, so the book holds an index a workout, not a second copy of its identity
    /// (a `Set<WorkoutIdentity>` was 4.2 MB, and a device text a workout 1 MB more, of the 3 GB
    /// export's heap peak: issue 24).
    private var kept: [Int: [Int]] = [:]
    private(set) var duplicates = 0
    /// Heart-rate samples, 8 bytes each: the start (seconds since 2001-01-01, biased to unsigned)
    /// in the high half and the rate's Float bits in the low half, so they sort by time in place,
    /// with no copies. Spilled to a temporary file a chunk at a time (`HeartRateSamples`).
    private var heartRates = HeartRateSamples()
    /// Samples the book holds in memory now (bounded by a chunk, however long the input).
    var heartRatesInMemory: Int { heartRates.inMemory }

    /// Seconds from 1970 to 2001-01-01, the epoch of the packed times (they fit 32 bits).
    static let epoch: Int64 = 978_307_200

    /// Whether the workout is new (a copy of one already kept is counted and dropped).
    mutating func add(_ w: Workout) -> Bool {
        let identity = WorkoutIdentity.syncCopy(w)
        let hash = identity.hashValue
        if let same = kept[hash], same.contains(where: { WorkoutIdentity.syncCopy(workouts[$0]) == identity }) {
            duplicates += 1
            return false
        }
        kept[hash, default: []].append(workouts.count)
        workouts.append(w)
        return true
    }

    @inline(__always)
    mutating func addHeartRate(_ seconds: Int64, _ value: Double) { heartRates.append(Self.pack(seconds, value)) }

    /// The workouts in start order with their payload figures, each with the local day it starts
    /// on, and the running workouts' intervals by day (for the running mechanics).
    mutating func finish(clock: LocalClock) -> (summaries: [(day: Int, summary: WorkoutSummary)], runs: [Int: [(Int64, Int64)]]) {
        guard !workouts.isEmpty else { return ([], [:]) }
        // Heart-rate samples are needed only for workouts that state no heart rate of their own:
        // those inside their intervals are kept (sorted), and the rest freed.
        let hr = heartRates.take(
            within: workouts.filter(WorkoutFigures.needsHeartRateSamples).map { ($0.start.seconds, $0.end.seconds) })
        var summaries: [(day: Int, summary: WorkoutSummary)] = []
        var runs: [Int: [(Int64, Int64)]] = [:]
        for w in workouts.sorted(by: { $0.start.seconds < $1.start.seconds }) {
            let n = clock.day(w.start)
            summaries.append((n, WorkoutFigures.summary(of: w, clock: clock, heartRate: hr)))
            if w.activityType == "HKWorkoutActivityTypeRunning" { runs[n, default: []].append((w.start.seconds, w.end.seconds)) }
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
