import ExportParser

/// The planner's working state for one date: the plan being decided, the records written from
/// it, and the day's clock. Each planner (sleep, workouts, activity, vitals, food) takes it in
/// turn, each with its own random stream so that one planner's draws never shift another's.
struct DayContext {
    let day: Int
    let clock: FixtureClock
    let profile: FixtureProfile
    let units: FixtureUnits
    let seed: UInt64
    /// The range's first and last dates.
    let firstDay: Int
    let lastDay: Int
    var plan: DayPlan
    var records: [FixtureRecord] = []
    var correlations: [FixtureCorrelation] = []
    /// Steps of the midnight-crossing samples: the half this date gets from the one that ends
    /// this morning and from the one that starts tonight (a sample split at midnight).
    var crossingSteps: (morning: Int, night: Int) = (0, 0)
    /// Walking bouts (start, end) outside workouts, chosen by the activity planner.
    var bouts: [(start: Int64, end: Int64)] = []
    /// The (start, end, value) of every heart-rate sample written, for workouts without their
    /// own heart-rate statistics.
    var heartRates: [(t: Int64, bpm: Int)] = []
    /// Where the next creation date's few seconds of delay come from.
    private var creationRandom: FixtureRandom

    init(day: Int, clock: FixtureClock, profile: FixtureProfile, units: FixtureUnits, seed: UInt64, firstDay: Int, lastDay: Int) {
        self.day = day
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.clock = clock
        self.profile = profile
        self.units = units
        self.seed = seed
        plan = DayPlan(day: day, zoneName: clock.zoneName)
        creationRandom = FixtureRandom(seed: seed, stream: UInt64(bitPattern: Int64(day)) &* 64 &+ 63)
    }

    /// A random stream for one planner on this date.
    func random(_ purpose: UInt64) -> FixtureRandom {
        FixtureRandom(seed: seed, stream: UInt64(bitPattern: Int64(day)) &* 64 &+ purpose)
    }

    /// The instant `minute` minutes after this date's local midnight.
    func at(_ minute: Int) -> Int64 { clock.instant(day: day, minute: minute) }

    /// Adds a record; the creation date is a few seconds to minutes after its end, as a sync
    /// writes it.
    mutating func add(
        _ type: String, _ source: FixtureSource, unit: String?, value: String, start: Int64, end: Int64,
        metadata: [(key: String, value: String)] = [], beats: [(bpm: Int, time: String)] = []
    ) {
        let created = end + Int64(creationRandom.int(5...900))
        records.append(
            FixtureRecord(
                type: type, source: source, unit: unit, value: value, start: start, end: end, created: created,
                metadata: metadata, beats: beats))
    }

    /// `HKTimeZone` metadata of a record at `t`, which the payload's `timezone` comes from.
    func zoneMetadata(at t: Int64) -> (key: String, value: String) { ("HKTimeZone", clock.zoneName(at: t)) }

    /// Sets a catalog field of the plan.
    mutating func set(_ field: String, _ value: Double) { plan[field] = value }
}
