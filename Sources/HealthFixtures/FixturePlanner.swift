import ExportParser

/// One date as the generator decided it: its plan, and the records, correlations and daily rings
/// written from it.
struct FixtureDay: Sendable {
    var plan: DayPlan
    var records: [FixtureRecord]
    var correlations: [FixtureCorrelation]
    var summary: FixtureActivitySummary
}

/// The plans of a fixture's dates, kept for what is written from the plans alone (`expected/`,
/// `plan.json`, the day-aggregated `hae.json`, the route files).
struct FixtureData: Sendable {
    var plans: [DayPlan] = []
    /// The export's own date: the morning after the last date.
    var exportDate: Int64 = 0
}

/// Decides a fixture's dates one at a time. A date depends only on the seed, the date itself and
/// where it lies in the range (the first and last dates, a traveller's middle one), never on the
/// dates planned before it, so a file of any size can be written date by date.
struct FixturePlanner {
    let firstDay: Int
    let lastDay: Int
    let seed: UInt64
    let clock: FixtureClock
    let profile: FixtureProfile
    let units: FixtureUnits

    init(firstDay: Int, days: Int, seed: UInt64, clock: FixtureClock, profile: FixtureProfile, units: FixtureUnits) {
        self.firstDay = firstDay
        lastDay = firstDay + days - 1
        self.seed = seed
        self.clock = clock
        self.profile = profile
        self.units = units
    }

    var days: ClosedRange<Int> { firstDay...lastDay }

    /// The export's own date: the morning after the last date.
    var exportDate: Int64 { clock.instant(day: lastDay + 1, minute: 9 * 60 + 41) }

    /// Steps of the sample from 23:55 on `day` to 00:05 the next day (half to each), only between
    /// two dates of the range: outside it, it would make a date the plan lacks.
    private func crossing(_ day: Int) -> Int {
        guard day >= firstDay, day < lastDay else { return 0 }
        var r = FixtureRandom(seed: seed, stream: UInt64(bitPattern: Int64(day)) &* 64 &+ 60)
        return r.int(5...25)
    }

    func day(_ day: Int) -> FixtureDay {
        var c = DayContext(day: day, clock: clock, profile: profile, units: units, seed: seed, firstDay: firstDay, lastDay: lastDay)
        c.crossingSteps = (crossing(day - 1), crossing(day))
        SleepPlanner.plan(&c)
        WorkoutPlanner.plan(&c)
        ActivityPlanner.plan(&c)
        VitalsPlanner.plan(&c)
        FoodPlanner.plan(&c)
        let bpms = c.heartRates.map(\.bpm)
        c.plan.heartRate = MinMaxAvgSummary(
            average: Double(bpms.reduce(0, +)) / Double(bpms.count), minimum: Double(bpms.min()!),
            maximum: Double(bpms.max()!), count: bpms.count)
        var r = c.random(6)
        let summary = FixtureActivitySummary(
            day: day, activeKcal: c.plan["active_calories"] ?? 0, exerciseMinutes: Int(c.plan["exercise_min"] ?? 0),
            standHours: r.int(8...14))
        return FixtureDay(plan: c.plan, records: c.records, correlations: c.correlations, summary: summary)
    }
}
