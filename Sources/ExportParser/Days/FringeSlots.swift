/// The day book's fringe slots (`FringeKey`): what the samples recorded near a local midnight
/// gave to the `avg`, `latest` and `minmaxavg` rules, and the first zone and offset they were
/// recorded in, kept per quarter-hour until `finish` knows each slot's date from the input's
/// timeline, and then merged into that date's `DayAccumulators` in key (time) order.
///
/// Why flat: a slot lives until the end of the input, and there are about eight a date (97,636
/// in the 6.4 GB, 33-year export of issue 24). As a `DayAccumulators` object each, in a
/// dictionary by key, they were ≈ 17 MB of that export's 82 MB heap peak: an object header and
/// a few fields, a heap array per rule used, and the dictionary's entry. Here a slot is one
/// 24-byte row, each (slot, metric) one row of 24 bytes (avg, latest) or 48 (minmaxavg), all in
/// fixed blocks (`BlockList`: nothing doubles or moves), and the dictionary maps a key to its
/// slot's row. A slot's rows are chained from the slot (a slot holds one to a few metrics, the
/// chain is walked on each sample like `MetricSlots` scans its array).
///
/// What a merge gives is what merging the slot's `DayAccumulators` gave, bit for bit: each
/// (slot, metric) is one row folded the same way (`MinMaxAvgAccumulator`, the same sums and the
/// same tie rule for `latest`), and the slots reach their dates in the same key order.
struct FringeSlots {
    /// A slot: the first offset it was recorded in and when (the book's sample count, so that a
    /// slot merged into a date gives its offset only when it saw one first), its first zone
    /// name (an index of `zones`, −1: none yet) and the heads of its two chains (−1: empty).
    private struct Slot {
        var order: Int
        var offset: Int32
        var zone: Int32 = -1
        var firstPlain: Int32 = -1
        var firstMinMax: Int32 = -1
    }

    /// One metric's `avg` (`x` the sum, `y` the count) or `latest` (`x` the value, `y` its end)
    /// in one slot; `next` chains the slot's rows.
    private struct PlainRow {
        var x: Double
        var y: Int64
        var metric: Int32
        var next: Int32
    }

    /// One metric's `minmaxavg` in one slot.
    private struct MinMaxRow {
        var accumulator: MinMaxAvgAccumulator  // 41 bytes
        var metric: Int16  // the catalog's few dozen metrics
        var next: Int32
    }

    private var slotOfKey: [Int: Int32] = [:]
    private var slots = BlockList<Slot>()
    private var plain = BlockList<PlainRow>()
    private var minMax = BlockList<MinMaxRow>()
    private var zones: [String] = []
    private var zoneIDs: [String: Int32] = [:]
    /// The last key asked for and its slot: a metric's samples come in time order, so most
    /// samples fall in the slot of the one before.
    private var lastKey = Int.min
    private var lastSlot: Int32 = -1

    var count: Int { slots.count }

    /// The slot of `key`, made on its first sample: the first offset and zone name seen in it.
    @inline(__always)
    mutating func slot(_ key: Int, zone: String?, offset: Int32, order: Int) -> Int32 {
        let s: Int32
        if key == lastKey {
            s = lastSlot
        } else if let found = slotOfKey[key] {
            s = found
        } else {
            s = Int32(slots.count)
            slots.append(Slot(order: order, offset: offset))
            slotOfKey[key] = s
        }
        lastKey = key
        lastSlot = s
        if let zone, slots[Int(s)].zone < 0 { slots[Int(s)].zone = zoneID(zone) }
        return s
    }

    private mutating func zoneID(_ name: String) -> Int32 {
        if let id = zoneIDs[name] { return id }
        let id = Int32(zones.count)
        zones.append(name)
        zoneIDs[name] = id
        return id
    }

    /// The row of `metric` in the slot's plain chain, made holding (x, y) when missing.
    @inline(__always)
    private mutating func plainRow(_ slot: Int32, metric: Int, x: Double, y: Int64) -> (row: Int, isNew: Bool) {
        var r = slots[Int(slot)].firstPlain
        while r >= 0 {
            if plain[Int(r)].metric == Int32(metric) { return (Int(r), false) }
            r = plain[Int(r)].next
        }
        plain.append(PlainRow(x: x, y: y, metric: Int32(metric), next: slots[Int(slot)].firstPlain))
        slots[Int(slot)].firstPlain = Int32(plain.count - 1)
        return (plain.count - 1, true)
    }

    /// `DayAccumulators.addAverage`: the sum and count of the metric's values in the slot.
    @inline(__always)
    mutating func addAverage(_ slot: Int32, metric: Int, _ value: Double) {
        // A new row starts at (0, 0) and adds, as `average[metric, default: (0, 0)]` does (0 + −0
        // is 0, so a first value of −0 must not be stored as it is).
        let (r, _) = plainRow(slot, metric: metric, x: 0, y: 0)
        plain[r].x += value
        plain[r].y += 1
    }

    /// `DayAccumulators.addLatest`: the latest end wins; on a tie the later sample.
    @inline(__always)
    mutating func addLatest(_ slot: Int32, metric: Int, _ value: Double, end: Int64) {
        let (r, isNew) = plainRow(slot, metric: metric, x: value, y: end)
        if !isNew, plain[r].y <= end { (plain[r].x, plain[r].y) = (value, end) }
    }

    /// `minmaxavg`: the slot's accumulator of the metric.
    @inline(__always)
    mutating func addMinMax(_ slot: Int32, metric: Int, _ value: Double, bucketMinimum: Double?, bucketMaximum: Double?, isBucket: Bool) {
        var r = slots[Int(slot)].firstMinMax
        while r >= 0, minMax[Int(r)].metric != Int16(metric) { r = minMax[Int(r)].next }
        if r < 0 {
            minMax.append(MinMaxRow(accumulator: MinMaxAvgAccumulator(), metric: Int16(metric), next: slots[Int(slot)].firstMinMax))
            r = Int32(minMax.count - 1)
            slots[Int(slot)].firstMinMax = r
        }
        minMax[Int(r)].accumulator.add(value, bucketMinimum: bucketMinimum, bucketMaximum: bucketMaximum, isBucket: isBucket)
    }

    /// Merges every slot into the accumulators `date(key)` gives, in key (time) order: a date's
    /// averages and extremes add slot by slot, so the order decides their last bits. The slots
    /// are freed as a whole afterwards. `isLatest(metric)` tells the plain rows apart.
    mutating func mergeAll(into date: (_ key: Int) -> DayAccumulators, isLatest: (_ metric: Int) -> Bool) {
        var keyed = slotOfKey.map { (key: $0.key, slot: $0.value) }
        slotOfKey = [:]
        keyed.sort { $0.key < $1.key }
        for (key, s) in keyed {
            let slot = slots[Int(s)], d = date(key)
            var r = slot.firstPlain
            while r >= 0 {
                let row = plain[Int(r)]
                if isLatest(Int(row.metric)) {
                    d.mergeLatest(metric: Int(row.metric), value: row.x, end: row.y)
                } else {
                    d.mergeAverage(metric: Int(row.metric), sum: row.x, count: Int(row.y))
                }
                r = row.next
            }
            r = slot.firstMinMax
            while r >= 0 {
                let row = minMax[Int(r)]
                d.mergeMinMax(metric: Int(row.metric), row.accumulator)
                r = row.next
            }
            d.mergeNote(zone: slot.zone < 0 ? nil : zones[Int(slot.zone)], offset: slot.offset, order: slot.order)
        }
        self = FringeSlots()
    }
}
