/// A finished day as the body of `POST /sync/healthkit` (docs/payload.md): keys in the
/// documented order, metrics with no samples left out, `sleep` and `running_mechanics` only when
/// there is something to say, `workouts` always present.
public enum PayloadEncoder {
    /// Decimals for workout figures (seconds, kcal, bpm, metres are whole on the wire).
    static let workoutDecimals = 0

    public static func payload(_ day: FinishedDay) -> JSONValue {
        var metrics: [(String, JSONValue)] = []
        var running: [(String, JSONValue)] = []
        for m in Catalog.metrics {
            if m.rule == .minMaxAvg {
                guard let hr = day.heartRate else { continue }
                var members: [(String, JSONValue)] = [
                    ("avg", .number(hr.average, decimals: m.decimals)),
                    ("min", .number(hr.minimum, decimals: m.decimals)),
                    ("max", .number(hr.maximum, decimals: m.decimals)),
                ]
                if let c = hr.count { members.append(("count", .number(Double(c), decimals: 0))) }
                metrics.append((m.field, .object(members)))
                continue
            }
            guard let v = day.values[m.index] else { continue }
            let entry = (m.field, JSONValue.number(v, decimals: m.decimals))
            if m.section == .runningMechanics { running.append(entry) } else { metrics.append(entry) }
        }
        var body: [(String, JSONValue)] = [
            ("date", .string(day.date)),
            ("timezone", .string(day.timezone)),
            ("device_sync_timestamp", .string(day.deviceSyncTimestamp)),
            ("metrics", .object(metrics)),
        ]
        if let s = day.sleep { body.append(("sleep", sleep(s))) }
        body.append(("workouts", .array(day.workouts.map(workout))))
        if !running.isEmpty { body.append(("running_mechanics", .object(running))) }
        return .object(body)
    }

    static func sleep(_ s: SleepResult) -> JSONValue {
        let d = Catalog.sleepDecimals
        var members: [(String, JSONValue)] = [("total_hours", .number(s.totalHours, decimals: d))]
        if let v = s.coreHours { members.append(("core_hours", .number(v, decimals: d))) }
        if let v = s.deepHours { members.append(("deep_hours", .number(v, decimals: d))) }
        if let v = s.remHours { members.append(("rem_hours", .number(v, decimals: d))) }
        if let v = s.awakeHours { members.append(("awake_hours", .number(v, decimals: d))) }
        if let v = s.inBedStart { members.append(("in_bed_start", .string(v))) }
        if let v = s.inBedEnd { members.append(("in_bed_end", .string(v))) }
        if let v = s.source { members.append(("source", .string(v))) }
        return .object(members)
    }

    static func workout(_ w: WorkoutSummary) -> JSONValue {
        func num(_ v: Double?) -> JSONValue { v.map { .number($0, decimals: workoutDecimals) } ?? .null }
        return .object([
            ("type", .string(w.type)),
            ("start", .string(w.start)),
            ("end", .string(w.end)),
            ("duration_seconds", .number(w.durationSeconds, decimals: workoutDecimals)),
            ("energy_kcal", num(w.energyKcal)),
            ("avg_heart_rate", num(w.averageHeartRate)),
            ("max_heart_rate", num(w.maximumHeartRate)),
            ("distance_m", num(w.distanceMetres)),
            ("source", .string(w.source)),
        ])
    }
}
