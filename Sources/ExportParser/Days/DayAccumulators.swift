/// The rules that fold one local date's samples on their own: `avg`, `latest`, `minmaxavg`, and
/// the first zone name and offset seen that date (the payload's `timezone`).
final class DayAccumulators {
    var avgSum: [Int: Double] = [:]
    var avgCount: [Int: Int] = [:]
    var latest: [Int: (end: Int64, value: Double)] = [:]
    var minMaxAvg: [Int: MinMaxAvgAccumulator] = [:]
    private(set) var zoneName: String?
    private(set) var offset: Int32?

    /// The first zone name and recorded offset seen on the day name the payload's `timezone`.
    @inline(__always)
    func note(zone: String?, offset recorded: Int32) {
        if offset == nil { offset = recorded }
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

    /// Writes the day's values into `day`.
    func finish(into day: inout FinishedDay) {
        for (i, sum) in avgSum { day.values[i] = sum / Double(avgCount[i]!) }
        for (i, l) in latest { day.values[i] = l.value }
        for (i, acc) in minMaxAvg { day.summaries[i] = acc.summary }
    }
}
