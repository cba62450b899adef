/// A night as an input that already aggregated it states it (HAE's `sleep_analysis` with
/// Summarize on). Hours are in hours; nil where the input's generation lacks the field.
public struct SleepSummary: Sendable {
    /// The wake-up instant (`sleepEnd`): the night is dated by its local date.
    public var sleepEnd: Timestamp
    public var sleepStart: Timestamp?
    public var totalHours: Double
    public var coreHours: Double?
    public var deepHours: Double?
    public var remHours: Double?
    public var awakeHours: Double?
    /// Unspecified asleep hours (`asleep`).
    public var asleepHours: Double?
    public var inBedHours: Double?
    public var inBedStart: Timestamp?
    public var inBedEnd: Timestamp?
    public var source: String?
    public init(sleepEnd: Timestamp, totalHours: Double) {
        self.sleepEnd = sleepEnd
        self.totalHours = totalHours
    }
}
