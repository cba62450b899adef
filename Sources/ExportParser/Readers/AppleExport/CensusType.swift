/// What `compare`'s census knows of one record type it has met (`ExportWindow.Seen.types`), in
/// plain values: a worker reads it for every record it cuts, and a `Metric` (a class), its
/// strings or an array of the unit's bytes would be retained and released there each time (perf:
/// `swift_retain`/`swift_release` 6.5 % of a worker's samples when the census held them).
struct CensusType {
    /// How a record of the type goes into the census.
    enum Cut {
        /// A type the catalog does not have: no date (its source named only for a watch).
        case uncatalogued
        /// The average, min-max and latest rules: its start's date.
        case start
        /// The sum rule: every date its quarter-hours overlap.
        case sum
        /// The workout-average rule (running mechanics): its start, dated by the runs that hold
        /// it once the workouts are known (`WindowCensus.runningStarts`).
        case run
        /// The night rule: read.
        case read
    }

    /// Units this long or shorter are kept in `unitWords`; a longer one is converted afresh for
    /// every record (none of the catalog's is).
    static let unitBytes = 16

    let cut: Cut
    /// The type's name: its length and last eight bytes (0 when shorter), tested before its
    /// bytes (`ExportWindow.typeIndex`): the catalog's names differ at their end.
    let nameCount: Int, nameTail: UInt64
    /// `Catalog.metrics`' index, or -1.
    let metric: Int
    /// `Metric.plausible`, in the metric's unit.
    let low: Double, high: Double
    /// The last unit met with the type (its bytes as written, zero-padded), -1 before any; and
    /// its conversion to the metric's unit (`value * scale + zero`), nil when the catalog has none.
    private(set) var unitCount = -1
    private(set) var unitWords: (UInt64, UInt64) = (0, 0)
    private(set) var conversion: (scale: Double, zero: Double)?

    init(metric: Metric?, nameCount: Int, nameTail: UInt64) {
        self.nameCount = nameCount
        self.nameTail = nameTail
        self.metric = metric?.index ?? -1
        low = metric?.plausible.lowerBound ?? 0
        high = metric?.plausible.upperBound ?? 0
        switch metric?.rule {
        case nil: cut = .uncatalogued
        case .sum: cut = .sum
        case .avg, .minMaxAvg, .latest: cut = .start
        case .workoutAvg: cut = .run
        case .nightAvg: cut = .read
        }
    }

    /// Whether `conversion` is the unit's (`count` bytes, zero-padded into `words`).
    @inline(__always)
    func knows(unitCount count: Int, words: (UInt64, UInt64)) -> Bool {
        count == unitCount && count <= Self.unitBytes && words == unitWords
    }

    /// The conversion of a unit met (the unit's text as the reader has it: no unit is "").
    mutating func learn(unitCount count: Int, words: (UInt64, UInt64), text: String) {
        unitCount = count
        unitWords = words
        let unit = Catalog.metrics[metric].unit
        conversion = unit.convert(1, from: text).map { one in
            let zero = unit.convert(0, from: text) ?? 0
            return (one - zero, zero)
        }
    }

    /// Whether the reader takes a value (in the metric's unit): `Metric.implausibility` is nil.
    @inline(__always)
    func isPlausible(_ value: Double) -> Bool {
        value.isFinite && value >= low && value <= high
    }
}
