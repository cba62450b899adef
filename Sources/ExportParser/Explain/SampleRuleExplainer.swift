/// Explains the rules that take samples whole: `avg`, `latest`, the parts of `minmaxavg`,
/// `night-avg` and `workout-avg`. The samples are those the day book placed on the date (or its
/// night); which of them the rule used follows the rule's definition (docs/rules.md), and the
/// value is always the payload's own.
enum SampleRuleExplainer {
    static func explain(_ d: AttributedDay, metric: Int, kind: OutputField.Kind, into e: inout Explanation) {
        let all = (d.attribution.samples[metric] ?? []).filter { $0.canonicalValue != nil }
        var used = Array(repeating: false, count: all.count)
        var counted = Array(repeating: 0.0, count: all.count)
        var notes = Array(repeating: String?.none, count: all.count)
        func v(_ i: Int) -> Double { all[i].canonicalValue! }
        /// The mean's parts: each used sample counts value ÷ n.
        func mean(_ chosen: [Int]) {
            for i in chosen {
                used[i] = true
                counted[i] = v(i) / Double(chosen.count)
            }
        }
        /// One sample stands for the value: the first whose figure is `target`.
        func single(_ figure: (Int) -> Double, target: Double?) {
            guard let target, let i = all.indices.first(where: { figure($0) == target }) else { return }
            used[i] = true
            counted[i] = target
        }
        switch kind {
        case .avg:
            e.rule = "avg: the mean of the \(all.count) samples that start on the date"
            mean(Array(all.indices))
        case .latest:
            e.rule = "latest: the value of the sample with the latest end on the date (on a tie the later one read)"
            var best: Int?
            for i in all.indices where best.map({ all[$0].end.seconds <= all[i].end.seconds }) ?? true { best = i }
            if let best {
                used[best] = true
                counted[best] = v(best)
            }
        case .min:
            e.rule = "min: the lowest of the date's samples (a bucket gives its own minimum)"
            single({ all[$0].bucketMinimum ?? v($0) }, target: e.number)
        case .max:
            e.rule = "max: the highest of the date's samples (a bucket gives its own maximum)"
            single({ all[$0].bucketMaximum ?? v($0) }, target: e.number)
        case .count:
            e.rule = "count: how many samples start on the date (none when a bucket was read: it does not say)"
            for i in all.indices where !all[i].isBucket {
                used[i] = true
                counted[i] = 1
            }
        case .nightAvg:
            e.rule = "night-avg: the mean of the samples of the night that ends on the date (ending after 12:00 the day before, by 12:00)"
            mean(Array(all.indices))
        case .workoutAvg:
            e.rule =
                "workout-avg: the mean of the samples taken during the date's running workouts (a bucket counts when the date has a run)"
            let runs = d.attribution.workouts.filter { $0.activityType == "HKWorkoutActivityTypeRunning" }
            let chosen = all.indices.filter { i in
                let s = all[i]
                if s.isBucket { return !runs.isEmpty && d.clock.day(s.start) == d.attribution.day }
                return runs.contains { $0.start.seconds <= s.start.seconds && s.start.seconds <= $0.end.seconds }
            }
            mean(chosen)
            for i in all.indices where !used[i] { notes[i] = "outside the date's runs" }
        default:
            e.rule = kind.rawValue
        }
        for i in all.indices where all[i].isBucket && notes[i] == nil { notes[i] = "a bucket statistic of the input" }
        e.samples = all.indices.map { i in
            let s = all[i]
            return ExplainedSample(
                start: d.iso(s.start), end: d.iso(s.end), value: v(i), source: s.source, device: ExplainedSample.deviceName(s.device),
                counted: counted[i], used: used[i], note: notes[i])
        }
    }
}
