/// The payload's figures for one workout (docs/rules.md, "Workouts"): totals from `WorkoutStatistics`
/// first and the old total attributes as fallback; the statistics of `WorkoutActivity` parts are
/// never added (they repeat the workout's own). Heart rate from the workout's statistics, else from
/// the heart-rate samples inside its interval.
enum WorkoutFigures {
    static let prefix = "HKWorkoutActivityType"

    /// Whether the workout states no average or maximum heart rate (HAE figures or statistics).
    private static func needsHeartRateSamples(_ w: Workout) -> Bool {
        let stat = w.statistics.first { $0.type == "HKQuantityTypeIdentifierHeartRate" }
        return (w.statedAverageHeartRate == nil && stat?.average == nil) || (w.statedMaximumHeartRate == nil && stat?.maximum == nil)
    }

    /// The figures of `w` that do not depend on the clock or on heart-rate samples.
    static func kept(_ w: Workout) -> KeptWorkout {
        let type = w.activityType.hasPrefix(prefix) ? String(w.activityType.dropFirst(prefix.count)) : w.activityType
        var duration = Double(w.end.seconds - w.start.seconds)
        if let d = w.duration {
            switch w.durationUnit ?? "min" {
            case "min": duration = d * 60
            case "s", "sec": duration = d
            case "hr", "h": duration = d * 3600
            default: break
            }
        }
        var energy: Double?
        if let s = w.statistics.first(where: { $0.type == "HKQuantityTypeIdentifierActiveEnergyBurned" }), let sum = s.sum {
            energy = CanonicalUnit.kilocalories.convert(sum, from: s.unit ?? "kcal")
        }
        if energy == nil, let e = w.totalEnergyBurned {
            energy = CanonicalUnit.kilocalories.convert(e, from: w.totalEnergyBurnedUnit ?? "kcal")
        }
        var distance: Double?
        if let s = w.statistics.first(where: { $0.type.hasPrefix("HKQuantityTypeIdentifierDistance") && $0.sum != nil }) {
            distance = CanonicalUnit.metres.convert(s.sum!, from: s.unit ?? "km")
        }
        // Older exports write totalDistance="0" on strength, yoga and dance workouts: a zero
        // total with no distance statistic means the workout has no distance (null).
        if distance == nil, let t = w.totalDistance, t > 0 {
            distance = CanonicalUnit.metres.convert(t, from: w.totalDistanceUnit ?? "km")
        }
        var avg = w.statedAverageHeartRate
        var max = w.statedMaximumHeartRate
        if let s = w.statistics.first(where: { $0.type == "HKQuantityTypeIdentifierHeartRate" }) {
            let unit = s.unit ?? "count/min"
            if avg == nil { avg = s.average.flatMap { CanonicalUnit.countPerMinute.convert($0, from: unit) } }
            if max == nil { max = s.maximum.flatMap { CanonicalUnit.countPerMinute.convert($0, from: unit) } }
        }
        return KeptWorkout(
            type: type, isRunning: w.activityType == "HKWorkoutActivityTypeRunning", source: w.source, start: w.start, end: w.end,
            durationSeconds: duration, energyKcal: energy, distanceMetres: distance, averageHeartRate: avg, maximumHeartRate: max,
            needsHeartRateSamples: needsHeartRateSamples(w))
    }

    /// The payload's figures of a kept workout: its heart rate from the samples inside its
    /// interval when it states none, its start and end in `clock`'s local time. `heartRate`:
    /// packed samples sorted by time (`WorkoutBook.pack`), empty when no workout needs them.
    static func summary(of w: KeptWorkout, clock: LocalClock, heartRate: [UInt64]) -> WorkoutSummary {
        var avg = w.averageHeartRate
        var max = w.maximumHeartRate
        if avg == nil || max == nil {
            var lo = 0, hi = heartRate.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if WorkoutBook.unpack(heartRate[mid]).0 < w.start.seconds { lo = mid + 1 } else { hi = mid }
            }
            var sum = 0.0, count = 0, top = -Double.infinity
            var i = lo
            while i < heartRate.count {
                let (t, v) = WorkoutBook.unpack(heartRate[i])
                guard t <= w.end.seconds else { break }
                sum += v
                count += 1
                top = Swift.max(top, v)
                i += 1
            }
            if count > 0 {
                if avg == nil { avg = sum / Double(count) }
                if max == nil { max = top }
            }
        }
        return WorkoutSummary(
            type: w.type, start: clock.iso(w.start), end: clock.iso(w.end), durationSeconds: w.durationSeconds,
            energyKcal: w.energyKcal, averageHeartRate: avg, maximumHeartRate: max, distanceMetres: w.distanceMetres,
            source: w.source, startSeconds: w.start.seconds)
    }
}
