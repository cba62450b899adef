/// What one local date must give, decided before any sample is written: the value of every
/// catalog field the day has (payload units, on the field's wire grid so rounding cannot go
/// either way), the heart-rate samples' figures, the night and the workouts. The samples are then
/// made to add up to it, and the expected payloads are written from it.
struct DayPlan: Sendable {
    var day: Int
    var zoneName: String
    /// By `Metric.index`; nil where the day has no sample of the field.
    var values: [Double?]
    var heartRate: MinMaxAvgSummary?
    var sleep: SleepPlan?
    var workouts: [WorkoutPlan] = []

    init(day: Int, zoneName: String) {
        self.day = day
        self.zoneName = zoneName
        values = Array(repeating: nil, count: Catalog.metrics.count)
    }

    subscript(field: String) -> Double? {
        get { values[Catalog.metric(named: field).index] }
        set { values[Catalog.metric(named: field).index] = newValue }
    }
}

/// One night, dated by its wake-up date: the stage segments the watch writes (or none, when only
/// the iPhone's bedtime InBed is there) and the figures they give.
struct SleepPlan: Sendable {
    enum Stage: String, Sendable {
        case core = "AsleepCore", deep = "AsleepDeep", rem = "AsleepREM", awake = "Awake", inBed = "InBed"
    }
    struct Segment: Sendable {
        var stage: Stage
        var start: Int64
        var end: Int64
    }
    /// The watch's segments, contiguous, whole minutes; empty on an iPhone-only night.
    var segments: [Segment]
    /// The iPhone's bedtime InBed envelope.
    var inBedStart: Int64
    var inBedEnd: Int64

    func minutes(_ stage: Stage) -> Int {
        segments.filter { $0.stage == stage }.reduce(0) { $0 + Int($1.end - $1.start) / 60 }
    }
    var asleepMinutes: Int { minutes(.core) + minutes(.deep) + minutes(.rem) }
    var watchWorn: Bool { !segments.isEmpty }
    var sleepStart: Int64 { segments.first { $0.stage != .awake }?.start ?? inBedStart }
    var sleepEnd: Int64 { segments.last { $0.stage != .awake }?.end ?? inBedEnd }
}

/// One workout and the figures its payload entry must carry.
struct WorkoutPlan: Sendable {
    enum Kind: String, Sendable {
        case running = "Running", walking = "Walking", strength = "FunctionalStrengthTraining"
        /// Health Auto Export's display name.
        var haeName: String {
            switch self {
            case .running: return "Outdoor Run"
            case .walking: return "Outdoor Walk"
            case .strength: return "Functional Strength Training"
            }
        }
    }
    var kind: Kind
    var start: Int64
    var end: Int64
    /// Seconds paused (left out of the stated duration).
    var pauseSeconds: Int64
    var energyKcal: Int
    /// Nil for strength (older exports write `totalDistance="0"`: no distance).
    var distanceMetres: Int?
    var averageHeartRate: Double
    var maximumHeartRate: Double
    var minimumHeartRate: Double
    /// Whether the figures are in `WorkoutStatistics` (current exports) or only the old total
    /// attributes, with heart rate left to the samples inside the workout.
    var statistics: Bool
    var steps: Int
    /// Written twice, identical but for the creation date (a sync's copy): counts once.
    var writtenTwice = false
    var uuid: String
    var durationSeconds: Int64 { end - start - pauseSeconds }
    var source: FixtureSource { .watch }
}
