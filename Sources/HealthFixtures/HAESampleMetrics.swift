import ExportParser

/// The metrics of a samples-style `hae.json` (Summarize off), in the order the file lists them,
/// and which of them each export record becomes: every catalog metric under its HAE name and in
/// the unit HAE would use (the Health app's preferences, as for the day-aggregated twin), three
/// metrics outside the catalog that real files carry (the reader keeps them as `hae:<name>`),
/// and the sleep segments.
struct HAESampleMetrics {
    enum Kind {
        /// `{startDate, endDate, qty, source}`.
        case quantity
        /// `{date, Min, Avg, Max, source}` with the three equal: one reading (HAE's seconds grouping).
        case heartRate
        /// `{startDate, endDate, qty (hours), value (the stage), source}`.
        case sleep
        /// `{date, systolic, diastolic, source}`, from the export's blood-pressure correlation.
        case bloodPressure
    }

    struct Metric {
        var name: String
        var units: String
        var kind: Kind
        /// Export.xml writes a fraction (0.97), HAE a percentage (97).
        var percent = false
    }

    private(set) var list: [Metric] = []
    private var byType: [UTF8Key: Int] = [:]
    private(set) var bloodPressure = 0

    init(units: FixtureUnits) {
        for m in Catalog.metrics {
            byType[UTF8Key(m.healthKitType)] = list.count
            list.append(
                Metric(
                    name: m.haeNames[0], units: HAEFixtureWriter.unit(for: m, units).name,
                    kind: m.rule == .minMaxAvg ? .heartRate : .quantity,
                    percent: m.unit == .percent))
        }
        for (type, name, unit) in [
            (FixtureRecord.quantity + "AppleStandTime", "apple_stand_time", "min"),
            (FixtureRecord.quantity + "EnvironmentalAudioExposure", "environmental_audio_exposure", "dBASPL"),
        ] {
            byType[UTF8Key(type)] = list.count
            list.append(Metric(name: name, units: unit, kind: .quantity))
        }
        bloodPressure = list.count
        list.append(Metric(name: "blood_pressure", units: "mmHg", kind: .bloodPressure))
        byType[UTF8Key(Catalog.sleepType)] = list.count
        list.append(Metric(name: "sleep_analysis", units: "hr", kind: .sleep))
    }

    /// The metric a top-level record becomes, or nil for one HAE does not write as a sample of its
    /// own (stand hours; blood pressure's halves, which come with their correlation).
    func index(of record: FixtureRecord) -> Int? { byType[UTF8Key(record.type)] }

    /// HAE's name of a sleep stage: `Core`, `Deep`, `REM`, `Awake`, `InBed`, `Asleep`.
    static func stage(_ value: String) -> String {
        let prefix = "HKCategoryValueSleepAnalysis"
        let short = value.hasPrefix(prefix) ? String(value.dropFirst(prefix.count)) : value
        switch short {
        case "AsleepCore": return "Core"
        case "AsleepDeep": return "Deep"
        case "AsleepREM": return "REM"
        case "AsleepUnspecified": return "Asleep"
        default: return short
        }
    }
}
