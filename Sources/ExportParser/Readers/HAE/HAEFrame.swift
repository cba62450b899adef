/// One open JSON container on the reader's stack: what it means to the reader (`role`), where
/// it sits (for JSON paths in messages) and, for objects, the key of the member being read.
struct HAEFrame {
    /// What a container is to the HAE reader, decided when it opens from its parent's role and key.
    enum Role: Equatable {
        /// A top-level array of bodies (`[ {"data": …} ]`) or `"data": [ … ]`.
        case bodies
        /// An object holding `metrics`, `workouts` and other arrays; `data` nests another.
        case body
        case metrics
        case metric
        /// A metric's `data` array.
        case datums
        case datum
        case workouts
        case workout
        /// A `{qty, units}` object inside a workout (or inside its `heartRate`).
        case quantity(HAEQuantityTarget)
        /// A workout's `heartRate {min, avg, max}`.
        case workoutHeartRate
        /// A v1 workout's `elevation {ascent, descent, units}`.
        case workoutElevation
        /// A workout's `metadata` object (details only).
        case workoutMetadata
        /// A workout's `route` array: only its points are counted.
        case workoutRoute
        /// A workout's `heartRateData` array and its items.
        case heartRateData
        case heartRateDatum
        /// An array other than metrics/workouts (medications, stateOfMind, …) and, inside it,
        /// an item being copied out as JSON text.
        case extraArray
        case capture
        /// Anything the reader ignores; everything inside it is ignored too.
        case skip
    }

    var role: Role
    var isArray: Bool
    /// Arrays: elements begun so far (the current element is `count - 1`).
    var count = 0
    /// Objects: the key of the member being read.
    var key: HAEKey = .unknown
    /// Objects: the keys of ours met so far, one bit per `HAEKey` (a key twice is refused).
    var seenKeys: UInt64 = 0
    /// Objects: the other keys met so far, whose values are kept as metadata (a key twice is
    /// refused too). Empty, and so not allocated, in the usual object that has none.
    var otherKeys: [[UInt8]] = []
    /// How the parent names this container: an index (parent is an array) or key bytes.
    var indexInParent: Int?
    var keyInParent: [UInt8]

    init(role: Role, isArray: Bool, indexInParent: Int?, keyInParent: [UInt8]) {
        self.role = role
        self.isArray = isArray
        self.indexInParent = indexInParent
        self.keyInParent = keyInParent
    }
}

/// Which workout figure a `{qty, units}` object holds.
enum HAEQuantityTarget: Equatable {
    case activeEnergyBurned, activeEnergy, distance, avgHeartRate, maxHeartRate
    case heartRateMin, heartRateAvg, heartRateMax
    /// Any other `{qty, units}` (intensity, temperature, humidity, speed, …): metadata text.
    case other
}
