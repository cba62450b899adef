import ExportParser

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

/// One night, dated by its wake-up date: the watch's stage segments (or none, when only the
/// iPhone's bedtime InBed is there) and the iPhone's InBed of the sleep that ends on the date,
/// and a shift worker's evening nap, a session of its own on the same date (docs/rules.md,
/// "Nights"). The properties below but `nap` describe the main sleep.
struct SleepPlan: Sendable {
    enum Stage: String, Sendable {
        case core = "AsleepCore", deep = "AsleepDeep", rem = "AsleepREM", awake = "Awake", inBed = "InBed"
    }
    struct Segment: Sendable {
        var stage: Stage
        var start: Int64
        var end: Int64
    }
    /// The watch's segments, whole minutes, none overlapping; empty on an iPhone-only night.
    var segments: [Segment]
    /// The iPhone's bedtime InBed records (not overlapping).
    var inBed: [(start: Int64, end: Int64)]
    /// A nap the watch recorded as one core segment, three hours or more after the main sleep.
    var nap: Segment? = nil
    var inBedStart: Int64 { inBed.map(\.start).min() ?? sleepStart }
    var inBedEnd: Int64 { inBed.map(\.end).max() ?? sleepEnd }
    var inBedSeconds: Int64 { inBed.reduce(0) { $0 + $1.end - $1.start } }

    func minutes(_ stage: Stage) -> Int {
        segments.filter { $0.stage == stage }.reduce(0) { $0 + Int($1.end - $1.start) / 60 }
    }
    var asleepMinutes: Int { minutes(.core) + minutes(.deep) + minutes(.rem) }
    var watchWorn: Bool { !segments.isEmpty }
    var sleepStart: Int64 { segments.filter { $0.stage != .awake }.map(\.start).min() ?? inBed.map(\.start).min() ?? 0 }
    var sleepEnd: Int64 { segments.filter { $0.stage != .awake }.map(\.end).max() ?? inBed.map(\.end).max() ?? 0 }
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
