/// What the reader collects from one HAE workout object while it streams past, in either export
/// version (docs/hae.md, "Workouts"). Version 2 has `id`, `duration`, `activeEnergyBurned` and a
/// `heartRate{min,avg,max}` object; version 1 has `activeEnergy` as a `{qty, units}` object (in
/// v2 `activeEnergy` is a per-minute array) and `elevation{ascent,descent,units}`. The version is
/// decided per workout from what was present, since files can mix them.
struct HAEWorkoutFields {
    /// A `{qty, units}` object.
    struct Quantity {
        var qty: Double?
        var units: String?
    }

    var name: String?
    var start: Timestamp?
    var end: Timestamp?
    var duration: Double?
    var id: String?
    var source: String?
    var activeEnergyBurned: Quantity?
    /// v1's `activeEnergy` object.
    var activeEnergy: Quantity?
    var distance: Quantity?
    var avgHeartRate: Quantity?
    var maxHeartRate: Quantity?
    /// v2's `heartRate.avg` / `heartRate.max`.
    var heartRateAvg: Quantity?
    var heartRateMax: Quantity?
    /// Running figures over `heartRateData` (v1 `qty`, v2 `Avg`/`Max`), the fallback when no
    /// stated average or maximum exists.
    var heartRateDataSum = 0.0
    var heartRateDataCount = 0
    var heartRateDataMax: Double?
    var heartRateDataUnits: String?
    /// Points in the workout's `route` array (counted, not kept).
    var routePoints = 0
    /// Scalar extras as text (details only).
    var metadata: [MetadataEntry] = []
    /// Byte offset of the workout's `{`, for skip messages.
    var byteOffset: Int64

    init(byteOffset: Int64) {
        self.byteOffset = byteOffset
    }

    var isVersion2: Bool { id != nil || duration != nil || activeEnergyBurned != nil || heartRateAvg != nil }
}
