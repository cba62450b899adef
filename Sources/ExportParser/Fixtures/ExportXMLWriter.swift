/// Writes `export.xml` from the fixture's records, as the Health app lays it out: the DTD
/// prolog, `ExportDate`, `Me`, every record grouped by type in date order, then correlations,
/// workouts and the daily `ActivitySummary` rings.
struct ExportXMLWriter {
    let data: FixtureData
    let clock: FixtureClock
    let units: FixtureUnits
    /// The memory addresses of the `device` texts (each record has its own).
    private var addresses: FixtureRandom
    private var out = ByteBuffer(capacity: 1 << 20)

    init(data: FixtureData, clock: FixtureClock, units: FixtureUnits, seed: UInt64) {
        self.data = data
        self.clock = clock
        self.units = units
        addresses = FixtureRandom(seed: seed, stream: 0xADD2E55)
    }

    /// The order types appear in (the Health app groups records by type).
    static let typeOrder: [String] = {
        let q = FixtureRecord.quantity, k = FixtureRecord.category
        return [
            "StepCount", "DistanceWalkingRunning", "ActiveEnergyBurned", "BasalEnergyBurned", "AppleExerciseTime", "FlightsClimbed",
            "TimeInDaylight", "HeartRate", "RestingHeartRate", "HeartRateVariabilitySDNN", "RespiratoryRate", "OxygenSaturation",
            "AppleSleepingWristTemperature", "WalkingSpeed", "HeartRateRecoveryOneMinute", "VO2Max", "RunningSpeed", "RunningPower",
            "RunningStrideLength", "RunningVerticalOscillation", "RunningGroundContactTime", "BodyMass", "BodyFatPercentage",
            "LeanBodyMass", "BloodPressureSystolic", "BloodPressureDiastolic", "DietaryEnergyConsumed", "DietaryProtein",
            "DietaryCarbohydrates", "DietaryFatTotal", "DietaryFiber", "DietarySugar", "DietaryPotassium", "DietaryCholesterol",
            "NumberOfAlcoholicBeverages", "AppleStandTime", "EnvironmentalAudioExposure",
        ].map { q + $0 }
            + ["SleepAnalysis", "AppleStandHour"].map { k + $0 }
    }()

    mutating func write(locale: String, dtd: String = ExportDTD.current) -> [UInt8] {
        out.put(ExportDTD.declaration)
        out.put(dtd)
        out.put("<HealthData locale=\"" + locale + "\">\n")
        out.put(" <ExportDate value=\"" + clock.exportText(data.exportDate) + "\"/>\n")
        out.put(
            " <Me HKCharacteristicTypeIdentifierDateOfBirth=\"1990-05-17\" HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexFemale\" HKCharacteristicTypeIdentifierBloodType=\"HKBloodTypeAPositive\" HKCharacteristicTypeIdentifierFitzpatrickSkinType=\"HKFitzpatrickSkinTypeNotSet\" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=\"None\"/>\n"
        )
        let rank = Dictionary(uniqueKeysWithValues: Self.typeOrder.enumerated().map { ($1, $0) })
        let order = data.records.indices.sorted { a, b in
            let x = data.records[a], y = data.records[b]
            let rx = rank[x.type] ?? Int.max, ry = rank[y.type] ?? Int.max
            if rx != ry { return rx < ry }
            if x.start != y.start { return x.start < y.start }
            return a < b
        }
        for i in order { record(data.records[i], indent: " ") }
        for c in data.correlations { correlation(c) }
        for plan in data.plans {
            for w in plan.workouts {
                workout(w, created: w.end + 95)
                // A sync's copy: identical but for the creation date and the device's address.
                if w.writtenTwice { workout(w, created: w.end + 3 * 86_400 + 17) }
            }
        }
        for s in data.summaries { activitySummary(s) }
        out.put("</HealthData>\n")
        return out.bytes
    }

    private mutating func device(_ text: String?) {
        guard let text else { return }
        let address = "0x28" + String(addresses.next() & 0xFFF_FFFF, radix: 16)
        out.attribute("device", "<<HKDevice: " + address + ">, " + text + ">")
    }

    private mutating func source(_ s: FixtureSource) {
        out.attribute("sourceName", s.name)
        out.attribute("sourceVersion", s.version)
        device(s.device)
    }

    private mutating func metadata(_ entries: [(key: String, value: String)], indent: String) {
        for m in entries {
            out.put(indent + "<MetadataEntry")
            out.attribute("key", m.key)
            out.attribute("value", m.value)
            out.put("/>\n")
        }
    }

    private mutating func record(_ r: FixtureRecord, indent: String) {
        out.put(indent + "<Record")
        out.attribute("type", r.type)
        source(r.source)
        if let unit = r.unit { out.attribute("unit", unit) }
        out.attribute("creationDate", clock.exportText(r.created))
        out.attribute("startDate", clock.exportText(r.start))
        out.attribute("endDate", clock.exportText(r.end))
        out.attribute("value", r.value)
        if r.metadata.isEmpty && r.beats.isEmpty {
            out.put("/>\n")
            return
        }
        out.put(">\n")
        metadata(r.metadata, indent: indent + " ")
        if !r.beats.isEmpty {
            out.put(indent + " <HeartRateVariabilityMetadataList>\n")
            for b in r.beats {
                out.put(indent + "  <InstantaneousBeatsPerMinute")
                out.attribute("bpm", String(b.bpm))
                out.attribute("time", b.time)
                out.put("/>\n")
            }
            out.put(indent + " </HeartRateVariabilityMetadataList>\n")
        }
        out.put(indent + "</Record>\n")
    }

    private mutating func correlation(_ c: FixtureCorrelation) {
        out.put(" <Correlation")
        out.attribute("type", c.type)
        source(c.source)
        out.attribute("creationDate", clock.exportText(c.created))
        out.attribute("startDate", clock.exportText(c.start))
        out.attribute("endDate", clock.exportText(c.end))
        out.put(">\n")
        metadata(c.metadata, indent: "  ")
        for m in c.members { record(m, indent: "  ") }
        out.put(" </Correlation>\n")
    }

    private mutating func dates(_ start: Int64, _ end: Int64) {
        out.attribute("startDate", clock.exportText(start))
        out.attribute("endDate", clock.exportText(end))
    }

    private mutating func statistic(_ type: String, _ w: WorkoutPlan, _ figures: [(String, String)], unit: String, indent: String) {
        out.put(indent + "<WorkoutStatistics")
        out.attribute("type", FixtureRecord.quantity + type)
        dates(w.start, w.end)
        for (k, v) in figures { out.attribute(k, v) }
        out.attribute("unit", unit)
        out.put("/>\n")
    }

    private mutating func statistics(_ w: WorkoutPlan, indent: String) {
        let energy = units.energy
        statistic("ActiveEnergyBurned", w, [("sum", energy.text(Double(w.energyKcal)))], unit: energy.name, indent: indent)
        statistic("BasalEnergyBurned", w, [("sum", energy.text(Double(w.durationSeconds) / 60 * 1.1))], unit: energy.name, indent: indent)
        if let m = w.distanceMetres {
            statistic(
                "DistanceWalkingRunning", w, [("sum", units.distance.text(Double(m) / 1000))], unit: units.distance.name, indent: indent)
        }
        statistic(
            "HeartRate", w,
            [
                ("average", FixtureNumber.text(w.averageHeartRate, decimals: 4)),
                ("minimum", FixtureNumber.text(w.minimumHeartRate, decimals: 0)),
                ("maximum", FixtureNumber.text(w.maximumHeartRate, decimals: 0)),
            ], unit: "count/min", indent: indent)
        statistic("StepCount", w, [("sum", String(w.steps))], unit: "count", indent: indent)
        if w.kind == .running, let m = w.distanceMetres {
            let speed = Double(m) / Double(w.durationSeconds) * 3.6
            statistic(
                "RunningSpeed", w,
                [
                    ("average", units.speed.text(speed)), ("minimum", units.speed.text(speed * 0.8)),
                    ("maximum", units.speed.text(speed * 1.25)),
                ], unit: units.speed.name, indent: indent)
        }
    }

    /// `route_2026-03-22_6.30pm.gpx`: the Health app's name for a route file.
    static func routeName(_ w: WorkoutPlan, clock: FixtureClock) -> String {
        let iso = clock.iso(w.start)
        let hour = Int(iso.dropFirst(11).prefix(2))!, minute = String(iso.dropFirst(14).prefix(2))
        let h12 = hour % 12 == 0 ? 12 : hour % 12
        return "route_" + iso.prefix(10) + "_" + String(h12) + "." + minute + (hour < 12 ? "am" : "pm") + ".gpx"
    }

    private mutating func workout(_ w: WorkoutPlan, created: Int64) {
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
        source(w.source)
        out.attribute("creationDate", clock.exportText(created))
        dates(w.start, w.end)
        out.put(">\n")
        metadata([("HKTimeZone", clock.zoneName(at: w.start)), ("HKIndoorWorkout", w.kind == .strength ? "1" : "0")], indent: "  ")
        guard w.statistics else {
            out.put(" </Workout>\n")
            return
        }
        metadata(
            [
                ("HKElevationAscended", String(w.durationSeconds / 40) + " cm"), ("HKWeatherTemperature", "52 degF"),
                ("HKWeatherHumidity", "7100 %"),
            ], indent: "  ")
        if w.pauseSeconds > 0 {
            let pause = w.start + (w.end - w.start) / 2
            for (type, t) in [("HKWorkoutEventTypePause", pause), ("HKWorkoutEventTypeResume", pause + w.pauseSeconds)] {
                out.put("  <WorkoutEvent")
                out.attribute("type", type)
                out.attribute("date", clock.exportText(t))
                out.put("/>\n")
            }
        }
        out.put("  <WorkoutEvent")
        out.attribute("type", "HKWorkoutEventTypeSegment")
        out.attribute("date", clock.exportText(w.start))
        out.attribute("duration", FixtureNumber.text(Double(w.end - w.start) / 120, decimals: 6))
        out.attribute("durationUnit", "min")
        out.put("/>\n")
        // Current exports nest the workout's one activity, repeating its statistics: they must
        // never be added to the workout's own.
        out.put("  <WorkoutActivity")
        out.attribute("uuid", w.uuid)
        dates(w.start, w.end)
        out.attribute("duration", FixtureNumber.text(Double(w.durationSeconds) / 60, decimals: 10))
        out.attribute("durationUnit", "min")
        out.put(">\n")
        statistics(w, indent: "   ")
        out.put("  </WorkoutActivity>\n")
        statistics(w, indent: "  ")
        out.put("  <WorkoutRoute")
        out.attribute("sourceName", FixtureSource.watch.name)
        out.attribute("sourceVersion", FixtureSource.watch.version)
        out.attribute("creationDate", clock.exportText(w.end + 60))
        dates(w.start, w.end)
        out.put(">\n")
        metadata([("HKMetadataKeySyncVersion", "2")], indent: "   ")
        out.put("   <FileReference")
        out.attribute("path", "/workout-routes/" + Self.routeName(w, clock: clock))
        out.put("/>\n  </WorkoutRoute>\n </Workout>\n")
    }

    private mutating func activitySummary(_ s: FixtureActivitySummary) {
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
