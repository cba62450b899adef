/// What makes two workouts the same workout: everything a reader read except the creation date.
/// A sync that repeats a workout (one real export holds 8 workouts written 4–7 times each) writes
/// copies that differ only there; they count once (docs/rules.md, "Workouts").
struct WorkoutIdentity: Hashable {
    var activityType: String
    var source: String
    var sourceVersion: String?
    var device: String?
    var start: Timestamp
    var end: Timestamp
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
    var statedAverageHeartRate: Double?
    var statedMaximumHeartRate: Double?

    init(_ w: Workout) {
        activityType = w.activityType
        source = w.source
        sourceVersion = w.sourceVersion
        device = w.device.map(Self.withoutAddress)
        start = w.start
        end = w.end
        duration = w.duration
        durationUnit = w.durationUnit
        totalDistance = w.totalDistance
        totalDistanceUnit = w.totalDistanceUnit
        totalEnergyBurned = w.totalEnergyBurned
        totalEnergyBurnedUnit = w.totalEnergyBurnedUnit
        statistics = w.statistics
        activities = w.activities
        events = w.events
        routes = w.routes
        metadata = w.metadata
        statedAverageHeartRate = w.statedAverageHeartRate
        statedMaximumHeartRate = w.statedMaximumHeartRate
    }

    /// `<<HKDevice: 0x282a45810>, name:…>` → `<<HKDevice>, name:…>`: the address is a memory
    /// address of the exporting process, different in every copy.
    static func withoutAddress(_ device: String) -> String {
        guard device.hasPrefix("<<HKDevice: 0x"), let close = device.firstIndex(of: ">") else { return device }
        return "<<HKDevice" + device[close...]
    }
}
