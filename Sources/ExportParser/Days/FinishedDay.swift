/// The night result the payload's `sleep` object is written from (hours at full precision).
public struct SleepResult: Sendable, Equatable {
    public var totalHours: Double
    public var coreHours: Double?
    public var deepHours: Double?
    public var remHours: Double?
    public var awakeHours: Double?
    /// ISO 8601 with offset, seconds precision.
    public var inBedStart: String?
    public var inBedEnd: String?
    public var source: String?
    public init(totalHours: Double) { self.totalHours = totalHours }
}

/// One workout as the payload writes it (full precision; rounded by the writers).
public struct WorkoutSummary: Sendable, Equatable {
    /// HKWorkoutActivityType name without its prefix (`Running`).
    public var type: String
    public var start: String
    public var end: String
    public var durationSeconds: Double
    public var energyKcal: Double?
    public var averageHeartRate: Double?
    public var maximumHeartRate: Double?
    public var distanceMetres: Double?
    public var source: String
    /// For ordering within the day.
    public var startSeconds: Int64
}

/// A day of a `minmaxavg` metric (`heart_rate_samples`). `count` is nil when only bucket
/// statistics were read (HAE).
public struct MinMaxAvgSummary: Sendable, Equatable {
    public var average: Double
    public var minimum: Double
    public var maximum: Double
    public var count: Int?
}

/// A day after every rule has run: what the writers (payload, CSV, store) take. They never see
/// input shapes.
public struct FinishedDay: Sendable {
    /// Days since 1970-01-01 of the local date.
    public var dayNumber: Int
    public var date: String { CivilDate.isoDate(dayNumber) }
    /// IANA name, or a `+11:00` offset when the input gave nothing better.
    public var timezone: String
    public var deviceSyncTimestamp: String
    /// Values by `Metric.index`, in payload units at full precision; nil where the rule had no
    /// samples. `minmaxavg` metrics are in `summaries` instead.
    public var values: [Double?]
    /// Summaries of the `minmaxavg` metrics by `Metric.index`; nil for other rules and where
    /// there were no samples.
    var summaries: [MinMaxAvgSummary?]
    public var sleep: SleepResult?
    public var workouts: [WorkoutSummary]
    /// The CSV columns whose value HAE filled where the native inputs had none (`DayMerge`).
    var haeFilled: [String] = []

    public init(dayNumber: Int, timezone: String, deviceSyncTimestamp: String) {
        self.dayNumber = dayNumber
        self.timezone = timezone
        self.deviceSyncTimestamp = deviceSyncTimestamp
        self.values = Array(repeating: nil, count: Catalog.metrics.count)
        self.summaries = Array(repeating: nil, count: Catalog.metrics.count)
        self.workouts = []
    }

    private static let heartRateIndex = Catalog.metric(named: "heart_rate_samples").index

    /// The `heart_rate_samples` summary (its slot in `summaries`).
    public var heartRate: MinMaxAvgSummary? {
        get { summaries[Self.heartRateIndex] }
        set { summaries[Self.heartRateIndex] = newValue }
    }

    /// The value of a catalog field (not a `minmaxavg` one); a name not in the catalog is a
    /// mistake in the caller.
    public func value(_ field: String) -> Double? {
        values[Catalog.metric(named: field).index]
    }

    /// One value of the long form: an `OutputField.storeName` with a number or a text.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: Double?
        public var text: String?
        public var unit: String?
        public init(name: String, value: Double? = nil, text: String? = nil, unit: String? = nil) {
            self.name = name
            self.value = value
            self.text = text
            self.unit = unit
        }
    }

    /// The day in long form (the store's `day_values`), in `OutputFields.all` order, only the
    /// fields that have a value. The date is not among them: it is the key of every row.
    public var fields: [Field] {
        OutputFields.all.compactMap { f in
            guard let name = f.storeName, f.kind != .date, let v = f.read(self) else { return nil }
            switch v.scalar {
            case .number(let n): return Field(name: name, value: n, unit: f.unit)
            case .text(let t): return Field(name: name, text: t)
            }
        }
    }
}
