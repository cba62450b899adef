import ExportParser

/// The days `convert` must write, made from the plan alone: each plan becomes a `FinishedDay`
/// field by field, and the project's writers (`PayloadEncoder`, `CSVWriter`), which only round
/// and format, write them. No day rule runs here; that is what makes the fixture a check of them.
enum ExpectedDays {
    static func days(_ data: FixtureData, clock: FixtureClock) -> [FinishedDay] {
        let sync = clock.iso(data.exportDate)
        return data.plans.map { p in
            var d = FinishedDay(dayNumber: p.day, timezone: p.zoneName, deviceSyncTimestamp: sync)
            d.values = DayValues(p.values)
            d.heartRate = p.heartRate
            d.sleep = p.sleep.map { sleep($0, clock: clock) }
            d.workouts = p.workouts.sorted { $0.start < $1.start }.map { workout($0, clock: clock) }
            return d
        }
    }

    /// `expected/daily.csv`: the header and one row a day, by the project's `CSVWriter`.
    static func csv(_ days: [FinishedDay]) -> String {
        days.reduce(CSVWriter.header) { $0 + CSVWriter.row($1) }
    }

    static func sleep(_ s: SleepPlan, clock: FixtureClock) -> SleepResult {
        func hours(_ minutes: Int) -> Double? { minutes > 0 ? Double(minutes) / 60 : nil }
        guard s.watchWorn else {
            // Only the iPhone's bedtime: the in-bed hours are the night's sleep.
            var r = SleepResult(totalHours: Double(s.inBedSeconds) / 3_600)
            r.inBedStart = clock.iso(s.inBedStart)
            r.inBedEnd = clock.iso(s.inBedEnd)
            r.source = FixtureSource.phone.name
            return r
        }
        // A nap is a session of its own on the same date: its core minutes add to the total and
        // to core, the in-bed window reaches its end (it is the date's last), and the source
        // stays the main sleep's, which has more sleep (docs/rules.md, "Nights").
        let napMinutes = s.nap.map { Int($0.end - $0.start) / 60 } ?? 0
        var r = SleepResult(totalHours: Double(s.asleepMinutes + napMinutes) / 60)
        r.coreHours = hours(s.minutes(.core) + napMinutes)
        r.deepHours = hours(s.minutes(.deep))
        r.remHours = hours(s.minutes(.rem))
        r.awakeHours = hours(s.minutes(.awake))
        r.inBedStart = clock.iso(min(s.inBedStart, s.sleepStart))
        r.inBedEnd = clock.iso(max(s.inBedEnd, s.sleepEnd))
        r.source = FixtureSource.watch.name
        if let nap = s.nap { r.inBedEnd = clock.iso(max(s.inBedEnd, s.sleepEnd, nap.end)) }
        return r
    }

    static func workout(_ w: WorkoutPlan, clock: FixtureClock) -> WorkoutSummary {
        WorkoutSummary(
            type: w.kind.rawValue, start: clock.iso(w.start), end: clock.iso(w.end), durationSeconds: Double(w.durationSeconds),
            energyKcal: Double(w.energyKcal), averageHeartRate: w.averageHeartRate, maximumHeartRate: w.maximumHeartRate,
            distanceMetres: w.distanceMetres.map(Double.init), source: w.source.name, startSeconds: w.start)
    }
}
