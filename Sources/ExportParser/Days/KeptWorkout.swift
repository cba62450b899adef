/// What the day book keeps of a workout until the end of the input: the payload's figures that
/// do not depend on the clock, worked out on arrival (`WorkoutFigures.kept`). The start and end
/// are written in the local time that only the whole input's timeline gives, and the heart rate
/// of a workout that states none comes from samples read back at the end; both wait for
/// `WorkoutFigures.summary`.
///
/// Why not the `Workout`: its statistics, activities, events, routes and metadata (types, units,
/// keys as strings) are ≈ 2.7 kB a workout, 20 MB of the 3 GB export's 7,358 workouts, all held
/// to the end of the read (issue 24).
struct KeptWorkout {
    /// The HKWorkoutActivityType name without its prefix (`Running`).
    var type: String
    var isRunning: Bool
    var source: String
    var start: Timestamp
    var end: Timestamp
    var durationSeconds: Double
    var energyKcal: Double?
    var distanceMetres: Double?
    /// Stated by the input (HAE figures, or the heart-rate statistic converted); nil when not.
    var averageHeartRate: Double?
    var maximumHeartRate: Double?
    /// The workout states no average or no maximum heart rate (before conversion): the
    /// heart-rate samples inside its interval are kept for it.
    var needsHeartRateSamples: Bool
}
