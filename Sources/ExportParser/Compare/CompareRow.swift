/// One compared value: a field of one date (or a figure of a matched workout) on both sides.
struct CompareRow: Sendable {
    enum Status: String, Sendable, CaseIterable {
        case match, mismatch
        case onlyNative = "only-native"
        case onlyHAE = "only-hae"
        /// A field one side cannot state (the heart-rate count of HAE buckets), or text that is
        /// not compared (a sleep source): never a mismatch.
        case notComparable = "not-comparable"
    }

    var date: String
    /// The payload path (`metrics.step_count`), or `workouts.energy_kcal` for a workout figure and
    /// `workouts` for an unmatched workout.
    var field: String
    /// The workout a `workouts…` row is about: `Running 07:00:00`.
    var workout: String?
    var unit: String?
    /// Decimals the payload gives the field (for display).
    var decimals = 2
    var native: OutputField.Scalar?
    var hae: OutputField.Scalar?
    /// native − HAE (minutes for in-bed times); nil unless both are numbers or instants.
    var difference: Double?
    /// |native − HAE| / |HAE|; nil where not defined (text, times, HAE 0).
    var relativeDifference: Double?
    var tolerance: Tolerance?
    var status: Status
}

/// Something one side stopped delivering, reported apart from mismatches.
struct CompareGap: Sendable, Equatable {
    enum Kind: String, Sendable {
        /// A date in the window with no data at all from the side.
        case missingDate = "missing-date"
        /// A field the side delivered before and no longer does.
        case fieldStopped = "field-stopped"
        /// A field the side delivered before and after, but not on this date.
        case fieldMissing = "field-missing"
        /// `--monitor`: the monitored dates at the end that the side has nothing for (it
        /// stopped delivering on its last date).
        case stopped
    }
    var kind: Kind
    var side: CompareSide
    var date: String
    var field: String?
    /// "no metrics.step_count from HAE after 2026-03-20", "native sleep.total_hours missing on 2026-03-24".
    var sentence: String
}

enum CompareSide: String, Sendable {
    case native, hae
    var name: String { self == .native ? "native" : "HAE" }
}
