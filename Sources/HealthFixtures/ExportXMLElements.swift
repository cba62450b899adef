import ExportParser

/// The text of export.xml's elements as the Health app writes them: records (with metadata and
/// HRV beat lists), correlations, workouts (statistics, events, activity, route reference) and
/// `ActivitySummary` rings. Each is appended to a buffer; `ExportXMLWriter` decides where it goes.
struct ExportXMLElements {
    let clock: FixtureClock
    let units: FixtureUnits
    private var time: FixtureTimeText

    /// `writtenOffset`: the one offset every timestamp is written in (the export moment's), or
    /// nil for each instant's own (`--export-offsets sample`).
    init(clock: FixtureClock, units: FixtureUnits, writtenOffset: Int32?) {
        self.clock = clock
        self.units = units
        time = FixtureTimeText(clock: clock, fixedOffset: writtenOffset)
    }

    /// The `device` attribute: the source's `HKDevice` text with a memory address of its own, as
    /// every real record has (drawn from `addresses`).
    private func device(_ text: String?, _ addresses: inout FixtureRandom, _ out: inout ByteBuffer) {
        guard let text else { return }
        out.put(" device=\"&lt;&lt;HKDevice: 0x28")
        out.hex(addresses.next() & 0xFFF_FFFF)
        out.put("&gt;, ")
        out.escaped(text)
        out.put("&gt;\"")
    }

    private func source(_ s: FixtureSource, _ addresses: inout FixtureRandom, _ out: inout ByteBuffer) {
        out.attribute("sourceName", s.name)
        out.attribute("sourceVersion", s.version)
        device(s.device, &addresses, &out)
    }

    private func metadata(_ entries: [(key: String, value: String)], indent: String, _ out: inout ByteBuffer) {
        for m in entries {
            out.put(indent)
            out.put("<MetadataEntry")
            out.attribute("key", m.key)
            out.attribute("value", m.value)
            out.put("/>\n")
        }
    }

    mutating func record(_ r: FixtureRecord, indent: String, addresses: inout FixtureRandom, into out: inout ByteBuffer) {
        out.put(indent)
        out.put("<Record")
        out.attribute("type", r.type)
        source(r.source, &addresses, &out)
        if let unit = r.unit { out.attribute("unit", unit) }
        time.attribute("creationDate", r.created, into: &out)
        time.attribute("startDate", r.start, into: &out)
        time.attribute("endDate", r.end, into: &out)
        out.attribute("value", r.value)
        if r.metadata.isEmpty && r.beats.isEmpty {
            out.put("/>\n")
            return
        }
        out.put(">\n")
        metadata(r.metadata, indent: indent + " ", &out)
        if !r.beats.isEmpty {
            out.put(indent + " <HeartRateVariabilityMetadataList>\n")
            for b in r.beats {
                out.put(indent + "  <InstantaneousBeatsPerMinute bpm=\"")
                out.decimal(b.bpm)
                out.put("\"")
                out.attribute("time", b.time)
                out.put("/>\n")
            }
            out.put(indent + " </HeartRateVariabilityMetadataList>\n")
        }
        out.put(indent)
        out.put("</Record>\n")
    }

    mutating func correlation(_ c: FixtureCorrelation, addresses: inout FixtureRandom, into out: inout ByteBuffer) {
        out.put(" <Correlation")
        out.attribute("type", c.type)
        source(c.source, &addresses, &out)
        time.attribute("creationDate", c.created, into: &out)
        time.attribute("startDate", c.start, into: &out)
        time.attribute("endDate", c.end, into: &out)
        out.put(">\n")
        metadata(c.metadata, indent: "  ", &out)
        for m in c.members { record(m, indent: "  ", addresses: &addresses, into: &out) }
        out.put(" </Correlation>\n")
    }

    private mutating func dates(_ start: Int64, _ end: Int64, _ out: inout ByteBuffer) {
        time.attribute("startDate", start, into: &out)
        time.attribute("endDate", end, into: &out)
    }

    private mutating func statistic(
        _ type: String, _ w: WorkoutPlan, _ figures: [(String, String)], unit: String, indent: String, _ out: inout ByteBuffer
    ) {
        out.put(indent + "<WorkoutStatistics")
        out.attribute("type", FixtureRecord.quantity + type)
        dates(w.start, w.end, &out)
        for (k, v) in figures { out.attribute(k, v) }
        out.attribute("unit", unit)
        out.put("/>\n")
    }

    private mutating func statistics(_ w: WorkoutPlan, indent: String, _ out: inout ByteBuffer) {
        let energy = units.energy
        statistic("ActiveEnergyBurned", w, [("sum", energy.text(Double(w.energyKcal)))], unit: energy.name, indent: indent, &out)
        statistic(
            "BasalEnergyBurned", w, [("sum", energy.text(Double(w.durationSeconds) / 60 * 1.1))], unit: energy.name, indent: indent, &out)
        if let m = w.distanceMetres {
            statistic(
                "DistanceWalkingRunning", w, [("sum", units.distance.text(Double(m) / 1000))], unit: units.distance.name, indent: indent,
                &out)
        }
        statistic(
            "HeartRate", w,
            [
                ("average", FixtureNumber.text(w.averageHeartRate, decimals: 4)),
                ("minimum", FixtureNumber.text(w.minimumHeartRate, decimals: 0)),
                ("maximum", FixtureNumber.text(w.maximumHeartRate, decimals: 0)),
            ], unit: "count/min", indent: indent, &out)
        statistic("StepCount", w, [("sum", String(w.steps))], unit: "count", indent: indent, &out)
        if w.kind == .running, let m = w.distanceMetres {
            let speed = Double(m) / Double(w.durationSeconds) * 3.6
            statistic(
                "RunningSpeed", w,
                [
                    ("average", units.speed.text(speed)), ("minimum", units.speed.text(speed * 0.8)),
                    ("maximum", units.speed.text(speed * 1.25)),
                ], unit: units.speed.name, indent: indent, &out)
        }
    }

    /// `route_2026-03-22_6.30pm.gpx`: the Health app's name for a route file.
    static func routeName(_ w: WorkoutPlan, clock: FixtureClock) -> String {
        let iso = clock.iso(w.start)
        let hour = Int(iso.dropFirst(11).prefix(2))!, minute = String(iso.dropFirst(14).prefix(2))
        let h12 = hour % 12 == 0 ? 12 : hour % 12
        return "route_" + iso.prefix(10) + "_" + String(h12) + "." + minute + (hour < 12 ? "am" : "pm") + ".gpx"
    }

    mutating func workout(_ w: WorkoutPlan, created: Int64, addresses: inout FixtureRandom, into out: inout ByteBuffer) {
        out.put(" <Workout")
        out.attribute("workoutActivityType", "HKWorkoutActivityType" + w.kind.rawValue)
        out.attribute("duration", FixtureNumber.text(Double(w.durationSeconds) / 60, decimals: 10))
        out.attribute("durationUnit", "min")
        if !w.statistics {
            // Older exports: totals as attributes, and a zero distance on strength workouts.
            out.attribute("totalDistance", "0")
            out.attribute("totalDistanceUnit", units.distance.name)
            out.attribute("totalEnergyBurned", units.energy.text(Double(w.energyKcal)))
            out.attribute("totalEnergyBurnedUnit", units.energy.name)
        }
        source(w.source, &addresses, &out)
        time.attribute("creationDate", created, into: &out)
        dates(w.start, w.end, &out)
        out.put(">\n")
        metadata(
            [("HKTimeZone", clock.zoneName(at: w.start)), ("HKIndoorWorkout", w.kind == .strength ? "1" : "0")], indent: "  ", &out)
        guard w.statistics else {
            out.put(" </Workout>\n")
            return
        }
        metadata(
            [
                ("HKElevationAscended", String(w.durationSeconds / 40) + " cm"), ("HKWeatherTemperature", "52 degF"),
                ("HKWeatherHumidity", "7100 %"),
            ], indent: "  ", &out)
        if w.pauseSeconds > 0 {
            let pause = w.start + (w.end - w.start) / 2
            for (type, t) in [("HKWorkoutEventTypePause", pause), ("HKWorkoutEventTypeResume", pause + w.pauseSeconds)] {
                out.put("  <WorkoutEvent")
                out.attribute("type", type)
                time.attribute("date", t, into: &out)
                out.put("/>\n")
            }
        }
        out.put("  <WorkoutEvent")
        out.attribute("type", "HKWorkoutEventTypeSegment")
        time.attribute("date", w.start, into: &out)
        out.attribute("duration", FixtureNumber.text(Double(w.end - w.start) / 120, decimals: 6))
        out.attribute("durationUnit", "min")
        out.put("/>\n")
        // Current exports nest the workout's one activity, repeating its statistics: they must
        // never be added to the workout's own.
        out.put("  <WorkoutActivity")
        out.attribute("uuid", w.uuid)
        dates(w.start, w.end, &out)
        out.attribute("duration", FixtureNumber.text(Double(w.durationSeconds) / 60, decimals: 10))
        out.attribute("durationUnit", "min")
        out.put(">\n")
        statistics(w, indent: "   ", &out)
        out.put("  </WorkoutActivity>\n")
        statistics(w, indent: "  ", &out)
        out.put("  <WorkoutRoute")
        out.attribute("sourceName", FixtureSource.watch.name)
        out.attribute("sourceVersion", FixtureSource.watch.version)
        time.attribute("creationDate", w.end + 60, into: &out)
        dates(w.start, w.end, &out)
        out.put(">\n")
        metadata([("HKMetadataKeySyncVersion", "2")], indent: "   ", &out)
        out.put("   <FileReference")
        out.attribute("path", "/workout-routes/" + Self.routeName(w, clock: clock))
        out.put("/>\n  </WorkoutRoute>\n </Workout>\n")
    }

    func activitySummary(_ s: FixtureActivitySummary, into out: inout ByteBuffer) {
        out.put(" <ActivitySummary")
        out.attribute("dateComponents", CivilDate.isoDate(s.day))
        out.attribute("activeEnergyBurned", units.energy.text(s.activeKcal))
        out.attribute("activeEnergyBurnedGoal", units.energy.text(600))
        out.attribute("activeEnergyBurnedUnit", units.energy.name)
        out.attribute("appleMoveTime", "0")
        out.attribute("appleMoveTimeGoal", "0")
        out.attribute("appleExerciseTime", String(s.exerciseMinutes))
        out.attribute("appleExerciseTimeGoal", "30")
        out.attribute("appleStandHours", String(s.standHours))
        out.attribute("appleStandHoursGoal", "12")
        out.put("/>\n")
    }
}
