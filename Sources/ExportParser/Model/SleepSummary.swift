/// A night as an input that already aggregated it states it (HAE's `sleep_analysis` with
/// Summarize on). Hours are in hours; nil where the input's generation lacks the field.
struct SleepSummary: Sendable {
    /// The wake-up instant (`sleepEnd`): the night is dated by its local date.
    var sleepEnd: Timestamp
    var sleepStart: Timestamp?
    var totalHours: Double
    var coreHours: Double?
    var deepHours: Double?
    var remHours: Double?
    var awakeHours: Double?
    /// Unspecified asleep hours (`asleep`).
    var asleepHours: Double?
    var inBedHours: Double?
    var inBedStart: Timestamp?
    var inBedEnd: Timestamp?
    var source: String?
    init(sleepEnd: Timestamp, totalHours: Double) {
        self.sleepEnd = sleepEnd
        self.totalHours = totalHours
    }
}
