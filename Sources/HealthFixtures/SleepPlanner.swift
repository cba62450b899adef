import ExportParser

/// Sleep: the iPhone's bedtime InBed envelope, and when the watch is worn its stage segments
/// (core, deep, REM, short awakenings), contiguous and in whole minutes so every stage's hours
/// are exact. A night sleeper's sleep starts the evening before and crosses midnight; its
/// wake-up date is the plan's date. A shift worker's starts in the morning of the date and ends
/// in the afternoon of the same date, and on about half of the dates the watch records an
/// evening nap before the shift, more than three hours after that sleep: a session of its own,
/// on the same date (docs/rules.md, "Nights").
enum SleepPlanner {
    static let type = FixtureRecord.category + "SleepAnalysis"

    /// One sleep as written: the watch's segments and the iPhone's InBed.
    struct Period {
        var segments: [SleepPlan.Segment]
        var inBed: (start: Int64, end: Int64)
    }

    /// The sleep that starts the evening before `day` (or, for a shift worker, the morning of
    /// `day`); the same for the same date whichever date's planner asks.
    static func period(_ c: DayContext, day: Int) -> Period {
        var r = FixtureRandom(seed: c.seed, stream: UInt64(bitPattern: Int64(day)) &* 64 &+ 1)
        let bedtime = r.int(c.profile.bedtime)
        let window = r.int(c.profile.sleepMinutes)
        let latency = r.int(5...20)
        let inBedStart = c.clock.instant(day: c.profile.sleepsByDay ? day : day - 1, minute: bedtime)
        let sleepStart = inBedStart + Int64(latency) * 60
        let end = sleepStart + Int64(window) * 60
        var segments: [SleepPlan.Segment] = []
        if r.chance(c.profile.watchSleepChance) {
            var t = sleepStart
            var cycle = 0
            while t < end {
                var stages: [(SleepPlan.Stage, Int)] = [
                    (.core, r.int(20...45)), (.deep, cycle < 2 ? r.int(20...45) : r.int(5...20)),
                    (.core, r.int(15...30)), (.rem, r.int(10...20) + cycle * 5),
                ]
                if r.chance(0.5) { stages.append((.awake, r.int(2...8))) }
                for (stage, minutes) in stages where t < end {
                    let e = min(t + Int64(minutes) * 60, end)
                    segments.append(SleepPlan.Segment(stage: stage, start: t, end: e))
                    t = e
                }
                cycle += 1
            }
            // A sleep does not end awake in the watch's record: the last awakening is the wake-up.
            while segments.last?.stage == .awake { segments.removeLast() }
        }
        let lastAsleep = segments.last?.end ?? end
        let inBedEnd = lastAsleep + Int64(r.int(3...12)) * 60
        return Period(segments: segments, inBed: (inBedStart, inBedEnd))
    }

    static func plan(_ c: inout DayContext) {
        let own = period(c, day: c.day)
        for s in own.segments {
            c.add(
                type, .watch, unit: nil, value: "HKCategoryValueSleepAnalysis" + s.stage.rawValue, start: s.start, end: s.end,
                metadata: [c.zoneMetadata(at: s.start)])
        }
        c.add(
            type, .phone, unit: nil, value: "HKCategoryValueSleepAnalysisInBed", start: own.inBed.start, end: own.inBed.end,
            metadata: [c.zoneMetadata(at: own.inBed.start), ("HKMetadataKeySyncVersion", "1")])
        c.plan.sleep = SleepPlan(segments: own.segments, inBed: [own.inBed], nap: nap(c, after: own))
        if let nap = c.plan.sleep?.nap {
            c.add(
                type, .watch, unit: nil, value: "HKCategoryValueSleepAnalysis" + nap.stage.rawValue, start: nap.start, end: nap.end,
                metadata: [c.zoneMetadata(at: nap.start)])
        }
    }

    /// A shift worker's evening nap on about half of the dates the watch is worn: 25–45 minutes
    /// of core sleep starting 19:00–19:30, before the 22:00 shift. The day's sleep ends by 15:32
    /// (bedtime 07:50 at the latest, 20 minutes to fall asleep, 430 minutes, 12 minutes in bed
    /// after), so the nap starts at least 3 h 28 min after it: a session of its own (a gap of
    /// three hours or more), dated the same day. A random stream of its own (7), so that no other
    /// draw of the plan moves.
    static func nap(_ c: DayContext, after own: Period) -> SleepPlan.Segment? {
        guard c.profile.sleepsByDay, !own.segments.isEmpty else { return nil }
        var r = c.random(7)
        guard r.chance(0.5) else { return nil }
        let start = c.clock.instant(day: c.day, minute: r.int(1_140...1_170))
        return SleepPlan.Segment(stage: .core, start: start, end: start + Int64(r.int(25...45)) * 60)
    }
}
