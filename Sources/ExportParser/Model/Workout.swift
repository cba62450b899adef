/// A `WorkoutStatistics` element (or the same figure from another input).
struct WorkoutStatistic: Hashable, Sendable {
    /// HealthKit quantity type, e.g. `HKQuantityTypeIdentifierActiveEnergyBurned`.
    var type: String
    var start: Timestamp?
    var end: Timestamp?
    var average: Double?
    var minimum: Double?
    var maximum: Double?
    var sum: Double?
    var unit: String?
    init(
        type: String, start: Timestamp? = nil, end: Timestamp? = nil, average: Double? = nil,
        minimum: Double? = nil, maximum: Double? = nil, sum: Double? = nil, unit: String? = nil
    ) {
        self.type = type
        self.start = start
        self.end = end
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.sum = sum
        self.unit = unit
    }
}

/// A `WorkoutEvent` (pause, resume, lap, segment, …).
struct WorkoutEvent: Hashable, Sendable {
    var type: String
    var date: Timestamp?
    var duration: Double?
    var durationUnit: String?
    var metadata: [MetadataEntry]
    init(type: String, date: Timestamp?, duration: Double? = nil, durationUnit: String? = nil, metadata: [MetadataEntry] = []) {
        self.type = type
        self.date = date
        self.duration = duration
        self.durationUnit = durationUnit
        self.metadata = metadata
    }
}

/// A `WorkoutRoute`: either `FileReference` paths (iOS 13+) or a count of inline `Location`s.
struct WorkoutRoute: Hashable, Sendable {
    var source: String?
    var start: Timestamp?
    var end: Timestamp?
    var filePaths: [String]
    var inlineLocationCount: Int
    init(source: String? = nil, start: Timestamp? = nil, end: Timestamp? = nil, filePaths: [String] = [], inlineLocationCount: Int = 0) {
        self.source = source
        self.start = start
        self.end = end
        self.filePaths = filePaths
        self.inlineLocationCount = inlineLocationCount
    }
}

/// A `WorkoutActivity` part of a multi-part workout. Its statistics belong to the part only and
/// are never added to the workout's own.
struct WorkoutActivity: Hashable, Sendable {
    var uuid: String?
    var start: Timestamp?
    var end: Timestamp?
    var duration: Double?
    var durationUnit: String?
    var statistics: [WorkoutStatistic]
    var events: [WorkoutEvent]
    var metadata: [MetadataEntry]
    init(
        uuid: String? = nil, start: Timestamp? = nil, end: Timestamp? = nil, duration: Double? = nil, durationUnit: String? = nil,
        statistics: [WorkoutStatistic] = [], events: [WorkoutEvent] = [], metadata: [MetadataEntry] = []
    ) {
        self.uuid = uuid
        self.start = start
        self.end = end
        self.duration = duration
        self.durationUnit = durationUnit
        self.statistics = statistics
        self.events = events
        self.metadata = metadata
    }
}

/// A workout as any input describes it. The payload's figures are derived by `WorkoutSummary`.
struct Workout: Sendable {
    /// `HKWorkoutActivityTypeRunning`, or for HAE the mapped name with the same prefix.
    var activityType: String
    var source: String
    var sourceVersion: String?
    var device: String?
    var start: Timestamp
    var end: Timestamp
    var created: Timestamp?
    var duration: Double?
    var durationUnit: String?
    var totalDistance: Double?
    var totalDistanceUnit: String?
    var totalEnergyBurned: Double?
    var totalEnergyBurnedUnit: String?
    var statistics: [WorkoutStatistic]
    var activities: [WorkoutActivity]
    var events: [WorkoutEvent]
    var routes: [WorkoutRoute]
    var metadata: [MetadataEntry]
    /// Figures an input states directly in payload units (HAE's `avgHeartRate`, …); they win over
    /// derived ones. Readers of export.xml leave these nil.
    var statedAverageHeartRate: Double?
    var statedMaximumHeartRate: Double?
    var timeZoneName: String?
    /// An HAE version-2 workout's `id`: the same workout in every REST body that repeats it, even
    /// when a later body states more of it (`HAEBodyMerger` keeps it once).
    var haeID: String?

    init(activityType: String, source: String, start: Timestamp, end: Timestamp) {
        self.activityType = activityType
        self.source = source
        self.start = start
        self.end = end
        self.statistics = []
        self.activities = []
        self.events = []
        self.routes = []
        self.metadata = []
    }
}
