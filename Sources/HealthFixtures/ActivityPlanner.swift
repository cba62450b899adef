import ExportParser

/// The summed fields of a date: steps, distance, active and basal energy, exercise minutes,
/// flights and daylight. Walking bouts are chosen first, then each bout's steps and metres, then
/// the samples: the watch covers most bouts in chunks, the iPhone writes one sample over the same
/// bout starting a few minutes earlier (those few minutes are all it adds, by source priority),
/// some bouts are the iPhone's alone (watch off), the run's iPhone sample lies wholly under the
/// watch's (it adds nothing), and a pedometer app's sample lies under the watch's too.
enum ActivityPlanner {
    static let q = FixtureRecord.quantity

    /// How a bout's steps are written.
    enum Coverage {
        /// Watch chunks over the bout; the iPhone from `lead` minutes before it to its end.
        case both(lead: Int)
        /// The iPhone only.
        case phoneOnly
        /// Watch chunks only.
        case watchOnly
        /// Watch chunks, and the iPhone over exactly the same minutes (it adds nothing).
        case covered
    }

    struct Bout {
        var start: Int64
        var end: Int64
        var coverage: Coverage
        var steps = 0
        var metres = 0
        var isWorkout = false
        var minutes: Int { Int(end - start) / 60 }
    }

    static func plan(_ c: inout DayContext) {
        var r = c.random(3)
        var bouts = chooseBouts(&c, &r)
        allocate(&c, &r, &bouts)
        for b in bouts { writeSteps(&c, &r, b) }
        crossingSample(&c)
        c.bouts = bouts.filter { !$0.isWorkout }.map { ($0.start, $0.end) }
        energy(&c, &r)
        exercise(&c, &r, bouts)
        flightsAndDaylight(&c, &r, bouts)
        walkingSpeed(&c, &r, bouts)
    }

    private static func chooseBouts(_ c: inout DayContext, _ r: inout FixtureRandom) -> [Bout] {
        let strengthDay = c.plan.workouts.contains { $0.kind == .strength }
        func bout(_ from: ClosedRange<Int>, _ length: ClosedRange<Int>, _ coverage: Coverage) -> Bout {
            let s = c.at(r.int(from))
            return Bout(start: s, end: s + Int64(r.int(length)) * 60, coverage: coverage)
        }
        let slots = c.profile.bouts
        var bouts = [
            bout(slots[0].start, slots[0].minutes, .both(lead: r.int(2...5))),
            // A strength session at lunchtime moves the lunch walk after it.
            bout(strengthDay ? 815...830 : slots[1].start, slots[1].minutes, r.chance(0.3) ? .phoneOnly : .both(lead: r.int(2...5))),
            bout(slots[2].start, slots[2].minutes, r.chance(0.4) ? .phoneOnly : .watchOnly),
            bout(slots[3].start, slots[3].minutes, .both(lead: r.int(2...5))),
        ]
        for w in c.plan.workouts where w.kind != .strength {
            var b = Bout(start: w.start, end: w.end, coverage: w.kind == .running ? .covered : .watchOnly)
            b.isWorkout = true
            b.steps = w.steps
            b.metres = w.distanceMetres ?? 0
            bouts.append(b)
        }
        return bouts.sorted { $0.start < $1.start }
    }

    /// The day's steps drawn from the profile; the workouts keep their own, the rest shared by the
    /// other bouts by length; metres by stride, the total brought onto the 10 m grid of the
    /// payload's two decimals of km.
    private static func allocate(_ c: inout DayContext, _ r: inout FixtureRandom, _ bouts: inout [Bout]) {
        let target = r.int(c.profile.steps)
        let crossing = c.crossingSteps.morning + c.crossingSteps.night
        let fixed = bouts.filter(\.isWorkout).reduce(0) { $0 + $1.steps }
        let others = bouts.indices.filter { !bouts[$0].isWorkout }
        let rest = max(target - fixed - crossing, 450 * others.count)
        let totalMinutes = others.reduce(0) { $0 + bouts[$1].minutes }
        var left = rest
        for (n, i) in others.enumerated() {
            let share = n == others.count - 1 ? left : rest * bouts[i].minutes / totalMinutes
            bouts[i].steps = share
            bouts[i].metres = Int((Double(share) * Double(r.int(70...80)) / 100).rounded())
            left -= share
        }
        let metres = bouts.reduce(0) { $0 + $1.metres }
        bouts[others.last!].metres += (10 - metres % 10) % 10
        c.set("step_count", Double(bouts.reduce(0) { $0 + $1.steps } + crossing))
        c.set("distance_km", Double(bouts.reduce(0) { $0 + $1.metres }) / 1000)
    }

    /// Watch chunks of 5–10 minutes over a span, values split to add up to the totals exactly.
    private static func watchChunks(_ c: inout DayContext, _ r: inout FixtureRandom, start: Int64, end: Int64, steps: Int, metres: Int) {
        var cuts: [Int64] = [start]
        while cuts.last! < end { cuts.append(min(cuts.last! + Int64(r.int(5...10)) * 60, end)) }
        let n = cuts.count - 1
        let s = r.split(steps, into: n), m = r.split(metres, into: n)
        for i in 0..<n {
            c.add(q + "StepCount", .watch, unit: "count", value: String(s[i]), start: cuts[i], end: cuts[i + 1])
            c.add(
                q + "DistanceWalkingRunning", .watch, unit: c.units.distance.name, value: c.units.distance.text(Double(m[i]) / 1000),
                start: cuts[i], end: cuts[i + 1])
        }
    }

    private static func phone(_ c: inout DayContext, start: Int64, end: Int64, steps: Int, metres: Int) {
        c.add(q + "StepCount", .phone, unit: "count", value: String(steps), start: start, end: end)
        c.add(
            q + "DistanceWalkingRunning", .phone, unit: c.units.distance.name, value: c.units.distance.text(Double(metres) / 1000),
            start: start, end: end)
    }

    private static func writeSteps(_ c: inout DayContext, _ r: inout FixtureRandom, _ b: Bout) {
        switch b.coverage {
        case .phoneOnly:
            phone(&c, start: b.start, end: b.end, steps: b.steps, metres: b.metres)
        case .watchOnly:
            watchChunks(&c, &r, start: b.start, end: b.end, steps: b.steps, metres: b.metres)
        case .covered:
            watchChunks(&c, &r, start: b.start, end: b.end, steps: b.steps, metres: b.metres)
            phone(&c, start: b.start, end: b.end, steps: b.steps + r.int(-200...200), metres: b.metres + r.int(-100...100))
        case .both(let lead):
            // The iPhone's sample runs `lead` minutes longer than the watch's bout at a whole
            // number of steps (and metres) a minute: it adds exactly rate × lead.
            let minutes = b.minutes + lead
            let stepRate = min(r.int(85...110), b.steps / (minutes + 1))
            let metreRate = min(r.int(60...80), b.metres / (minutes + 1))
            watchChunks(&c, &r, start: b.start, end: b.end, steps: b.steps - stepRate * lead, metres: b.metres - metreRate * lead)
            phone(&c, start: b.start - Int64(lead) * 60, end: b.end, steps: stepRate * minutes, metres: metreRate * minutes)
            // A pedometer app counting the same walk, wholly under the watch.
            if b.minutes >= 10 {
                c.add(
                    q + "StepCount", .pedometer, unit: "count", value: String(b.steps + r.int(-150...150)), start: b.start + 120,
                    end: b.end - 120)
            }
        }
    }

    /// A few steps from 23:55 to 00:05 (split at midnight: half to each date), written by the
    /// date it starts on.
    private static func crossingSample(_ c: inout DayContext) {
        let k = c.crossingSteps.night
        guard k > 0 else { return }
        c.add(q + "StepCount", .watch, unit: "count", value: String(2 * k), start: c.at(1_435), end: c.at(1_445))
    }

    /// Active energy in 30-minute watch samples from 07:00 to 21:30 (they cover the running
    /// app's copy of the run); basal energy hourly over the whole local day (23 or 25 hours on a
    /// daylight-saving day).
    private static func energy(_ c: inout DayContext, _ r: inout FixtureRandom) {
        let workoutKcal = c.plan.workouts.reduce(0) { $0 + $1.energyKcal }
        let active = workoutKcal + (c.profile.name == "runner" ? r.int(350...550) : r.int(150...300))
        c.set("active_calories", Double(active))
        let pieces = r.split(active * 1000, into: 29)
        for (i, mcal) in pieces.enumerated() {
            c.add(
                q + "ActiveEnergyBurned", .watch, unit: c.units.energy.name, value: c.units.energy.text(Double(mcal) / 1000),
                start: c.at(420 + 30 * i), end: c.at(450 + 30 * i))
        }
        let basal = c.profile.name == "runner" ? r.int(1_550...1_700) : r.int(1_850...2_000)
        c.set("basal_calories", Double(basal))
        let midnight = c.clock.midnight(c.day), next = c.clock.midnight(c.day + 1)
        let hours = Int((next - midnight + 3_599) / 3_600)
        for (i, mcal) in r.split(basal * 1000, into: hours).enumerated() {
            c.add(
                q + "BasalEnergyBurned", .watch, unit: c.units.energy.name, value: c.units.energy.text(Double(mcal) / 1000),
                start: midnight + Int64(i) * 3_600, end: min(midnight + Int64(i + 1) * 3_600, next))
        }
    }

    /// Exercise minutes: 5-minute samples through each workout, and a few minutes of a brisk
    /// commute.
    private static func exercise(_ c: inout DayContext, _ r: inout FixtureRandom, _ bouts: [Bout]) {
        var total = 0
        func piece(_ start: Int64, _ minutes: Int) {
            c.add(q + "AppleExerciseTime", .watch, unit: "min", value: String(minutes), start: start, end: start + Int64(minutes) * 60)
            total += minutes
        }
        for w in c.plan.workouts {
            var left = Int(w.end - w.start) / 60
            var t = w.start
            while left > 0 {
                let m = min(5, left)
                piece(t, m)
                t += Int64(m) * 60
                left -= m
            }
        }
        let commute = bouts.first { !$0.isWorkout }!
        let extra = min(r.int(c.profile.extraExercise), commute.minutes)
        if extra > 0 { piece(commute.start, extra) }
        if total > 0 { c.set("exercise_min", Double(total)) }
    }

    private static func flightsAndDaylight(_ c: inout DayContext, _ r: inout FixtureRandom, _ bouts: [Bout]) {
        let walks = bouts.filter { !$0.isWorkout }
        let flights = c.profile.name == "runner" ? r.int(4...18) : r.int(2...7)
        let parts = r.split(flights - 2, into: 2).map { $0 + 1 }
        for (i, n) in parts.enumerated() {
            let t = walks[i].start + 60
            c.add(q + "FlightsClimbed", .phone, unit: "count", value: String(n), start: t, end: t + 60)
        }
        c.set("flights_climbed", Double(flights))
        var daylight = 0
        for b in walks.prefix(3) {
            let m = r.int(min(5, b.minutes)...b.minutes)
            c.add(q + "TimeInDaylight", .watch, unit: "min", value: String(m), start: b.start, end: b.start + Int64(m) * 60)
            daylight += m
        }
        c.set("daylight_min", Double(daylight))
    }

    /// Walking speed: two pairs of samples either side of the day's value, during walks.
    private static func walkingSpeed(_ c: inout DayContext, _ r: inout FixtureRandom, _ bouts: [Bout]) {
        let base = c.profile.name == "runner" ? r.int(430...540) : r.int(360...460)
        let v = Double(base) / 100
        c.set("walking_speed_kmh", v)
        let walks = bouts.filter { !$0.isWorkout }
        for i in 0..<2 {
            let d = Double(r.int(0...40)) / 100
            for (j, x) in [v + d, v - d].enumerated() {
                let t = walks[i * 2 + j].start + 180
                c.add(q + "WalkingSpeed", .watch, unit: c.units.speed.name, value: c.units.speed.text(x), start: t, end: t + 60)
            }
        }
    }
}
