/// Every object key the HAE reader acts on, across all contexts (metric, datum, sleep record,
/// workout, `{qty, units}` objects). Keys arrive from yajl as bytes; `HAEKey.lookup` matches
/// them without creating a String, so a datum costs no allocation for its keys.
///
/// Spellings that mean the same thing to the reader share a case (`Min` in metric datums and
/// workout `heartRateData`, `min` inside a workout's `heartRate` object).
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): `lookup` forwards a key's
/// `(pointer, count)`, valid for the call, to `HAEKeyTable`.
enum HAEKey: UInt8 {
    case unknown
    // Document structure
    case data, metrics, workouts, name, units
    // Metric datums
    case date, startDate, endDate, qty, min, avg, max, source, value
    // Aggregated sleep records
    case asleep, core, deep, rem, awake, inBed, totalSleep
    case sleepStart, sleepEnd, inBedStart, inBedEnd, sleepSource, inBedSource
    // Workouts
    case id, start, end, duration, activeEnergyBurned, activeEnergy, totalEnergy, distance
    case avgHeartRate, maxHeartRate, heartRate, heartRateData, elevation, ascent, descent
    case metadata, route

    /// Every spelling the reader matches (`HAEKeyTable` indexes them). `StaticString`s need no
    /// reference counting while they are compared.
    static let spellings: [(StaticString, HAEKey)] = [
        ("data", .data), ("metrics", .metrics), ("workouts", .workouts), ("name", .name), ("units", .units),
        ("date", .date), ("startDate", .startDate), ("endDate", .endDate), ("qty", .qty),
        ("Min", .min), ("min", .min), ("Avg", .avg), ("avg", .avg), ("Max", .max), ("max", .max),
        ("source", .source), ("value", .value),
        ("asleep", .asleep), ("core", .core), ("deep", .deep), ("rem", .rem), ("awake", .awake),
        ("inBed", .inBed), ("totalSleep", .totalSleep), ("sleepStart", .sleepStart), ("sleepEnd", .sleepEnd),
        ("inBedStart", .inBedStart), ("inBedEnd", .inBedEnd), ("sleepSource", .sleepSource), ("inBedSource", .inBedSource),
        ("id", .id), ("start", .start), ("end", .end), ("duration", .duration),
        ("activeEnergyBurned", .activeEnergyBurned), ("activeEnergy", .activeEnergy), ("totalEnergy", .totalEnergy),
        ("distance", .distance), ("avgHeartRate", .avgHeartRate), ("maxHeartRate", .maxHeartRate),
        ("heartRate", .heartRate), ("heartRateData", .heartRateData), ("elevation", .elevation),
        ("ascent", .ascent), ("descent", .descent), ("metadata", .metadata), ("route", .route),
    ]

    /// The key for the bytes of an object key (`HAEKeyTable`), `.unknown` when it is none of ours.
    @inline(__always)
    static func lookup(_ p: UnsafePointer<UInt8>, _ count: Int) -> HAEKey {
        HAEKeyTable.shared.lookup(p, count)
    }

    /// The first spelling of a key, for JSON paths when its bytes were not kept.
    var spelling: String {
        for (s, k) in Self.spellings where k == self { return s.description }
        return "?"
    }
}
