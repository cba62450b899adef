import ExportParser

/// Sleep: the iPhone's bedtime InBed envelope, and when the watch is worn its stage segments
/// (core, deep, REM, short awakenings), contiguous and in whole minutes so every stage's hours
/// are exact. A night sleeper's sleep starts the evening before and crosses midnight; its
/// wake-up date is the plan's date. A shift worker's starts in the morning of the date and
/// crosses noon: its segments are cut at noon, the morning part belongs to this date's night and
/// the afternoon part to the next date's (docs/rules.md, "Nights").
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
        var end = sleepStart + Int64(window) * 60
        let noon = c.clock.instant(day: day, minute: 720)
        // On the last date a day sleeper is woken at noon: an afternoon part would belong to a
        // night after the range.
        if c.profile.sleepsByDay, day == c.lastDay { end = min(end, noon) }
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
                    // A segment across noon is written as two: the noon window splits nights.
                    if c.profile.sleepsByDay, t < noon, e > noon {
                        segments.append(SleepPlan.Segment(stage: stage, start: t, end: noon))
                        segments.append(SleepPlan.Segment(stage: stage, start: noon, end: e))
                    } else {
                        segments.append(SleepPlan.Segment(stage: stage, start: t, end: e))
                    }
                    t = e
                }
                cycle += 1
            }
            // A sleep does not end awake in the watch's record: the last awakening is the wake-up.
            while segments.last?.stage == .awake { segments.removeLast() }
        }
        let lastAsleep = segments.last?.end ?? end
        var inBedEnd = lastAsleep + Int64(r.int(3...12)) * 60
        if c.profile.sleepsByDay, day == c.lastDay { inBedEnd = min(inBedEnd, noon) }
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
        guard c.profile.sleepsByDay else {
            c.plan.sleep = SleepPlan(segments: own.segments, inBed: [own.inBed])
            return
        }
        // The night ending at noon today: what ends after yesterday's noon and by today's.
        let from = c.clock.instant(day: c.day - 1, minute: 720), to = c.clock.instant(day: c.day, minute: 720)
        var periods = [own]
        if c.day > c.firstDay { periods.insert(period(c, day: c.day - 1), at: 0) }
        let segments = periods.flatMap(\.segments).filter { $0.end > from && $0.end <= to }
        let inBed = periods.map(\.inBed).filter { $0.end > from && $0.end <= to }
        c.plan.sleep = segments.isEmpty && inBed.isEmpty ? nil : SleepPlan(segments: segments, inBed: inBed)
    }
}
