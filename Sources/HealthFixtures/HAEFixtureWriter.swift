import ExportParser

/// `hae.json`: what Health Auto Export (export version 2, Summarize on, day buckets) would have
/// written for the same days. Cumulative metrics are the day's totals with the sources merged
/// (`Watch|iPhone`), discrete ones the day's value, heart rate a `Min`/`Avg`/`Max` bucket, the
/// wrist temperature dated by the evening before (as HAE does), nights as generation-3 sleep
/// records, workouts in the version-2 schema. Latest-rule fields carry the plan's value where
/// HAE would average the day's readings: within compare's tolerance either way.
struct HAEFixtureWriter {
    let data: FixtureData
    let clock: FixtureClock
    let units: FixtureUnits

    /// The unit HAE writes a catalog metric in: the Health app's unit preferences, as the export.
    static func unit(for m: Metric, _ units: FixtureUnits) -> FixtureUnits.Unit {
        func same(_ name: String, _ decimals: Int = 6) -> FixtureUnits.Unit { FixtureUnits.Unit(name: name, factor: 1, decimals: decimals) }
        switch m.unit {
        case .kilometres: return units.distance
        case .kilocalories: return units.haeEnergy
        case .kilograms: return units.mass
        case .degreesCelsius: return units.temperature
        case .kilometresPerHour: return units.speed
        case .vo2: return same("ml/(kg·min)")
        default: return same(m.unit.rawValue)
        }
    }

    private func number(_ v: Double) -> JSONValue { .number(v, decimals: 6) }

    func json() -> [UInt8] {
        var metrics: [JSONValue] = []
        let watch = FixtureSource.watch.name, both = watch + "|" + FixtureSource.phone.name
        for m in Catalog.metrics {
            var datums: [JSONValue] = []
            let u = Self.unit(for: m, units)
            for p in data.plans {
                let date = clock.exportText(clock.midnight(p.day))
                if m.rule == .minMaxAvg {
                    guard let hr = p.heartRate else { continue }
                    datums.append(
                        .object([
                            ("date", .string(date)), ("Min", number(hr.minimum)), ("Avg", number(hr.average)),
                            ("Max", number(hr.maximum)), ("source", .string(watch)),
                        ]))
                    continue
                }
                guard let v = p.values[m.index] else { continue }
                // HAE dates a night's wrist temperature by the evening it began.
                let bucket = m.rule == .nightAvg ? clock.exportText(clock.midnight(p.day - 1)) : date
                let source = m.field == "step_count" || m.field == "distance_km" ? both : watch
                datums.append(.object([("date", .string(bucket)), ("qty", number(u.written(v))), ("source", .string(source))]))
            }
            guard !datums.isEmpty else { continue }
            metrics.append(.object([("name", .string(m.haeNames[0])), ("units", .string(u.name)), ("data", .array(datums))]))
        }
        metrics.append(
            .object([
                ("name", .string("sleep_analysis")), ("units", .string("hr")),
                ("data", .array(data.plans.flatMap(sleep))),
            ]))
        let workouts = data.plans.flatMap {
            $0.workouts.sorted { $0.start < $1.start }.map { Self.workout($0, clock: clock, units: units) }
        }
        let root = JSONValue.object([("data", .object([("metrics", .array(metrics)), ("workouts", .array(workouts))]))])
        return Array((root.render() + "\n").utf8)
    }

    /// A date's nights as HAE states them: the main sleep, and a nap as a record of its own
    /// (core only; HAE writes 0 for what it did not measure), which the reader adds to it.
    private func sleep(_ p: DayPlan) -> [JSONValue] {
        guard let s = p.sleep else { return [] }
        func h(_ minutes: Int) -> JSONValue { number(Double(minutes) / 60) }
        let inBed = Double(s.inBedSeconds) / 3_600
        let source = s.watchWorn ? FixtureSource.watch.name + "|" + FixtureSource.phone.name : FixtureSource.phone.name
        let main = JSONValue.object([
            ("date", .string(clock.exportText(clock.midnight(p.day)))),
            ("totalSleep", h(s.asleepMinutes)), ("asleep", number(0)), ("core", h(s.minutes(.core))), ("deep", h(s.minutes(.deep))),
            ("rem", h(s.minutes(.rem))), ("awake", h(s.minutes(.awake))), ("inBed", number(inBed)),
            ("sleepStart", .string(clock.exportText(s.sleepStart))), ("sleepEnd", .string(clock.exportText(s.sleepEnd))),
            ("inBedStart", .string(clock.exportText(min(s.inBedStart, s.sleepStart)))),
            ("inBedEnd", .string(clock.exportText(max(s.inBedEnd, s.sleepEnd)))),
            ("source", .string(source)),
        ])
        guard let nap = s.nap else { return [main] }
        let napText = (clock.exportText(nap.start), clock.exportText(nap.end))
        let hours = number(Double(nap.end - nap.start) / 3_600)
        return [
            main,
            .object([
                ("date", .string(clock.exportText(clock.midnight(p.day)))),
                ("totalSleep", hours), ("asleep", number(0)), ("core", hours), ("deep", number(0)), ("rem", number(0)),
                ("awake", number(0)), ("inBed", number(0)), ("sleepStart", .string(napText.0)), ("sleepEnd", .string(napText.1)),
                ("inBedStart", .string(napText.0)), ("inBedEnd", .string(napText.1)), ("source", .string(FixtureSource.watch.name)),
            ]),
        ]
    }

    /// A workout in HAE's version-2 schema; the same in both styles (HAE's Summarize setting
    /// does not change workouts).
    static func workout(_ w: WorkoutPlan, clock: FixtureClock, units: FixtureUnits) -> JSONValue {
        func number(_ v: Double) -> JSONValue { .number(v, decimals: 6) }
        func quantity(_ v: Double, _ unit: String) -> JSONValue { .object([("qty", number(v)), ("units", .string(unit))]) }
        var members: [(String, JSONValue)] = [
            ("id", .string(w.uuid)), ("name", .string(w.kind.haeName)),
            ("start", .string(clock.exportText(w.start))), ("end", .string(clock.exportText(w.end))),
            ("duration", number(Double(w.durationSeconds))),
            ("location", .string(w.kind == .strength ? "Indoor" : "Outdoor")), ("isIndoor", .bool(w.kind == .strength)),
            ("activeEnergyBurned", quantity(units.haeEnergy.written(Double(w.energyKcal)), units.haeEnergy.name)),
        ]
        if let m = w.distanceMetres {
            members.append(("distance", quantity(units.distance.written(Double(m) / 1000), units.distance.name)))
        }
        members += [
            ("avgHeartRate", quantity(w.averageHeartRate, "count/min")), ("maxHeartRate", quantity(w.maximumHeartRate, "count/min")),
            (
                "heartRate",
                .object([
                    ("min", quantity(w.minimumHeartRate, "count/min")), ("avg", quantity(w.averageHeartRate, "count/min")),
                    ("max", quantity(w.maximumHeartRate, "count/min")),
                ])
            ),
            ("metadata", .object([])),
        ]
        return .object(members)
    }
}
