/// The rules that fold one local date's samples on their own: `avg`, `latest`, `minmaxavg`, and
/// the first zone name and offset seen that date (the payload's `timezone`).
final class DayAccumulators {
    var avgSum: [Int: Double] = [:]
    var avgCount: [Int: Int] = [:]
    var latest: [Int: (end: Int64, value: Double)] = [:]
    var minMaxAvg: [Int: MinMaxAvgAccumulator] = [:]
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
        avgSum[metric, default: 0] += value
        avgCount[metric, default: 0] += 1
    }

    /// The latest end wins; on a tie the later record in the file.
    @inline(__always)
    func addLatest(metric: Int, _ value: Double, end: Int64) {
        if latest[metric].map({ $0.end <= end }) ?? true { latest[metric] = (end, value) }
    }

    /// Adds what `other` gathered: a fringe slot of the day book (samples near midnight whose
    /// date was known only at the end) joining the date it turned out to belong to. A latest
    /// value tied on its end keeps this day's (file order is not known across slots).
    func merge(_ other: DayAccumulators) {
        for (i, v) in other.avgSum { avgSum[i, default: 0] += v }
        for (i, n) in other.avgCount { avgCount[i, default: 0] += n }
        for (i, l) in other.latest where latest[i].map({ $0.end < l.end }) ?? true { latest[i] = l }
        for (i, acc) in other.minMaxAvg { minMaxAvg[i, default: MinMaxAvgAccumulator()].merge(acc) }
        if let o = other.offset, other.offsetOrder < offsetOrder {
            offset = o
            offsetOrder = other.offsetOrder
        }
        if zoneName == nil { zoneName = other.zoneName }
    }

    /// Writes the day's values into `day`.
    func finish(into day: inout FinishedDay) {
        for (i, sum) in avgSum { day.values[i] = sum / Double(avgCount[i]!) }
        for (i, l) in latest { day.values[i] = l.value }
        for (i, acc) in minMaxAvg { day.summaries[i] = acc.summary }
    }
}
