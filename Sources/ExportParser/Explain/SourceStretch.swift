/// Sum rule: the time one source won on the date. Sources are ranked by the priority order; each
/// wins the stretches its samples cover that no higher source covers.
struct SourceStretch: Sendable {
    var source: String
    /// 1 for the highest priority present that date.
    var rank: Int
    /// The stretches won, ISO 8601 with the local offset.
    var spans: [(start: String, end: String)]
    /// Seconds won in all.
    var seconds: Int64
}
