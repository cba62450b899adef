/// What `compare`'s window read of an HAE file learns from the datums it skips (issue 42,
/// docs/hae.md "The window read"), as the export side's `WindowCensus` does for the records it
/// cuts (whose quarter-hour bitsets it uses): per metric and recorded offset the UTC quarter-hours
/// the datums give data to, mapped to local dates at the end with the day book's clock, and the
/// source names the day book would hold (a sum's: `DayBook.sourceNames`).
///
/// Heart rate is kept apart by what its datums are to the day rules, since a date with a bucket
/// has no `count` (docs/rules.md, "minmaxavg"): readings, buckets, and equal datums at whole
/// minutes, which are whatever their metric object decides (`HAEDatumMapper.heartRateBucket`),
/// kept by that object's start offset until the walker has told (`resolved`).
struct HAEWindowCensus {
    enum Kind: Equatable {
        case reading
        case bucket
        /// An equal heart-rate datum at a whole minute of the metric object starting at this offset.
        case decidedBy(Int64)
    }

    /// Every datum but heart-rate buckets and the undecided.
    private(set) var plain = WindowCensus()
    private(set) var buckets = WindowCensus()
    private(set) var undecided: [Int64: WindowCensus] = [:]
    /// The undecided datums of the object met last (they come an object at a time): put into
    /// `undecided` when another object's come, not looked up there datum by datum.
    private var current: (object: Int64, census: WindowCensus)?
    /// The sum datums' source names as written (no escape: the recogniser takes none).
    private(set) var sources: Set<[UInt8]> = []
    private var lastSource: [UInt8] = []

    /// A datum of an average, min-max or latest metric (its start's date), heart rate by `kind`.
    mutating func add(metric: Int, start: Timestamp, heartRate kind: Kind) {
        switch kind {
        case .reading: plain.add(metric: metric, start: start)
        case .bucket: buckets.add(metric: metric, start: start)
        case .decidedBy(let object):
            if current?.object != object {
                putCurrentAway()
                current = (object, undecided.removeValue(forKey: object) ?? WindowCensus())
            }
            current!.census.add(metric: metric, start: start)
        }
    }

    private mutating func putCurrentAway() {
        if let (object, census) = current { undecided[object] = census }
        current = nil
    }

    /// A sum datum: every quarter-hour it overlaps.
    mutating func add(metric: Int, start: Timestamp, end: Int64) {
        plain.add(metric: metric, start: start, end: end)
    }

    mutating func addSource(_ name: [UInt8]) {
        if name == lastSource { return }
        sources.insert(name)
        lastSource = name
    }

    /// The census with each undecided heart-rate datum put with the readings or the buckets, as
    /// its metric object decided (`decisions`: true for buckets). Nil when an object's decision
    /// is missing (the walker never finished it: cannot happen after a read that ended well).
    func resolved(_ decisions: [Int64: Bool]) -> HAEWindowCensus? {
        var out = self
        out.putCurrentAway()
        for (object, census) in out.undecided {
            guard let buckets = decisions[object] else { return nil }
            if buckets { out.buckets.merge(census) } else { out.plain.merge(census) }
        }
        out.undecided = [:]
        return out
    }

    /// The source names as the day book holds them.
    var sourceNames: Set<String> { Set(sources.map { String(decoding: $0, as: UTF8.self) }) }
}
