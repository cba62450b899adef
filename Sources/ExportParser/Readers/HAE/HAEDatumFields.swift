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
    /// The datum's `source`, nil when it has none. Kept as the interned name and its id
    /// (`sourceID`, −1 for none) with a flag: a datum reset for the next one (`reset`) keeps the
    /// name's storage, so a file that repeats one source datum after datum costs no reference
    /// counting for it here (the decoder thread's largest single cost was retain/release:
    /// docs/hae.md, "Leaner datums").
    var source: String? { hasSource ? sourceName : nil }
    private var sourceName = ""
    /// The walker's interned id of `sourceName` (kept across `reset`), −1 before any.
    private var sourceNameID = -1
    private var hasSource = false
    /// The walker's interned id of `source` (a walker's ids name one string each); −1 when the
    /// datum has none.
    var sourceID: Int { hasSource ? sourceNameID : -1 }
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

    /// Sets `source` to the interned name `id`; `name` is asked for only when the id changed.
    @inline(__always)
    mutating func setSource(id: Int, _ name: () -> String) {
        if id != sourceNameID {
            sourceName = name()
            sourceNameID = id
        }
        hasSource = true
    }

    /// Makes this the empty datum at `index` and `byteOffset`, as `init` would, field by field:
    /// assigning a new value destroyed the whole old one and built the new one (≈ 150
    /// instructions a datum); the source name's storage is kept (see `source`).
    @inline(__always)
    mutating func reset(index: Int, byteOffset: Int64) {
        date = nil
        startDate = nil
        endDate = nil
        hasStartDate = false
        qty = nil
        min = nil
        avg = nil
        max = nil
        hasSource = false
        stage = nil
        if stageText != nil { stageText = nil }
        if sleep != nil { sleep = nil }
        if !extras.isEmpty { extras = [] }
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
