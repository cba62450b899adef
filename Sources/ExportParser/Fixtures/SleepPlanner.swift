/// The night that ends on the plan's date: the iPhone's bedtime InBed envelope, and on nights the
/// watch is worn its stage segments (core, deep, REM, short awakenings), contiguous and in whole
/// minutes so every stage's hours are exact. The night starts the evening before and crosses
/// midnight; its wake-up date is the plan's date (docs/rules.md, "Nights").
enum SleepPlanner {
    static let type = FixtureRecord.category + "SleepAnalysis"

    static func plan(_ c: inout DayContext) {
        var r = c.random(1)
        let bedtime = r.int(c.profile.bedtime)
        let window = r.int(c.profile.sleepMinutes)
        let latency = r.int(5...20)
        let inBedStart = c.clock.instant(day: c.day - 1, minute: bedtime)
        let sleepStart = inBedStart + Int64(latency) * 60
        var segments: [SleepPlan.Segment] = []
        if r.chance(c.profile.watchSleepChance) {
            var t = sleepStart
            let end = sleepStart + Int64(window) * 60
            var cycle = 0
            while t < end {
                var stages: [(SleepPlan.Stage, Int)] = [(.core, r.int(20...45)), (.deep, cycle < 2 ? r.int(20...45) : r.int(5...20)),
                                                        (.core, r.int(15...30)), (.rem, r.int(10...20) + cycle * 5)]
                if r.chance(0.5) { stages.append((.awake, r.int(2...8))) }
                for (stage, minutes) in stages where t < end {
                    let e = min(t + Int64(minutes) * 60, end)
                    segments.append(SleepPlan.Segment(stage: stage, start: t, end: e))
                    t = e
                }
                cycle += 1
            }
            // A night does not end awake in the watch's record: the last awakening is the wake-up.
            while segments.last?.stage == .awake { segments.removeLast() }
        }
        let lastAsleep = segments.last?.end ?? sleepStart + Int64(window) * 60
        let plan = SleepPlan(segments: segments, inBedStart: inBedStart, inBedEnd: lastAsleep + Int64(r.int(3...12)) * 60)
        c.plan.sleep = plan
        for s in plan.segments {
            c.add(type, .watch, unit: nil, value: "HKCategoryValueSleepAnalysis" + s.stage.rawValue, start: s.start, end: s.end,
                  metadata: [c.zoneMetadata])
        }
        c.add(type, .phone, unit: nil, value: "HKCategoryValueSleepAnalysisInBed", start: plan.inBedStart, end: plan.inBedEnd,
              metadata: [c.zoneMetadata, ("HKMetadataKeySyncVersion", "1")])
    }
}
