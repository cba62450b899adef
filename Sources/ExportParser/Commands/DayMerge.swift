/// Combines the days of several inputs read in one run. Each input has its own day book (sums
/// from an Apple export and from HAE must not be added together: both count the same steps), and
/// where two inputs have a value for the same field of the same date, the later input on the
/// command line wins. Workouts are the union, without repeating one with the same type and start.
enum DayMerge {
    static func merge(_ perInput: [[FinishedDay]]) -> [FinishedDay] {
        var byDay: [Int: FinishedDay] = [:]
        for days in perInput {
            for d in days {
                guard var cur = byDay[d.dayNumber] else {
                    byDay[d.dayNumber] = d
                    continue
                }
                for (i, v) in d.values.enumerated() where v != nil { cur.values[i] = v }
                for (i, m) in d.summaries.enumerated() where m != nil { cur.summaries[i] = m }
                if let s = d.sleep { cur.sleep = s }
                for w in d.workouts where !cur.workouts.contains(where: { $0.type == w.type && $0.start == w.start }) {
                    cur.workouts.append(w)
                }
                cur.workouts.sort { $0.startSeconds < $1.startSeconds }
                cur.timezone = d.timezone
                byDay[d.dayNumber] = cur
            }
        }
        return byDay.values.sorted { $0.dayNumber < $1.dayNumber }
    }
}
