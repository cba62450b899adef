/// The fields of one metric datum that the reader uses, already decoded from bytes (dates as
/// `Timestamp`, numbers as `Double`, sources interned). A datum is turned into a sample as soon
/// as its metric's `name` and `units` are known; iOS pretty-prints keys in random order, so a
/// metric's `data` can come before them, and then its datums wait as these structs until the
/// metric object ends.
///
/// Cost of that wait: about 200 bytes a datum (plus a 100-byte box for aggregated sleep
/// records and any detail metadata), never the JSON text. A day-aggregated export waits for a
/// few hundred datums; a per-minute heart-rate export of a year with `name` last would hold
/// about 525 000, roughly 100 MB — the worst case of the design, documented rather than hidden.
struct HAEDatumFields {
    /// `date`: the bucket start of aggregated data. `hasDate` records a present but unparseable
    /// value, so the skip message can say which.
    var date: Timestamp?
    var startDate: Timestamp?
    var endDate: Timestamp?
    var hasDate = false
    var hasStartDate = false
    var qty: Double?
    var min: Double?
    var avg: Double?
    var max: Double?
    var source: String?
    /// The sleep segment `value` (Core, Deep, …), as a stage; `.unknown` when present but unknown.
    var stage: HAESleepStage?
    var stageText: String?
    /// Aggregated sleep fields, boxed: only `sleep_analysis` records have them.
    var sleep: HAESleepFields?
    /// Position, for skip messages: index in the metric's `data` array and byte offset of `{`.
    var index: Int
    var byteOffset: Int64
    /// Other scalar fields as text (`mealTime`, `systolic`, …), only when a sink wants details.
    var extras: [MetadataEntry] = []

    init(index: Int, byteOffset: Int64) {
        self.index = index
        self.byteOffset = byteOffset
    }

    mutating func sleepFields() -> HAESleepFields {
        if let sleep { return sleep }
        let s = HAESleepFields()
        sleep = s
        return s
    }
}

/// The fields of HAE's aggregated `sleep_analysis` record (all three generations; missing fields
/// stay nil). A class so `HAEDatumFields` stays small for every other metric.
final class HAESleepFields {
    var asleep: Double?
    var core: Double?
    var deep: Double?
    var rem: Double?
    var awake: Double?
    var inBed: Double?
    var totalSleep: Double?
    var sleepStart: Timestamp?
    var sleepEnd: Timestamp?
    var inBedStart: Timestamp?
    var inBedEnd: Timestamp?
    var sleepSource: String?
    var hasSleepEnd = false
}
