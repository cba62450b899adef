/// The fields of one metric datum that the reader uses, already decoded from bytes (dates as
/// `Timestamp`, numbers as `Double`, sources interned). A datum is turned into a sample as soon
/// as its metric's `name` and `units` are known; iOS pretty-prints keys in random order, so a
/// metric's `data` can come before them, and then its datums wait as these structs until the
/// metric object ends.
///
/// Cost of that wait: about 200 bytes a datum (plus a small box for aggregated sleep records and
/// any detail metadata), never the JSON text. A day-aggregated export waits for a few hundred
/// datums. The wait is capped (`HAEReader.pendingLimit`, 50 000 datums ≈ 10 MB): past it the
/// datums are dropped and, once the metric object has ended, its bytes are parsed a second time
/// with name and units known. So a year of per-minute heart rate named last costs one more
/// parse of that metric's bytes instead of ~100 MB of memory.
struct HAEDatumFields {
    /// `date`: the bucket start of aggregated data. `startDate`/`endDate`: one HealthKit sample;
    /// `hasStartDate` marks the non-aggregated form even when its date does not parse.
    var date: Timestamp?
    var startDate: Timestamp?
    var endDate: Timestamp?
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
}
