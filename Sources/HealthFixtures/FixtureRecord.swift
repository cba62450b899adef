import ExportParser

/// One `Record` element as the fixture writes it: already in the file's unit and text.
struct FixtureRecord: Sendable {
    var type: String
    var source: FixtureSource
    var unit: String?
    var value: String
    var start: Int64
    var end: Int64
    var created: Int64
    var metadata: [(key: String, value: String)] = []
    /// HRV beat list: beats per minute and the wall-clock time text the Health app writes.
    var beats: [(bpm: Int, time: String)] = []

    static let quantity = "HKQuantityTypeIdentifier"
    static let category = "HKCategoryTypeIdentifier"
}

/// A `Correlation` (food, blood pressure): its members are also written as top-level records,
/// as the Health app does.
struct FixtureCorrelation: Sendable {
    var type: String
    var source: FixtureSource
    var start: Int64
    var end: Int64
    var created: Int64
    var metadata: [(key: String, value: String)]
    var members: [FixtureRecord]
}

/// Apple's daily rings for one date, made from the same plan as the records.
struct FixtureActivitySummary: Sendable {
    var day: Int
    var activeKcal: Double
    var exerciseMinutes: Int
    var standHours: Int
}
