/// Everything a fixture holds, decided date by date: each date's plan, and the records,
/// correlations and daily rings written from it.
struct FixtureData: Sendable {
    var plans: [DayPlan] = []
    var records: [FixtureRecord] = []
    var correlations: [FixtureCorrelation] = []
    var summaries: [FixtureActivitySummary] = []
    /// The export's own date: the morning after the last date.
    var exportDate: Int64 = 0
}

enum FixturePlanner {
    static func make(firstDay: Int, days: Int, seed: UInt64, clock: FixtureClock, profile: FixtureProfile, units: FixtureUnits)
        -> FixtureData
    {
        var data = FixtureData()
        let lastDay = firstDay + days - 1
        /// Steps of the sample from 23:55 on `day` to 00:05 the next day (half to each), only
        /// between two dates of the range: outside it, it would make a date the plan lacks.
        func crossing(_ day: Int) -> Int {
            guard day >= firstDay, day < lastDay else { return 0 }
            var r = FixtureRandom(seed: seed, stream: UInt64(bitPattern: Int64(day)) &* 64 &+ 60)
            return r.int(5...25)
        }
        for day in firstDay...lastDay {
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
            data.summaries.append(
                FixtureActivitySummary(
                    day: day, activeKcal: c.plan["active_calories"] ?? 0,
                    exerciseMinutes: Int(c.plan["exercise_min"] ?? 0), standHours: r.int(8...14)))
            data.plans.append(c.plan)
            data.records += c.records
            data.correlations += c.correlations
        }
        data.exportDate = clock.instant(day: lastDay + 1, minute: 9 * 60 + 41)
        return data
    }
}
