/// The rules that fold one local date's samples on their own: `avg`, `latest`, `minmaxavg`, and
/// the first zone name and offset seen that date (the payload's `timezone`).
final class DayAccumulators {
    /// Per metric (`MetricSlots`: a date holds a few of each rule, and one of these lives for
    /// every date and every fringe slot until the end of the input).
    private var average = MetricSlots<(sum: Double, count: Int)>()
    private var latest = MetricSlots<(end: Int64, value: Double)>()
    /// `@exclusivity(unchecked)`: the day book updates it for every heart-rate sample, and the
    /// dynamic exclusivity check of a class's property others can reach (a thread-local access
    /// set's insert and removal) cost ≈ 115 instructions a sample (docs/hae.md, "Leaner
    /// datums"). Safe: one day book, and so its days, is used by one thread at a time, and no
    /// access to it overlaps another (the update calls nothing that reaches the day).
    @exclusivity(unchecked) var minMaxAvg = MetricSlots<MinMaxAvgAccumulator>()
    private(set) var zoneName: String?
    private(set) var offset: Int32?
    /// When the offset was seen (the book's sample count), so that a fringe slot merged in later
    /// gives its offset only when it saw one first.
    private var offsetOrder = Int.max

    /// The first zone name and recorded offset seen on the day name the payload's `timezone`.
    @inline(__always)
    func note(zone: String?, offset recorded: Int32, order: Int = 0) {
        if offset == nil {
            offset = recorded
            offsetOrder = order
        }
        if zoneName == nil, let zone { zoneName = zone }
    }

    @inline(__always)
    func addAverage(metric: Int, _ value: Double) {
        Self.add(value, count: 1, to: &average[metric, default: (0, 0)])
    }

    @inline(__always)
    private static func add(_ sum: Double, count: Int, to a: inout (sum: Double, count: Int)) {
        a.sum += sum
        a.count += count
    }

    /// The latest end wins; on a tie the later record in the file.
    @inline(__always)
    func addLatest(metric: Int, _ value: Double, end: Int64) {
        if latest[metric].map({ $0.end <= end }) ?? true { latest[metric] = (end, value) }
    }

    // What a fringe slot of the day book gathered (`FringeSlots`: samples near midnight whose
    // date was known only at the end) joins the date it turned out to belong to, one metric at a
    // time. A latest value tied on its end keeps this day's (file order is not known across
    // slots).

    @inline(__always)
    func mergeAverage(metric: Int, sum: Double, count: Int) {
        Self.add(sum, count: count, to: &average[metric, default: (0, 0)])
    }

    @inline(__always)
    func mergeLatest(metric: Int, value: Double, end: Int64) {
        if latest[metric].map({ $0.end < end }) ?? true { latest[metric] = (end, value) }
    }

    @inline(__always)
    func mergeMinMax(metric: Int, _ other: MinMaxAvgAccumulator) {
        minMaxAvg[metric, default: MinMaxAvgAccumulator()].merge(other)
    }

    /// The slot's first offset, when it saw one before this day did, and its zone name when the
    /// day has none.
    func mergeNote(zone: String?, offset other: Int32, order: Int) {
        if order < offsetOrder {
            offset = other
            offsetOrder = order
        }
        if zoneName == nil { zoneName = zone }
    }

    /// Writes the day's values into `day`.
    func finish(into day: inout FinishedDay) {
        for (i, a) in average { day.values[i] = a.sum / Double(a.count) }
        for (i, l) in latest { day.values[i] = l.value }
        for (i, acc) in minMaxAvg { day.summaries[i] = acc.summary }
    }
}
