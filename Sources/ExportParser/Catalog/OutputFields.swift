/// Every per-day output field, in `daily.csv` column order: the payload encoder, the CSV writer,
/// the store's long form (`FinishedDay.fields`) and its `daily` view are all derived from this
/// list, so a field added here appears in all of them and nowhere else can a name be missing.
///
/// The catalog's metrics give their rows (a `minmaxavg` metric four: avg, min, max, count);
/// the rest are the day itself, sleep and the workouts.
enum OutputFields {
    static let all: [OutputField] = {
        var rows = day
        for m in Catalog.metrics { rows += fields(of: m) }
        rows += sleep
        rows.append(workouts)
        rows.append(haeFilled)
        checkUnique(rows.compactMap(\.payloadPath), "payload path")
        checkUnique(rows.compactMap(\.column), "CSV column")
        checkUnique(rows.compactMap(\.storeName), "store name")
        return rows
    }()

    /// The fields `daily.csv` (and the store's `daily` view) has, in column order.
    static let columns: [OutputField] = all.filter { $0.column != nil }

    /// The date, its zone and the sync time head the payload. The sync time is when the data
    /// left the device, not a fact about the day, so the CSV and the store leave it out.
    private static let day: [OutputField] = [
        OutputField(payloadPath: "date", column: "date", storeName: "date", kind: .date, unit: nil, decimals: nil) { .text($0.date) },
        OutputField(payloadPath: "timezone", column: "timezone", storeName: "timezone", kind: .text, unit: nil, decimals: nil) {
            .text($0.timezone)
        },
        OutputField(payloadPath: "device_sync_timestamp", column: nil, storeName: nil, kind: .text, unit: nil, decimals: nil) {
            .text($0.deviceSyncTimestamp)
        },
    ]

    /// A metric's rows: one, or four for a `minmaxavg` metric.
    static func fields(of m: Metric) -> [OutputField] {
        let path = m.section.rawValue + "." + m.field
        let i = m.index
        guard m.rule == .minMaxAvg else {
            return [
                OutputField(
                    payloadPath: path, column: m.field, storeName: m.field, kind: OutputField.Kind(m.rule), unit: m.unit.rawValue,
                    decimals: m.decimals
                ) { day in day.values[i].map { .number($0) } }
            ]
        }
        return minMaxAvgFields(section: m.section, field: m.field, index: i, unit: m.unit, decimals: m.decimals)
    }

    /// The rows of a `minmaxavg` metric: an object in the payload
    /// (`heart_rate_samples: {avg, min, max, count}`) and four columns in the CSV and the store,
    /// named after the field without its `_samples` (`heart_rate_avg`, …), read from the metric's
    /// own summary slot of the day (`index`).
    static func minMaxAvgFields(section: PayloadSection, field: String, index i: Int, unit: CanonicalUnit, decimals: Int) -> [OutputField] {
        let path = section.rawValue + "." + field
        let base = field.hasSuffix("_samples") ? String(field.dropLast("_samples".count)) : field
        func part(
            _ key: String, _ kind: OutputField.Kind, unit: String, decimals: Int,
            _ value: @escaping @Sendable (MinMaxAvgSummary) -> Double?
        ) -> OutputField {
            OutputField(
                payloadPath: path + "." + key, column: base + "_" + key, storeName: base + "_" + key, kind: kind, unit: unit,
                decimals: decimals
            ) { day in day.summaries[i].flatMap(value).map { .number($0) } }
        }
        return [
            part("avg", .avg, unit: unit.rawValue, decimals: decimals) { $0.average },
            part("min", .min, unit: unit.rawValue, decimals: decimals) { $0.minimum },
            part("max", .max, unit: unit.rawValue, decimals: decimals) { $0.maximum },
            // Left out where only bucket statistics were read (they do not say how many samples).
            part("count", .count, unit: CanonicalUnit.count.rawValue, decimals: 0) { $0.count.map(Double.init) },
        ]
    }

    /// The night that ends on the date: `sleep.*` in the payload, `sleep_*` in the CSV and store.
    private static let sleep: [OutputField] = {
        func hours(_ key: String, _ value: @escaping @Sendable (SleepResult) -> Double?) -> OutputField {
            OutputField(
                payloadPath: "sleep." + key, column: "sleep_" + key, storeName: "sleep_" + key, kind: .sleepDuration,
                unit: CanonicalUnit.hours.rawValue, decimals: Catalog.sleepDecimals
            ) { day in day.sleep.flatMap(value).map { .number($0) } }
        }
        func text(_ key: String, _ kind: OutputField.Kind, _ value: @escaping @Sendable (SleepResult) -> String?) -> OutputField {
            OutputField(
                payloadPath: "sleep." + key, column: "sleep_" + key, storeName: "sleep_" + key, kind: kind, unit: nil,
                decimals: nil
            ) { day in day.sleep.flatMap(value).map { .text($0) } }
        }
        return [
            hours("total_hours") { $0.totalHours },
            hours("core_hours") { $0.coreHours },
            hours("deep_hours") { $0.deepHours },
            hours("rem_hours") { $0.remHours },
            hours("awake_hours") { $0.awakeHours },
            text("in_bed_start", .sleepTime) { $0.inBedStart },
            text("in_bed_end", .sleepTime) { $0.inBedEnd },
            text("source", .text) { $0.source },
        ]
    }()

    /// The payload lists the day's workouts (always, `[]` when none); the CSV and the store keep
    /// their count, 0 included.
    private static let workouts = OutputField(
        payloadPath: "workouts", column: "workouts_count", storeName: "workouts_count",
        kind: .workoutsCount, unit: CanonicalUnit.count.rawValue, decimals: 0
    ) { .workouts($0.workouts) }

    /// Where native and HAE inputs were merged (`DayMerge`), the CSV columns HAE filled, `;`
    /// between them; empty where native had everything or there was one side. The store keeps
    /// the provenance of every value itself (`day_values.import_id`).
    private static let haeFilled = OutputField(
        payloadPath: nil, column: "hae_filled", storeName: nil, kind: .text, unit: nil, decimals: nil
    ) {
        $0.haeFilled.isEmpty ? nil : .text($0.haeFilled.joined(separator: ";"))
    }

    /// Two rows with one name would write one cell twice and leave another out.
    private static func checkUnique(_ names: [String], _ what: String) {
        var seen = Set<String>()
        for n in names { precondition(seen.insert(n).inserted, "two output fields with the \(what) \(n)") }
    }
}
