/// The `workout-avg` rule (running mechanics): a date's value is the mean of the samples taken
/// during that date's runs. Samples are kept until the workouts are known (12 bytes each: start in
/// seconds since 2001 and the value, in two lists whose full blocks wait in a temporary file),
/// then sorted once for binary searches. A bucket (HAE's day or hour statistic) has no time inside a run, so it counts for
/// its day when that day has a run. What no run takes is counted, never dropped silently.
///
/// Memory (issue 24): the samples wait until the end of the input (workouts are the file's last
/// elements). In arrays that doubled they were 7.9 MB of a 6 GB export's read peak (390 k
/// samples); in blocks, 4.7 MB; spilled (`SpilledList`), one block a list until the finish.
struct RunningMechanics {
    private var times: [Int: SpilledList<Int32>] = [:]
    private var values: [Int: SpilledList<Double>] = [:]
    private var buckets: [Int: [Int: (sum: Double, count: Int)]] = [:]
    /// Samples and buckets outside every running workout: in no payload (after `finish`).
    private(set) var outsideRuns = 0

    mutating func add(metric: Int, _ s: Sample, _ value: Double, clock: LocalClock) {
        if s.isBucket {
            let day = clock.day(s.start)
            buckets[metric, default: [:]][day, default: (0, 0)].sum += value
            buckets[metric]![day]!.count += 1
            return
        }
        times[metric, default: SpilledList()].append(Int32(clamping: s.start.seconds - WorkoutBook.epoch))
        values[metric, default: SpilledList()].append(value)
    }

    /// Means by day and metric index over `runs` (intervals in seconds since 1970, by the day
    /// they start on).
    mutating func finish(runs: [Int: [(Int64, Int64)]]) -> [Int: [Int: Double]] {
        var sorted: [Int: ([Int32], [Double])] = [:]
        var held = 0
        for metric in Array(times.keys) {
            let t = times[metric]!.restore(), v = values[metric]!.restore()
            held += t.count
            // By time, and samples of the same second in the order they came.
            var order: [(time: Int32, position: Int32)] = []
            order.reserveCapacity(t.count)
            t.forEach { order.append(($0, Int32(order.count))) }
            order.sort { ($0.time, $0.position) < ($1.time, $1.position) }
            sorted[metric] = (order.map(\.time), order.map { v[Int($0.position)] })
        }
        var out: [Int: [Int: Double]] = [:]
        var taken = 0
        for (n, intervals) in runs {
            for metric in Catalog.metrics where metric.rule == .workoutAvg {
                var sum = 0.0, count = 0
                if let (t, v) = sorted[metric.index] {
                    // Overlapping runs merged first, so a sample inside two of them counts once.
                    for (start, end) in Self.merged(intervals) {
                        var i = Self.lowerBound(t, start)
                        while i < t.count, Int64(t[i]) <= end {
                            sum += v[i]
                            count += 1
                            i += 1
                        }
                    }
                }
                taken += count
                // A bucket counts for its day's runs, each bucket as one value.
                if let b = buckets[metric.index]?.removeValue(forKey: n) {
                    sum += b.sum
                    count += b.count
                }
                if count > 0 { out[n, default: [:]][metric.index] = sum / Double(count) }
            }
        }
        let leftBuckets = buckets.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } }
        outsideRuns = max(0, held - taken) + leftBuckets
        times = [:]
        values = [:]
        buckets = [:]
        return out
    }

    /// Closed intervals (seconds since 1970) in seconds since 2001, merged where they overlap.
    static func merged(_ intervals: [(Int64, Int64)]) -> [(Int64, Int64)] {
        var out: [(Int64, Int64)] = []
        for (s, e) in intervals.map({ ($0.0 - WorkoutBook.epoch, $0.1 - WorkoutBook.epoch) }).sorted(by: { $0.0 < $1.0 }) {
            if let last = out.last, s <= last.1 { out[out.count - 1].1 = max(last.1, e) } else { out.append((s, e)) }
        }
        return out
    }

    /// First index whose time is at least `t`.
    static func lowerBound(_ times: [Int32], _ t: Int64) -> Int {
        var lo = 0, hi = times.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int64(times[mid]) < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
