/// A `WorkoutStatistics` element (or the same figure from another input).
public struct WorkoutStatistic: Hashable, Sendable {
    /// HealthKit quantity type, e.g. `HKQuantityTypeIdentifierActiveEnergyBurned`.
    public var type: String
    public var start: Timestamp?
    public var end: Timestamp?
    public var average: Double?
    public var minimum: Double?
    public var maximum: Double?
    public var sum: Double?
    public var unit: String?
    public init(
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
public struct WorkoutEvent: Hashable, Sendable {
    public var type: String
    public var date: Timestamp?
    public var duration: Double?
    public var durationUnit: String?
    public var metadata: [MetadataEntry]
    public init(type: String, date: Timestamp?, duration: Double? = nil, durationUnit: String? = nil, metadata: [MetadataEntry] = []) {
        self.type = type
        self.date = date
        self.duration = duration
        self.durationUnit = durationUnit
        self.metadata = metadata
    }
}

/// A `WorkoutRoute`: either `FileReference` paths (iOS 13+) or a count of inline `Location`s.
public struct WorkoutRoute: Hashable, Sendable {
    public var source: String?
    public var start: Timestamp?
    public var end: Timestamp?
    public var filePaths: [String]
    public var inlineLocationCount: Int
    public init(source: String? = nil, start: Timestamp? = nil, end: Timestamp? = nil, filePaths: [String] = [], inlineLocationCount: Int = 0) {
        self.source = source
        self.start = start
        self.end = end
        self.filePaths = filePaths
        self.inlineLocationCount = inlineLocationCount
    }
}

/// A `WorkoutActivity` part of a multi-part workout. Its statistics belong to the part only and
/// are never added to the workout's own.
public struct WorkoutActivity: Hashable, Sendable {
    public var uuid: String?
    public var start: Timestamp?
    public var end: Timestamp?
    public var duration: Double?
    public var durationUnit: String?
    public var statistics: [WorkoutStatistic]
    public var events: [WorkoutEvent]
    public var metadata: [MetadataEntry]
    public init(uuid: String? = nil, start: Timestamp? = nil, end: Timestamp? = nil, duration: Double? = nil, durationUnit: String? = nil,
                statistics: [WorkoutStatistic] = [], events: [WorkoutEvent] = [], metadata: [MetadataEntry] = []) {
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
public struct Workout: Sendable {
    /// `HKWorkoutActivityTypeRunning`, or for HAE the mapped name with the same prefix.
    public var activityType: String
    public var source: String
    public var sourceVersion: String?
    public var device: String?
    public var start: Timestamp
    public var end: Timestamp
    public var created: Timestamp?
    public var duration: Double?
    public var durationUnit: String?
    public var totalDistance: Double?
    public var totalDistanceUnit: String?
    public var totalEnergyBurned: Double?
    public var totalEnergyBurnedUnit: String?
    public var statistics: [WorkoutStatistic]
    public var activities: [WorkoutActivity]
    public var events: [WorkoutEvent]
    public var routes: [WorkoutRoute]
    public var metadata: [MetadataEntry]
    /// Figures an input states directly in payload units (HAE's `avgHeartRate`, …); they win over
    /// derived ones. Readers of export.xml leave these nil.
    public var statedAverageHeartRate: Double?
    public var statedMaximumHeartRate: Double?
    public var timeZoneName: String?

    public init(activityType: String, source: String, start: Timestamp, end: Timestamp) {
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
