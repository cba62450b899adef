/// Every object key the HAE reader acts on, across all contexts (metric, datum, sleep record,
/// workout, `{qty, units}` objects). Keys arrive from yajl as bytes; `HAEKey.lookup` matches
/// them without creating a String, so a datum costs no allocation for its keys.
///
/// Spellings that mean the same thing to the reader share a case (`Min` in metric datums and
/// workout `heartRateData`, `min` inside a workout's `heartRate` object).
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

    /// Spellings, grouped by byte length so a lookup compares only keys of the right length.
    /// `StaticString`s need no reference counting while the table is scanned.
    private static let spellings: [(StaticString, HAEKey)] = [
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

    private static let maxLength = 24
    /// `sorted[ranges[n]]` are the spellings of byte length n.
    private static let sorted: [(StaticString, HAEKey)] = spellings.sorted { $0.0.utf8CodeUnitCount < $1.0.utf8CodeUnitCount }
    private static let ranges: [Range<Int>] = (0...maxLength).map { n in
        let lo = sorted.firstIndex { $0.0.utf8CodeUnitCount == n } ?? 0
        let hi = sorted.lastIndex { $0.0.utf8CodeUnitCount == n }.map { $0 + 1 } ?? 0
        return lo..<Swift.max(lo, hi)
    }

    /// Open hash on (length, first byte, last byte): each slot holds the one spelling that hashes
    /// there (index + 1), 0 when none, or `collision` when several do (then the length bucket is
    /// scanned). Most keys are found with one comparison.
    private static let collision: UInt8 = 255
    private static let slots: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 256)
        for (i, e) in sorted.enumerated() {
            let n = e.0.utf8CodeUnitCount, p = e.0.utf8Start
            let h = hash(n, p[0], p[n - 1])
            t[h] = t[h] == 0 ? UInt8(i + 1) : collision
        }
        return t
    }()

    @inline(__always)
    private static func hash(_ n: Int, _ first: UInt8, _ last: UInt8) -> Int {
        (n &* 37 &+ Int(first) &* 7 &+ Int(last) &* 3) & 255
    }

    @inline(__always)
    static func lookup(_ p: UnsafePointer<UInt8>, _ count: Int) -> HAEKey {
        guard count > 0, count <= maxLength else { return .unknown }
        let slot = slots[hash(count, p[0], p[count - 1])]
        if slot == 0 { return .unknown }
        return sorted.withUnsafeBufferPointer { table in
            if slot != collision {
                let e = table[Int(slot) - 1]
                return e.0.utf8CodeUnitCount == count && equal(e.0.utf8Start, p, count) ? e.1 : .unknown
            }
            for i in ranges[count] where equal(table[i].0.utf8Start, p, count) { return table[i].1 }
            return .unknown
        }
    }

    @inline(__always)
    private static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        var j = 0
        while j < n, a[j] == b[j] { j += 1 }
        return j == n
    }

    /// The first spelling of a key, for JSON paths when its bytes were not kept.
    var spelling: String {
        for (s, k) in Self.spellings where k == self { return s.description }
        return "?"
    }
}
