import ExportParser

/// The date's workouts: an evening run (runner), an evening walk, a lunchtime strength session
/// written the older way (total attributes, `totalDistance="0"`, no heart-rate statistic, so its
/// heart rate comes from the samples inside it). Runs also get running-mechanics samples, VO2max
/// and cardio recovery, and a running app's copy of the run's energy that the watch covers.
enum WorkoutPlanner {
    static func plan(_ c: inout DayContext) {
        var r = c.random(2)
        var workouts: [WorkoutPlan] = []
        if r.chance(c.profile.strengthChance) { workouts.append(strength(&c, &r)) }
        if r.chance(c.profile.runChance) { workouts.append(run(&c, &r)) }
        if r.chance(c.profile.walkChance) { workouts.append(walk(&c, &r)) }
        c.plan.workouts = workouts
    }

    private static func uuid(_ r: inout FixtureRandom) -> String {
        let a = r.next(), b = r.next()
        func hex(_ v: UInt64, _ digits: Int) -> String {
            let s = String(v, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, digits - s.count)) + s.suffix(digits)
        }
        return hex(a >> 32, 8) + "-" + hex((a >> 16) & 0xFFFF, 4) + "-4" + hex(a & 0xFFF, 3) + "-A" + hex(b >> 52, 3) + "-"
            + hex(b & 0xFFFF_FFFF_FFFF, 12)
    }

    private static func run(_ c: inout DayContext, _ r: inout FixtureRandom) -> WorkoutPlan {
        let start = c.at(r.int(1_050...1_110))
        let moving = Int64(r.int(30 * 60...68 * 60))
        let pause = r.chance(0.4) ? Int64(r.int(30...180)) : 0
        let end = start + moving + pause
        let pace = Double(r.int(285...360))  // seconds a km
        let metres = Int((Double(moving) / pace * 1000).rounded())
        let kcal = Int((c.profile.weightKg * Double(metres) / 1000 * 1.02).rounded())
        let avg = r.int(142...160)
        var w = WorkoutPlan(
            kind: .running, start: start, end: end, pauseSeconds: pause, energyKcal: kcal, distanceMetres: metres,
            averageHeartRate: Double(avg), maximumHeartRate: Double(avg + r.int(10...24)),
            minimumHeartRate: Double(r.int(95...120)), statistics: true, steps: Int(Double(moving) / 60 * 168),
            uuid: uuid(&r))
        w.writtenTwice = r.chance(0.2)
        workoutHeartRate(&c, &r, w, around: avg)
        mechanics(&c, &r, w)
        if r.chance(0.5) {
            c.set("vo2max", Double(r.int(480...545)) / 10)
            c.add(
                FixtureRecord.quantity + "VO2Max", .watch, unit: "mL/min·kg", value: FixtureNumber.text(c.plan["vo2max"]!, decimals: 1),
                start: end + 600, end: end + 600, metadata: [("HKVO2MaxTestType", "2")])
        }
        c.set("cardio_recovery_bpm", Double(r.int(22...36)))
        c.add(
            FixtureRecord.quantity + "HeartRateRecoveryOneMinute", .watch, unit: "count/min",
            value: FixtureNumber.text(c.plan["cardio_recovery_bpm"]!, decimals: 0), start: end + 60, end: end + 60)
        // The running app's own energy for the run: the watch's active energy covers every
        // minute of it, so source priority gives it nothing.
        c.add(
            FixtureRecord.quantity + "ActiveEnergyBurned", .runningApp, unit: c.units.energy.name,
            value: c.units.energy.text(Double(kcal) * 1.1), start: start, end: end)
        return w
    }

    private static func walk(_ c: inout DayContext, _ r: inout FixtureRandom) -> WorkoutPlan {
        let start = c.at(r.int(1_200...1_240))
        let minutes = r.int(25...45)
        let end = start + Int64(minutes) * 60
        let metres = minutes * r.int(75...90)
        let avg = r.int(95...112)
        let w = WorkoutPlan(
            kind: .walking, start: start, end: end, pauseSeconds: 0, energyKcal: minutes * r.int(3...5),
            distanceMetres: metres, averageHeartRate: Double(avg), maximumHeartRate: Double(avg + r.int(8...18)),
            minimumHeartRate: Double(avg - r.int(10...20)), statistics: true, steps: minutes * 110, uuid: uuid(&r))
        workoutHeartRate(&c, &r, w, around: avg)
        return w
    }

    /// Strength training as older exports write it: the figures only as total attributes, so its
    /// heart rate is the mean and maximum of the heart-rate samples inside it.
    private static func strength(_ c: inout DayContext, _ r: inout FixtureRandom) -> WorkoutPlan {
        let start = c.at(r.int(730...760))
        let minutes = r.int(30...45)
        let end = start + Int64(minutes) * 60
        var w = WorkoutPlan(
            kind: .strength, start: start, end: end, pauseSeconds: 0, energyKcal: minutes * r.int(5...7), distanceMetres: nil,
            averageHeartRate: 0, maximumHeartRate: 0, minimumHeartRate: 0, statistics: false, steps: 0, uuid: uuid(&r))
        let bpms = workoutHeartRate(&c, &r, w, around: r.int(105...130))
        w.averageHeartRate = Double(bpms.reduce(0, +)) / Double(bpms.count)
        w.maximumHeartRate = Double(bpms.max()!)
        w.minimumHeartRate = Double(bpms.min()!)
        return w
    }

    /// Heart-rate samples every 4–6 seconds inside the workout, as the watch records one (the
    /// day's other samples keep out of workouts, so these are the only ones inside it).
    @discardableResult
    private static func workoutHeartRate(_ c: inout DayContext, _ r: inout FixtureRandom, _ w: WorkoutPlan, around avg: Int) -> [Int] {
        var bpms: [Int] = []
        var t = w.start + 60
        while t <= w.end - 60 {
            let bpm = avg + r.int(-12...12)
            bpms.append(bpm)
            VitalsPlanner.heartRate(&c, at: t, bpm: bpm, context: "2")
            t += Int64(r.int(4...6))
        }
        return bpms
    }

    /// Running mechanics inside the run: pairs of samples either side of the day's value, so
    /// their mean is exactly the planned value.
    private static func mechanics(_ c: inout DayContext, _ r: inout FixtureRandom, _ w: WorkoutPlan) {
        let moving = Double(w.durationSeconds)
        let speed = (Double(w.distanceMetres!) / moving * 3.6 * 100).rounded() / 100
        let rows: [(field: String, type: String, unit: FixtureUnits.Unit, value: Double, spread: Int, grid: Double)] = [
            ("running_speed_kmh", "RunningSpeed", c.units.speed, speed, 60, 0.01),
            ("running_power_w", "RunningPower", FixtureUnits.Unit(name: "W", factor: 1, decimals: 0), Double(r.int(230...300)), 25, 1),
            (
                "running_stride_m", "RunningStrideLength", FixtureUnits.Unit(name: "m", factor: 1, decimals: 2),
                Double(r.int(100...125)) / 100, 8, 0.01
            ),
            (
                "running_oscillation_cm", "RunningVerticalOscillation", FixtureUnits.Unit(name: "cm", factor: 1, decimals: 1),
                Double(r.int(75...95)) / 10, 6, 0.1
            ),
            (
                "running_ground_contact_time", "RunningGroundContactTime", FixtureUnits.Unit(name: "ms", factor: 1, decimals: 0),
                Double(r.int(230...270)), 15, 1
            ),
        ]
        for row in rows {
            c.set(row.field, row.value)
            let pairs = r.int(3...6)
            let step = (w.end - w.start - 120) / Int64(pairs * 2)
            for i in 0..<pairs {
                let d = Double(r.int(0...row.spread)) * row.grid
                for (j, v) in [row.value + d, row.value - d].enumerated() {
                    let t = w.start + 60 + step * Int64(i * 2 + j)
                    c.add(FixtureRecord.quantity + row.type, .watch, unit: row.unit.name, value: row.unit.text(v), start: t, end: t + 10)
                }
            }
        }
    }
}
