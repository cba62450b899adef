import ExportParser

/// `plan.json`: the plan itself, date by date, in payload units at full precision: what each
/// field was decided to be, the night's segments and the workouts, so a failing comparison can
/// be traced to the decision behind it.
enum PlanJSON {
    static func json(_ data: FixtureData, request: FixtureRequest, clock: FixtureClock) -> [UInt8] {
        func n(_ v: Double) -> JSONValue { .number(v, decimals: 9) }
        let days: [JSONValue] = data.plans.map { p in
            var members: [(String, JSONValue)] = [("date", .string(CivilDate.isoDate(p.day))), ("timezone", .string(p.zoneName))]
            members.append(("values", .object(Catalog.metrics.compactMap { m in p.values[m.index].map { (m.field, n($0)) } })))
            if let hr = p.heartRate {
                members.append(
                    (
                        "heart_rate",
                        .object([
                            ("avg", n(hr.average)), ("min", n(hr.minimum)), ("max", n(hr.maximum)),
                            ("count", n(Double(hr.count ?? 0))),
                        ])
                    ))
            }
            if let s = p.sleep {
                members.append(
                    (
                        "sleep",
                        .object([
                            ("watch_worn", .bool(s.watchWorn)),
                            ("in_bed", .array(s.inBed.map { .array([.string(clock.iso($0.start)), .string(clock.iso($0.end))]) })),
                            (
                                "segments",
                                .array(
                                    s.segments.map {
                                        .array([.string($0.stage.rawValue), .string(clock.iso($0.start)), .string(clock.iso($0.end))])
                                    })
                            ),
                        ])
                    ))
            }
            members.append(
                (
                    "workouts",
                    .array(
                        p.workouts.map { w in
                            .object([
                                ("type", .string(w.kind.rawValue)), ("start", .string(clock.iso(w.start))),
                                ("end", .string(clock.iso(w.end))),
                                ("pause_seconds", n(Double(w.pauseSeconds))), ("energy_kcal", n(Double(w.energyKcal))),
                                ("distance_m", w.distanceMetres.map { n(Double($0)) } ?? .null), ("avg_heart_rate", n(w.averageHeartRate)),
                                ("max_heart_rate", n(w.maximumHeartRate)), ("statistics", .bool(w.statistics)),
                                ("written_twice", .bool(w.writtenTwice)),
                            ])
                        })
                ))
            return .object(members)
        }
        let root = JSONValue.object([
            ("command", .string(request.commandLine)), ("profile", .string(request.profile)), ("units", .string(request.units)),
            ("seed", .string(String(request.seed))), ("timezone", .string(request.timeZoneName)), ("days", .array(days)),
        ])
        return Array((root.render() + "\n").utf8)
    }
}
