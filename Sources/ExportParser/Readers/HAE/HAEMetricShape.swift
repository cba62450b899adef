/// What the reader knows about one HAE metric once its `name` and `units` are in: which catalog
/// row (if any) it feeds, the sample type it emits, and which datum shape to expect. Built once
/// per metric object, then applied to each of its datums by `HAEDatumMapper`.
struct HAEMetricShape {
    enum Kind {
        /// `qty` datums of a catalog metric.
        case quantity
        /// `heart_rate`: `Min/Avg/Max` buckets, or `qty` single samples.
        case heartRate
        /// `apple_sleeping_wrist_temperature`: day buckets are dated by the evening before.
        case wristTemperature
        /// `sleep_analysis`: aggregated nights or non-aggregated segments.
        case sleep
        /// Not in the catalog: passed through as `hae:<name>` for the store.
        case uncataloged
    }

    let name: String
    let units: String?
    let metric: Metric?
    let kind: Kind
    /// `metric.healthKitType`, the sleep category type, or `hae:<name>`.
    let type: String
    /// Whether `units` converts to the catalog unit (checked once, not per datum).
    let unitConverts: Bool
    /// Where the metric object is, for skip messages (`data.metrics[3]`).
    let path: String

    static let sleepName = "sleep_analysis"

    init(name: String, units: String?, path: String) {
        self.name = name
        self.units = units
        self.path = path
        if name == Self.sleepName {
            metric = nil
            kind = .sleep
            type = Catalog.sleepType
            // Sleep hours are converted by CanonicalUnit.hours; HAE always writes "hr".
            unitConverts = units.map { CanonicalUnit.hours.convert(1, from: $0) != nil } ?? true
        } else if let m = Catalog.metric(forHAEName: name) {
            metric = m
            type = m.healthKitType
            switch m.healthKitType {
            case "HKQuantityTypeIdentifierHeartRate": kind = .heartRate
            case "HKQuantityTypeIdentifierAppleSleepingWristTemperature": kind = .wristTemperature
            default: kind = .quantity
            }
            if let units, let (a, b) = Self.linear(m.unit, units) {
                unitConverts = true
                (scale, offset) = (a, b)
                return
            }
            unitConverts = false
        } else {
            metric = nil
            kind = .uncataloged
            type = "hae:" + name
            unitConverts = false
        }
        (scale, offset) = (1, 0)
    }

    /// The conversion `units` → catalog unit as `value × scale + offset`, looked up once per
    /// metric rather than per datum (`CanonicalUnit.convert` compares unit strings on every call).
    /// Same rules as `convert(_:from:percentScale: .whole)`: HAE percentages are already 0–100.
    private let scale: Double
    private let offset: Double

    private static func linear(_ target: CanonicalUnit, _ units: String) -> (Double, Double)? {
        if target == .percent { return units == "%" || units == "percent" ? (1, 0) : nil }
        if units == target.rawValue { return (1, 0) }
        return CanonicalUnit.table[target]?[units]
    }

    /// `value` in the catalog unit, or nil when the metric or its unit is not convertible.
    @inline(__always)
    func canonical(_ value: Double?) -> Double? {
        guard unitConverts, let value else { return nil }
        return value * scale + offset
    }

    /// Sleep hours in hours (`units` "hr" in every real file; "min"/"s" converted if ever seen).
    @inline(__always)
    func hours(_ value: Double?) -> Double? {
        guard let value else { return nil }
        guard let units else { return value }
        return CanonicalUnit.hours.convert(value, from: units)
    }
}
