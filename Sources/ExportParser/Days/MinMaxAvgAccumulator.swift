/// The `minmaxavg` rule for one metric and one day: mean, extremes and count of the samples.
/// A bucket (HAE's statistics of many samples) gives its average to the mean and its own
/// extremes; it does not say how many samples it holds, so a day with one has no count.
struct MinMaxAvgAccumulator {
    private var sum = 0.0
    private var count = 0
    private var minimum = Double.infinity
    private var maximum = -Double.infinity
    private var sawBucket = false

    mutating func add(_ value: Double, bucketMinimum: Double?, bucketMaximum: Double?, isBucket: Bool) {
        sum += value
        count += 1
        minimum = min(minimum, bucketMinimum ?? value)
        maximum = max(maximum, bucketMaximum ?? value)
        if isBucket { sawBucket = true }
    }

    /// Adds what `other` gathered (another stretch of the same day).
    mutating func merge(_ other: MinMaxAvgAccumulator) {
        sum += other.sum
        count += other.count
        minimum = min(minimum, other.minimum)
        maximum = max(maximum, other.maximum)
        sawBucket = sawBucket || other.sawBucket
    }

    var summary: MinMaxAvgSummary? {
        count > 0 ? MinMaxAvgSummary(average: sum / Double(count), minimum: minimum, maximum: maximum, count: sawBucket ? nil : count) : nil
    }
}
