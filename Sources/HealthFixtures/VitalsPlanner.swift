import ExportParser

/// Heart rate, HRV (with beat lists), resting heart rate, respiratory rate, blood oxygen, wrist
/// temperature, body measurements and blood pressure, plus a few types outside the catalog.
/// Averaged fields are written as pairs of samples either side of the planned value, so their
/// mean is the plan's, on its wire grid.
enum VitalsPlanner {
    static let q = FixtureRecord.quantity

    static func plan(_ c: inout DayContext) {
        var r = c.random(4)
        heartRateThroughTheDay(&c, &r)
        hrv(&c, &r)
        let resting = r.int(c.profile.restingHR)
        c.set("resting_hr", Double(resting))
        c.add(q + "RestingHeartRate", .watch, unit: "count/min", value: String(resting), start: c.at(1), end: c.at(1_200))
        night(&c, &r)
        oxygen(&c, &r)
        body(&c, &r)
        outsideTheCatalog(&c, &r)
    }

    /// One heart-rate sample, with the motion context the watch writes (1 still, 2 active).
    static func heartRate(_ c: inout DayContext, at t: Int64, bpm: Int, context: String) {
        c.heartRates.append((t, bpm))
        c.add(
            q + "HeartRate", .watch, unit: "count/min", value: String(bpm), start: t, end: t,
            metadata: [("HKMetadataKeyHeartRateMotionContext", context)])
    }

    /// Every 3–8 minutes through the local day, as a watch's background readings come, outside
    /// workouts (their samples are the workouts' own) and outside the night when the watch was off.
    private static func heartRateThroughTheDay(_ c: inout DayContext, _ r: inout FixtureRandom) {
        let sleep = c.plan.sleep
        // Worked out once, not for every sample: each is a pass over the night's segments.
        let sleepEnd = sleep?.sleepEnd, watchOffUntil = sleep.flatMap { $0.watchWorn ? nil : $0.inBedEnd }
        let rest = c.profile.restingHR.lowerBound
        var t = c.clock.midnight(c.day) + Int64(r.int(1...10)) * 60
        let end = c.clock.midnight(c.day + 1)
        while t < end {
            let inWorkout = c.plan.workouts.contains { t >= $0.start - 60 && t <= $0.end + 60 }
            let asleep = sleepEnd.map { t < $0 } ?? false
            let watchOff = watchOffUntil.map { t < $0 } ?? false
            if !inWorkout && !watchOff {
                heartRate(&c, at: t, bpm: asleep ? rest + r.int(-6...4) : rest + r.int(8...45), context: asleep ? "0" : "1")
            }
            t += Int64(r.int(3...8)) * 60
        }
    }

    /// HRV: two pairs around the day's value, each sample with the beat list it was measured
    /// from.
    private static func hrv(_ c: inout DayContext, _ r: inout FixtureRandom) {
        let value = r.int(c.profile.hrv)
        c.set("hrv", Double(value))
        let minutes = [95, 230, 545, 965]
        for pair in 0..<2 {
            let d = Double(r.int(0...1_200)) / 100
            for (j, v) in [Double(value) + d, Double(value) - d].enumerated() {
                let start = c.at(minutes[pair * 2 + j])
                var beats: [(bpm: Int, time: String)] = []
                var hundredths = start * 100 + Int64(r.int(0...99))
                for _ in 0..<r.int(6...10) {
                    let bpm = r.int(52...72)
                    beats.append((bpm, beatTime(hundredths, offset: c.clock.offset(start))))
                    hundredths += Int64(6_000 / bpm)
                }
                c.add(
                    q + "HeartRateVariabilitySDNN", .watch, unit: "ms", value: FixtureNumber.text(v, decimals: 2), start: start,
                    end: start + 60, beats: beats)
            }
        }
    }

    /// `7:32:10.81 PM`: the wall-clock text en_US exports write for a beat, from hundredths of
    /// a second since 1970.
    static func beatTime(_ hundredths: Int64, offset: Int32) -> String {
        let local = hundredths + Int64(offset) * 100
        let ofDay = ((local % 8_640_000) + 8_640_000) % 8_640_000
        let h = Int(ofDay / 360_000), m = Int(ofDay / 6_000 % 60), s = Int(ofDay / 100 % 60), cs = Int(ofDay % 100)
        let h12 = h % 12 == 0 ? 12 : h % 12
        func two(_ v: Int) -> String { v < 10 ? "0" + String(v) : String(v) }
        return String(h12) + ":" + two(m) + ":" + two(s) + "." + two(cs) + (h < 12 ? " AM" : " PM")
    }

    /// Respiratory rate and wrist temperature come from the watch during the night that ends
    /// this morning, when it was worn.
    private static func night(_ c: inout DayContext, _ r: inout FixtureRandom) {
        guard let sleep = c.plan.sleep, sleep.watchWorn else { return }
        let rate = Double(r.int(130...170)) / 10
        c.set("respiratory_rate", rate)
        pairs(
            &c, &r, type: "RespiratoryRate", unit: FixtureUnits.Unit(name: "count/min", factor: 1, decimals: 1), value: rate,
            spread: 15, grid: 0.1, minutes: [60, 100, 140, 180])
        let temperature = Double(r.int(3_580...3_660)) / 100
        c.set("apple_sleeping_wrist_temperature", temperature)
        c.add(
            q + "AppleSleepingWristTemperature", .watch, unit: c.units.temperature.name, value: c.units.temperature.text(temperature),
            start: sleep.sleepStart, end: sleep.sleepEnd, metadata: [c.zoneMetadata(at: sleep.sleepStart)])
    }

    /// Blood oxygen in whole percentages (written as fractions, as exports do), with `HKTimeZone`.
    private static func oxygen(_ c: inout DayContext, _ r: inout FixtureRandom) {
        let value = Double(r.int(95...98))
        c.set("blood_oxygen_saturation", value)
        // The first record of the date with `HKTimeZone` in the file (blood oxygen comes first
        // among such types) names the payload's zone: the one in force at 09:30.
        c.plan.zoneName = c.clock.zoneName(at: c.at(570))
        for (i, minute) in [570, 870].enumerated() {
            let d = Double(r.int(0...2))
            for (j, v) in [value + d, value - d].enumerated() {
                let t = c.at(minute + 90 * j + 7 * i)
                c.add(
                    q + "OxygenSaturation", .watch, unit: "%", value: FixtureNumber.text(v / 100, decimals: 2), start: t, end: t,
                    metadata: [c.zoneMetadata(at: t)])
            }
        }
    }

    /// Pairs of samples `value ± d` at the given minutes (two a pair).
    static func pairs(
        _ c: inout DayContext, _ r: inout FixtureRandom, type: String, unit: FixtureUnits.Unit, value: Double, spread: Int,
        grid: Double, minutes: [Int], metadata: [(key: String, value: String)] = []
    ) {
        var i = 0
        while i + 1 < minutes.count {
            let d = Double(r.int(0...spread)) * grid
            for (j, v) in [value + d, value - d].enumerated() {
                let t = c.at(minutes[i + j])
                c.add(q + type, .watch, unit: unit.name, value: unit.text(v), start: t, end: t + 60, metadata: metadata)
            }
            i += 2
        }
    }

    /// The scale's weigh-ins: most mornings, sometimes again in the evening (the later one is
    /// the day's value), with body fat and lean mass; and a blood-pressure reading some mornings.
    private static func body(_ c: inout DayContext, _ r: inout FixtureRandom) {
        var times: [Int] = []
        if r.chance(0.7) { times.append(460) }
        if r.chance(0.3) { times.append(1_265) }
        for minute in times {
            let weight = (c.profile.weightKg * 100 + Double(r.int(-80...80))).rounded() / 100
            let fat = (c.profile.bodyFatPercent * 100 + Double(r.int(-50...50))).rounded() / 100
            let lean = (weight * (1 - fat / 100) * 100).rounded() / 100
            c.set("weight_kg", weight)
            c.set("body_fat_pct", fat)
            c.set("lean_body_mass", lean)
            let t = c.at(minute)
            c.add(q + "BodyMass", .scale, unit: c.units.mass.name, value: c.units.mass.text(weight), start: t, end: t)
            c.add(q + "BodyFatPercentage", .scale, unit: "%", value: FixtureNumber.text(fat / 100, decimals: 4), start: t, end: t)
            c.add(q + "LeanBodyMass", .scale, unit: c.units.mass.name, value: c.units.mass.text(lean), start: t, end: t)
        }
        if r.chance(0.4) {
            let t = c.at(470)
            let systolic = String(r.int(112...132)), diastolic = String(r.int(70...85))
            let created = t + 30
            let members = [
                FixtureRecord(
                    type: q + "BloodPressureSystolic", source: .scale, unit: "mmHg", value: systolic, start: t, end: t, created: created),
                FixtureRecord(
                    type: q + "BloodPressureDiastolic", source: .scale, unit: "mmHg", value: diastolic, start: t, end: t, created: created),
            ]
            c.records += members
            c.correlations.append(
                FixtureCorrelation(
                    type: "HKCorrelationTypeIdentifierBloodPressure", source: .scale, start: t, end: t,
                    created: created, metadata: [], members: members))
        }
    }

    /// Types no payload field comes from: stand hours and minutes, noise exposure. The reader
    /// keeps them for the store; the day rules must ignore them.
    private static func outsideTheCatalog(_ c: inout DayContext, _ r: inout FixtureRandom) {
        for hour in 8...20 where r.chance(0.7) {
            let t = c.at(hour * 60)
            c.add(
                FixtureRecord.category + "AppleStandHour", .watch, unit: nil, value: "HKCategoryValueAppleStandHourStood", start: t,
                end: t + 3_600)
            c.add(q + "AppleStandTime", .watch, unit: "min", value: String(r.int(1...9)), start: t + 600, end: t + 1_200)
        }
        for minute in [640, 1_130] {
            let t = c.at(minute)
            c.add(
                q + "EnvironmentalAudioExposure", .watch, unit: "dBASPL",
                value: FixtureNumber.text(Double(r.int(550...820)) / 10, decimals: 1),
                start: t, end: t + 1_800)
        }
    }
}
