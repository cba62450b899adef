/// How one day's samples of a type become the payload's number (docs/rules.md, one section a rule).
package enum Rule: String, Sendable {
    /// Total of the day's samples after overlapping sources are resolved; midnight-crossing
    /// samples are split in proportion to time.
    case sum
    /// Mean of the day's sample values.
    case avg
    /// `{avg, min, max, count}` over the day's samples.
    case minMaxAvg = "minmaxavg"
    /// The value of the sample with the latest end on that day.
    case latest
    /// Mean of the samples of the night that ends on that date (attributed like sleep).
    case nightAvg = "night-avg"
    /// Mean of the samples inside that day's running workouts.
    case workoutAvg = "workout-avg"
}

/// Where a field lives in the payload.
enum PayloadSection: String, Sendable {
    case metrics
    case runningMechanics = "running_mechanics"
}
