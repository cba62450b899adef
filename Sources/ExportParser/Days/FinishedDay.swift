/// The night result the payload's `sleep` object is written from (hours at full precision).
package struct SleepResult: Sendable, Equatable {
    var totalHours: Double
    package var coreHours: Double?
    package var deepHours: Double?
    package var remHours: Double?
    package var awakeHours: Double?
    /// ISO 8601 with offset, seconds precision.
    package var inBedStart: String?
    package var inBedEnd: String?
    package var source: String?
    package init(totalHours: Double) { self.totalHours = totalHours }
}

/// One workout as the payload writes it (full precision; rounded by the writers).
package struct WorkoutSummary: Sendable, Equatable {
    /// HKWorkoutActivityType name without its prefix (`Running`).
    var type: String
    var start: String
    var end: String
    var durationSeconds: Double
    var energyKcal: Double?
    var averageHeartRate: Double?
    var maximumHeartRate: Double?
    var distanceMetres: Double?
    var source: String
    /// For ordering within the day.
    var startSeconds: Int64

    /// Spelled out (not the memberwise one) so the fixture generator, another target, can build one.
    package init(
        type: String, start: String, end: String, durationSeconds: Double, energyKcal: Double? = nil,
        averageHeartRate: Double? = nil, maximumHeartRate: Double? = nil, distanceMetres: Double? = nil,
        source: String, startSeconds: Int64
    ) {
        self.type = type
        self.start = start
        self.end = end
        self.durationSeconds = durationSeconds
        self.energyKcal = energyKcal
        self.averageHeartRate = averageHeartRate
        self.maximumHeartRate = maximumHeartRate
        self.distanceMetres = distanceMetres
        self.source = source
        self.startSeconds = startSeconds
    }
}

/// A day of a `minmaxavg` metric (`heart_rate_samples`). `count` is nil when only bucket
/// statistics were read (HAE).
package struct MinMaxAvgSummary: Sendable, Equatable {
    package var average: Double
    package var minimum: Double
    package var maximum: Double
    package var count: Int?

    /// Spelled out (not the memberwise one) so the fixture generator, another target, can build one.
    package init(average: Double, minimum: Double, maximum: Double, count: Int? = nil) {
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.count = count
    }
}

/// A day after every rule has run: what the writers (payload, CSV, store) take. They never see
/// input shapes.
package struct FinishedDay: Sendable {
    /// Days since 1970-01-01 of the local date.
    var dayNumber: Int
    package var date: String { CivilDate.isoDate(dayNumber) }
    /// IANA name, or a `+11:00` offset when the input gave nothing better.
    var timezone: String
    var deviceSyncTimestamp: String
    /// Values by `Metric.index`, in payload units at full precision; nil where the rule had no
    /// samples. `minmaxavg` metrics are in `summaries` instead. 8 bytes a metric (`DayValues`).
    package var values: DayValues
    /// Summaries of the `minmaxavg` metrics by `Metric.index`; none for other rules and where
    /// there were no samples. Keyed, not a slot per metric: one or two metrics of the catalog's
    /// ~50 are `minmaxavg`, and every date of a long export is held at once at the end of the
    /// run (~2 kB of empty slots a day; issue 24). A `MetricSlots` (one small array: 80 bytes
    /// for the heart rate's summary) rather than a dictionary (176 bytes for one entry).
    var summaries: MetricSlots<MinMaxAvgSummary>
    package var sleep: SleepResult?
    package var workouts: [WorkoutSummary]
    /// The CSV columns whose value HAE filled where the native inputs had none (`DayMerge`).
    var haeFilled: [String] = []

    package init(dayNumber: Int, timezone: String, deviceSyncTimestamp: String) {
        self.dayNumber = dayNumber
        self.timezone = timezone
        self.deviceSyncTimestamp = deviceSyncTimestamp
        self.values = DayValues(count: Catalog.metrics.count)
        self.summaries = MetricSlots()
        self.workouts = []
    }

    private static let heartRateIndex = Catalog.metric(named: "heart_rate_samples").index

    /// The `heart_rate_samples` summary (its slot in `summaries`).
    package var heartRate: MinMaxAvgSummary? {
        get { summaries[Self.heartRateIndex] }
        set { summaries[Self.heartRateIndex] = newValue }
    }

    /// The value of a catalog field (not a `minmaxavg` one); a name not in the catalog is a
    /// mistake in the caller.
    func value(_ field: String) -> Double? {
        values[Catalog.metric(named: field).index]
    }

    /// One value of the long form: an `OutputField.storeName` with a number or a text.
    struct Field: Sendable, Equatable {
        var name: String
        var value: Double?
        var text: String?
        var unit: String?
        init(name: String, value: Double? = nil, text: String? = nil, unit: String? = nil) {
            self.name = name
            self.value = value
            self.text = text
            self.unit = unit
        }
    }

    /// The day in long form (the store's `day_values`), in `OutputFields.all` order, only the
    /// fields that have a value. The date is not among them: it is the key of every row.
    var fields: [Field] {
        OutputFields.all.compactMap { f in
            guard let name = f.storeName, f.kind != .date, let v = f.read(self) else { return nil }
            switch v.scalar {
            case .number(let n): return Field(name: name, value: n, unit: f.unit)
            case .text(let t): return Field(name: name, text: t)
            }
        }
    }
}

extension FinishedDay {
    /// The day without any value that is not a finite number. The readers skip non-finite and
    /// implausible samples, so no rule can produce one; this is the last guard before the
    /// writers, which must never see one (JSON has no infinity).
    var withFiniteValues: FinishedDay {
        var d = self
        for i in d.values.indices where d.values[i].map({ !$0.isFinite }) ?? false { d.values[i] = nil }
        for (i, m) in self.summaries where ![m.average, m.minimum, m.maximum].allSatisfy(\.isFinite) { d.summaries[i] = nil }
        if let s = d.sleep, ![s.totalHours, s.coreHours ?? 0, s.deepHours ?? 0, s.remHours ?? 0, s.awakeHours ?? 0].allSatisfy(\.isFinite) {
            d.sleep = nil
        }
        d.workouts = d.workouts.map { w in
            var w = w
            func finite(_ v: Double?) -> Double? { v.flatMap { $0.isFinite ? $0 : nil } }
            w.energyKcal = finite(w.energyKcal)
            w.distanceMetres = finite(w.distanceMetres)
            w.averageHeartRate = finite(w.averageHeartRate)
            w.maximumHeartRate = finite(w.maximumHeartRate)
            if !w.durationSeconds.isFinite { w.durationSeconds = 0 }
            return w
        }
        return d
    }

    /// A day is written when any rule produced something for it.
    var hasContent: Bool {
        sleep != nil || !workouts.isEmpty || values.contains { $0 != nil } || !summaries.isEmpty
    }
}
